"""Fuzz target: every x86 SIMD skcipher against its generic twin.

No kernel counterpart (crypto/testmgr.c's test_skcipher_vs_generic_impl
does this in the kernel).  One input picks a pair, a key (a valid length, or
any length: both must refuse alike), an IV, a message of any length (block
modes refuse a partial block alike), then encrypts or decrypts through the
one-call path in one buffer form (new bytes, ``out=``, in place, an offset
view; a partly overlapping ``out=`` must be refused with EINVAL) and through a
request over random scatterlists; both must give the reference's bytes.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.errors import EINVAL, CryptoError

from buffers import run_direct, run_request
from fuzz_input import FuzzInput
from pairs import SKCIPHERS, pick, raise_status, same_outcome

MAX_LEN = 4096 + 300


def _key(fi: FuzzInput, tfm) -> bytes:
    if fi.uint(15) == 0:
        return fi.blob(fi.uint(80))
    lens = sorted({tfm.min_keysize, tfm.max_keysize, (tfm.min_keysize + tfm.max_keysize) // 2})
    return fi.blob(fi.choice(lens))


def _crypt_request(tfm, encrypt: bool, iv: bytes, n: int):
    def submit(src, dst):
        wait = capi.crypto_init_wait()
        req = capi.skcipher_request_alloc(tfm)
        capi.skcipher_request_set_crypt(req, src, dst, n, bytearray(iv))
        capi.skcipher_request_set_callback(req, 0, capi.crypto_req_done, wait)
        op = capi.crypto_skcipher_encrypt if encrypt else capi.crypto_skcipher_decrypt
        raise_status(tfm, capi.crypto_wait_req(op(req) or 0, wait))
    return submit


def _overlap_refused(drv, data: bytes, iv: bytes, shift: int) -> None:
    """``out=`` overlapping ``data`` by all but ``shift`` bytes: EINVAL, buffer untouched."""
    n = len(data)
    buf = bytearray(data) + bytes(shift)
    before = bytes(buf)
    try:
        drv.encrypt(memoryview(buf)[:n], iv, out=memoryview(buf)[shift:shift + n])
    except CryptoError as e:
        if e.errno != EINVAL:
            raise AssertionError(f"{drv.driver_name}: overlapping out= refused with errno {e.errno}: {e}")
        if bytes(buf) != before:
            raise AssertionError(f"{drv.driver_name}: a refused overlapping out= changed the buffer")
        return
    raise AssertionError(f"{drv.driver_name}: out= overlapping the input by {n - shift} bytes was accepted")


def check(data: bytes) -> None:
    fi = FuzzInput(data)
    picked = pick(fi, SKCIPHERS, capi.crypto_alloc_skcipher)
    if picked is None:
        return
    ref_name, drv_name, ref, drv = picked
    key = _key(fi, ref)
    if same_outcome(f"{drv_name} setkey({len(key)} bytes)",
                    lambda: ref.setkey(key) or b"", lambda: drv.setkey(key) or b"") is None:
        return
    iv = fi.blob(ref.ivsize)
    msg = fi.blob(fi.length(MAX_LEN))
    encrypt = fi.flag()
    n = len(msg)
    what = f"{drv_name} {'encrypt' if encrypt else 'decrypt'} {n} bytes"
    ref_op = ref.encrypt if encrypt else ref.decrypt
    drv_op = drv.encrypt if encrypt else drv.decrypt
    want = same_outcome(what, lambda: ref_op(msg, iv),
                        lambda: run_direct(fi, lambda d, out: drv_op(d, iv, out=out), msg, n))
    if want is None:
        return
    got = same_outcome(what + " (request)", lambda: want,
                       lambda: run_request(fi, _crypt_request(drv, encrypt, iv, n), msg, n))
    assert got == want
    if n > 1 and fi.uint(7) == 0:
        _overlap_refused(drv, msg, iv, 1 + fi.uint(n - 2))      # 1 .. n-1: a true overlap
