"""``crypto-api benchmark``: ``cryptsetup benchmark``'s cipher table, and
cipherbench's cycles per byte (``--cipherbench``).

The table has cryptsetup's layout, line for line: its comment line, its
header and one ``%15s  %9db  %10.1f MiB/s  %10.1f MiB/s`` row per cipher and
key size, in its order (aes, serpent, twofish in cbc with 128- and 256-bit
keys, then xts with 256- and 512-bit keys), then the two Adiantum ciphers
this project adds (``xchacha12,aes-adiantum`` and ``xchacha20,aes-adiantum``,
256-bit keys), as ``cryptsetup benchmark -c xchacha12,aes-adiantum -s 256``
prints them.  crypto_api has no Serpent or Twofish: their rows say ``N/A``
as cryptsetup's do where the kernel lacks a cipher, so the table lines up
with one from cryptsetup on any machine.  PBKDF2 and Argon2 lines are out
of scope (crypto_api has no key derivation); they are not printed.

Each row is measured through the disk tool's path, the one a dm-crypt
volume takes: crypto_api.VolumeCipher with the cipher specification
(``aes-xts-plain64`` ...), encrypting and decrypting a ``--buffer-size``
buffer (default 1 MiB, as cryptsetup's) in place as ``--sector-size``-byte
sectors (default 4096, LUKS2's usual sector; cryptsetup hands the whole
buffer to the kernel as one request) with their plain64 IVs.  MiB/s is
2^20 bytes per second of the best of ``--repeat`` timed runs of at least
``--time-budget`` ms each; a note on stderr says so.

``--cipherbench`` prints google/adiantum cipherbench's lines instead:
``Detected max CPU frequency``, the buffer size and tries, then per
algorithm and direction a 45-column label with the implementation (our
driver) in parentheses, ``%6.3f cpb`` and ``(N KB/s)`` (KB = 1000 bytes).
Like cipherbench it takes the best of ``--tries`` tries of about 1 MB of
messages each and derives cycles from the CPU frequency (the speed tool's
``--cpu-mhz``), not from a cycle counter.
"""

from __future__ import annotations

import argparse
import sys
from time import perf_counter_ns
from typing import Callable, Optional, Tuple

import attrs

import crypto_api as capi
from crypto_api.errors import EINVAL, ENOENT, CryptoError
from crypto_api.dmcrypt import SECTOR_SIZES, VolumeCipher

from .speed import parse_size
from .speed_machine import cpu_mhz
from .speed_targets import pattern

COMMENT = "# Tests are approximate using memory only (no storage IO)."
HEADER = "#     Algorithm |       Key |      Encryption |      Decryption"
ROW = "{name:>15}  {bits:>9}b  {enc:>10.1f} MiB/s  {dec:>10.1f} MiB/s"
ROW_NA = "{name:>15}  {bits:>9}b {na:>17} {na:>17}"


@attrs.frozen
class Cipher:
    """One row: cryptsetup's cipher-mode name, its key size in bits and the dm-crypt spec."""

    name: str
    key_bits: int
    ivmode: str = "plain64"

    @property
    def spec(self) -> str:
        return f"{self.name}-{self.ivmode}"


#: cryptsetup benchmark's own rows, in its order, then this project's ciphers.
CIPHERS = tuple(Cipher(f"{c}-{mode}", bits) for mode, sizes in (("cbc", (128, 256)), ("xts", (256, 512)))
                for bits in sizes for c in ("aes", "serpent", "twofish")) + (
    Cipher("xchacha12,aes-adiantum", 256), Cipher("xchacha20,aes-adiantum", 256))

#: cipherbench's algorithms at its message sizes: (label, crypto API name, key bytes).
CIPHERBENCH = (("Adiantum-XChaCha12-AES", "adiantum(xchacha12,aes)", 32),
               ("Adiantum-XChaCha20-AES", "adiantum(xchacha20,aes)", 32),
               ("AES-256-XTS", "xts(aes)", 64),
               ("XChaCha12", "xchacha12", 32),
               ("XChaCha20", "xchacha20", 32))
CIPHERBENCH_BYTES_PER_TRY = 1 << 20
LABEL_WIDTH = 45


def _best_ns(fn: Callable[[], None], budget_ns: float, repeat: int) -> Tuple[float, int]:
    """(best wall ns of one call, calls per run): runs of at least ``budget_ns`` each."""
    fn()                                                      # warm-up, and calibration
    t0 = perf_counter_ns()
    fn()
    one = max(perf_counter_ns() - t0, 1)
    calls = max(1, int(budget_ns // one))
    best = None
    for _ in range(repeat):
        t0 = perf_counter_ns()
        for _ in range(calls):
            fn()
        per = (perf_counter_ns() - t0) / calls
        best = per if best is None else min(best, per)
    return best, calls


def measure_volume(c: Cipher, buffer_size: int, sector_size: int, budget_ms: float,
                   repeat: int) -> Optional[Tuple[float, float]]:
    """(encryption, decryption) MiB/s of ``c`` through VolumeCipher, or None
    where crypto_api lacks the cipher (ENOENT: cryptsetup's N/A)."""
    try:
        vol = VolumeCipher(c.spec, pattern(c.key_bits // 8, seed=1), sector_size=sector_size)
    except CryptoError as e:
        if e.errno == ENOENT:
            return None
        raise
    with vol:
        buf = bytearray(pattern(buffer_size))
        out = []
        for fn in (vol.encrypt_sectors, vol.decrypt_sectors):
            ns, _calls = _best_ns(lambda: fn(0, buf), budget_ms * 1e6, repeat)
            out.append(buffer_size / (ns / 1e9) / 2 ** 20)
    return out[0], out[1]


def table_row(c: Cipher, mib: Optional[Tuple[float, float]]) -> str:
    if mib is None:
        return ROW_NA.format(name=c.name, bits=c.key_bits, na="N/A")
    return ROW.format(name=c.name, bits=c.key_bits, enc=mib[0], dec=mib[1])


def cipherbench_line(label: str, direction: str, impl: str, cpb: Optional[float], bytes_per_s: float) -> str:
    name = f"{label} {direction} ({impl})"
    value = f"{cpb:6.3f} cpb" if cpb is not None else "     - cpb"
    label_col = name.ljust(LABEL_WIDTH) if len(name) < LABEL_WIDTH else name + " "   # never run together
    return f"{label_col}{value} ({bytes_per_s / 1000:.0f} KB/s)"


def run_cipherbench(size: int, tries: int, mhz: Optional[float], mhz_source: str,
                    emit: Callable[[str], None]) -> None:
    emit(f"Detected max CPU frequency: {mhz:.0f} MHz" if mhz else
         f"Detected max CPU frequency: unknown ({mhz_source}); pass --cpu-mhz N for cpb")
    emit(f"Buffer size: {size} bytes, best of {tries} tries of {CIPHERBENCH_BYTES_PER_TRY >> 20} MB each")
    for label, name, key_len in CIPHERBENCH:
        try:
            tfm = capi.crypto_alloc_skcipher(name)
        except CryptoError as e:
            if e.errno == ENOENT:
                continue
            raise
        try:
            tfm.setkey(pattern(key_len, seed=1))
            buf = bytearray(pattern(size))
            iv = pattern(tfm.ivsize, seed=2)
            per_try = max(1, CIPHERBENCH_BYTES_PER_TRY // size)
            for direction, fn in (("encryption", tfm.encrypt), ("decryption", tfm.decrypt)):
                def batch(fn=fn) -> None:
                    for _ in range(per_try):
                        fn(buf, iv, out=buf)
                best = None
                batch()                                   # warm-up
                for _ in range(tries):
                    t0 = perf_counter_ns()
                    batch()
                    ns = perf_counter_ns() - t0
                    best = ns if best is None else min(best, ns)
                nbytes = per_try * size
                cpb = best * mhz / 1000 / nbytes if mhz else None
                emit(cipherbench_line(label, direction, tfm.driver_name, cpb, nbytes / (best / 1e9)))
        finally:
            tfm.free()


def _int_in(what: str, low: int, high: int):
    def conv(text: str) -> int:
        n = parse_size(text) if what.endswith("size") else int(text)
        if not low <= n <= high:
            raise argparse.ArgumentTypeError(f"{what} {n}: must be {low}..{high}")
        return n
    return conv


def register(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "benchmark", help="cryptsetup benchmark's cipher table (or cipherbench's cycles per byte)",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--buffer-size", type=_int_in("--buffer-size", 4096, 64 << 20), default=1 << 20,
                   metavar="BYTES", help="bytes encrypted per timed call (default 1M, as cryptsetup)")
    p.add_argument("--sector-size", type=int, choices=SECTOR_SIZES, default=4096,
                   help="dm-crypt sector size the buffer is encrypted in (default 4096)")
    p.add_argument("--time-budget", type=float, default=200.0, metavar="MS",
                   help="minimum duration of one timed run in ms (default 200)")
    p.add_argument("--repeat", type=_int_in("--repeat", 1, 100), default=3, metavar="N",
                   help="timed runs per row and direction; the best is shown (default 3)")
    p.add_argument("--cipherbench", action="store_true",
                   help="print cipherbench's cycles-per-byte lines instead of the table")
    p.add_argument("--size", type=_int_in("--size", 16, 1 << 20), default=4096, metavar="BYTES",
                   help="--cipherbench message size (default 4096; the Adiantum paper also uses 512)")
    p.add_argument("--tries", type=_int_in("--tries", 1, 100), default=5, metavar="N",
                   help="--cipherbench tries per line, best kept (default 5)")
    p.add_argument("--cpu-mhz", default="auto", metavar="MHZ",
                   help="--cipherbench: MHz for cycles: a number, auto (/proc/cpuinfo), none")
    p.set_defaults(func=main)
    return p


def _emit(line: str) -> None:
    print(line, flush=True)


def main(args) -> int:
    if not 0.01 <= args.time_budget <= 10000:
        raise CryptoError(EINVAL, f"--time-budget {args.time_budget:g}: must be 0.01..10000 ms")
    if args.buffer_size % args.sector_size:
        raise CryptoError(EINVAL, f"--buffer-size {args.buffer_size}: not whole {args.sector_size}-byte sectors")
    capi.load_all()
    if args.cipherbench:
        mhz, source = cpu_mhz(args.cpu_mhz)
        print(f"benchmark: cycles = time.perf_counter_ns x MHz / 1000, the MHz from {source}; "
              "no cycle counter is read", file=sys.stderr, flush=True)
        run_cipherbench(args.size, args.tries, mhz, source, _emit)
        return 0
    print(f"benchmark: crypto_api.VolumeCipher, a {args.buffer_size}-byte buffer in place as "
          f"{args.sector_size}-byte sectors with plain64 IVs; MiB/s = 2^20 bytes/s, best of {args.repeat} "
          f"runs of >= {args.time_budget:g} ms; PBKDF lines not measured (no key derivation here)",
          file=sys.stderr, flush=True)
    _emit(COMMENT)
    _emit(HEADER)
    for c in CIPHERS:
        _emit(table_row(c, measure_volume(c, args.buffer_size, args.sector_size, args.time_budget,
                                          args.repeat)))
    return 0
