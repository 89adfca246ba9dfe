"""tcrypt speed modes (crypto/tcrypt.c, Linux v5.0) with the kernel's log lines.

``speed --tcrypt 219`` does what ``modprobe tcrypt mode=219`` does: the
skcipher speed test of adiantum(xchacha12,aes) and adiantum(xchacha20,aes),
encryption then decryption, key size 32, block sizes {16, 64, 256, 1024,
1472, 8192}.  As in the kernel: allocated by name with the sync mask, key,
IV and data all 0xff, in place, the data starting ``keysize`` bytes into the
first page and spanning page-sized scatterlist entries when longer, through
the request API.  Cycles mode (``sec`` 0) runs 4 warm-up and 8 timed
operations and prints ``(cycles + 4) / 8``; ``--sec N`` counts operations
for N seconds.  The module then "fails to load" with EAGAIN, as tcrypt
always does.

Cycles are not read from a cycle counter: each operation is timed with
``time.perf_counter_ns`` and converted with the stated CPU frequency.
"""

from __future__ import annotations

import errno
import os
from time import perf_counter_ns
from typing import Callable, Dict, List, Tuple

import crypto_api as capi
from crypto_api.errors import EINVAL, CryptoError

PAGE_SIZE = 4096
TVMEMSIZE = 4
ENCRYPT, DECRYPT = 1, 0
#: speed_template_32 and the v5.0 block_sizes of tcrypt.c.
SPEED_TEMPLATE_32 = (32,)
BLOCK_SIZES_V50 = (16, 64, 256, 1024, 1472, 8192)

#: mode -> the test_cipher_speed calls it makes: (algorithm, direction, key sizes).
MODES: Dict[int, List[Tuple[str, int, Tuple[int, ...]]]] = {
    219: [("adiantum(xchacha12,aes)", ENCRYPT, SPEED_TEMPLATE_32),
          ("adiantum(xchacha12,aes)", DECRYPT, SPEED_TEMPLATE_32),
          ("adiantum(xchacha20,aes)", ENCRYPT, SPEED_TEMPLATE_32),
          ("adiantum(xchacha20,aes)", DECRYPT, SPEED_TEMPLATE_32)],
}

#: Length of tcrypt's second (``sec`` mode counts operations for ``sec`` of these).
SECOND_NS = 1_000_000_000

LOAD_FAILURE = f"modprobe: ERROR: could not insert 'tcrypt': {os.strerror(errno.EAGAIN)}"


def tcrypt_sgl(tvmem: List[bytearray], keysize: int, blen: int):
    """The in-place scatterlist of test_skcipher_speed: data at tvmem[0] + keysize."""
    k = keysize + blen
    sgl = capi.sg_init_table((k + PAGE_SIZE - 1) // PAGE_SIZE)
    if k > PAGE_SIZE:
        capi.sg_set_buf(sgl[0], tvmem[0], keysize, PAGE_SIZE - keysize)
        k -= PAGE_SIZE
        j = 1
        while k > PAGE_SIZE:
            tvmem[j][:] = b"\xff" * PAGE_SIZE
            capi.sg_set_buf(sgl[j], tvmem[j], 0, PAGE_SIZE)
            j += 1
            k -= PAGE_SIZE
        tvmem[j][:k] = b"\xff" * k
        capi.sg_set_buf(sgl[j], tvmem[j], 0, k)
    else:
        capi.sg_set_buf(sgl[0], tvmem[0], keysize, blen)
    return sgl


def _cycles(run: Callable[[], int], mhz: float) -> str:
    for _ in range(4):                       # warm-up
        run()
    total = 0.0
    for _ in range(8):
        t0 = perf_counter_ns()
        run()
        total += (perf_counter_ns() - t0) * mhz / 1000
    return f"1 operation in {int(total + 4) // 8} cycles"


def _jiffies(run: Callable[[], int], secs: int) -> int:
    end = perf_counter_ns() + secs * SECOND_NS
    count = 0
    while perf_counter_ns() < end:
        run()
        count += 1
    return count


def test_skcipher_speed(algo: str, enc: int, secs: int, keysizes, mhz: float,
                        out: Callable[[str], None]) -> None:
    """One test_cipher_speed call: header, then one line per (key size, block size)."""
    e = "encryption" if enc == ENCRYPT else "decryption"
    try:
        tfm = capi.crypto_alloc_skcipher(algo, 0, capi.CRYPTO_ALG_ASYNC)
    except CryptoError as err:
        out(f"tcrypt: failed to load transform for {algo}: {-err.errno}")
        return
    try:
        req = capi.skcipher_request_alloc(tfm)
        out("tcrypt:")
        out(f"testing speed of async {algo} ({tfm.driver_name}) {e}")
        tvmem = [bytearray(PAGE_SIZE) for _ in range(TVMEMSIZE)]
        crypt = capi.crypto_skcipher_encrypt if enc == ENCRYPT else capi.crypto_skcipher_decrypt
        i = 0
        for keysize in keysizes:
            for bs in BLOCK_SIZES_V50:
                if keysize + bs > TVMEMSIZE * PAGE_SIZE:
                    out(f"tcrypt: template ({keysize + bs}) too big for tvmem ({TVMEMSIZE * PAGE_SIZE})")
                    return
                prefix = f"tcrypt: test {i} ({keysize * 8} bit key, {bs} byte blocks): "
                tvmem[0][:] = b"\xff" * PAGE_SIZE
                tfm.clear_flags(~0)
                try:
                    tfm.setkey(bytes(tvmem[0][:keysize]))
                except CryptoError:
                    out(prefix)
                    out(f"tcrypt: setkey() failed flags={tfm.get_flags():x}")
                    return
                sgl = tcrypt_sgl(tvmem, keysize, bs)
                iv = bytearray(b"\xff" * tfm.ivsize)
                capi.skcipher_request_set_crypt(req, sgl, sgl, bs, iv)
                run = lambda: crypt(req)  # noqa: E731
                try:
                    if secs:
                        count = _jiffies(run, secs)
                        result = f"{count} operations in {secs} seconds ({count * bs} bytes)"
                    else:
                        result = _cycles(run, mhz) + f" ({bs} bytes)"
                except CryptoError:
                    out(prefix)
                    out(f"tcrypt: {e}() failed flags={tfm.get_flags():x}")
                    break
                out(prefix + result)
                i += 1
    finally:
        tfm.free()


def check_mode(mode: int, secs: int, mhz) -> None:
    """Refuse (EINVAL) a mode that is not implemented, or cycles without a clock rate."""
    if mode not in MODES:
        raise CryptoError(EINVAL, f"--tcrypt {mode}: mode not implemented (implemented: "
                                  f"{', '.join(str(m) for m in sorted(MODES))})")
    if not secs and not mhz:
        raise CryptoError(EINVAL, "--tcrypt: cycles mode needs a CPU frequency "
                                  "(--cpu-mhz N), or use --sec N")


def run_mode(mode: int, secs: int, mhz, out: Callable[[str], None], err: Callable[[str], None]) -> int:
    """Run a tcrypt speed mode; the load-failure line goes to ``err``. Returns 0."""
    check_mode(mode, secs, mhz)
    for algo, enc, keysizes in MODES[mode]:
        test_skcipher_speed(algo, enc, secs, keysizes, mhz, out)
    err(LOAD_FAILURE)
    return 0
