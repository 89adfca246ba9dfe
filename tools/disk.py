"""``disk encrypt|decrypt IMAGE``: dm-crypt compatible offline sector encryption.

Encrypts or decrypts a disk image (or a byte range of it) exactly as the
dm-crypt target (drivers/md/dm-crypt.c) would with the table cryptsetup
builds for the same options, so an image written here opens with
``cryptsetup open --type plain`` (or a ``dmsetup`` crypt table) and the other
way round, without root or a kernel module.

Geometry, as dm-crypt counts it:

* the image is cut into ``--sector-size`` encryption units, numbered from
  the start of the image (``--offset``/``--size`` only choose which of them
  are processed; they do not renumber them);
* dm-crypt's sector numbers are in 512-byte units: unit ``i`` starts at
  sector ``i * (sector_size / 512)``, and the IV generator gets that plus
  ``--iv-offset``; with ``--iv-large-sectors`` it gets
  ``i + iv_offset / (sector_size / 512)`` instead (counting in sector-size
  units; for 4096-byte sectors the second sector's plain64 IV is 8 without
  the flag and 1 with it);
* ``plain64`` puts that number as le64 at the start of the IV, ``plain`` as
  le32 (low 32 bits), the rest of the IV is zero (:mod:`crypto_api.ivgen`).

The key file's bytes are the key itself (cryptsetup ``--type plain --hash
plain --key-size <8*len>`` or the hex key of a dmsetup table).

Interruptions: the image is processed in order, in batches of whole sectors.
Each batch is read, transformed in memory, then written back with ``pwrite``
calls that start on a sector boundary and cover whole sectors.  Ctrl-C and
SIGTERM are held off while a batch is written and recorded as done, so the
tool stops between batches and reports exactly where to resume.  A crash or
SIGKILL during a ``pwrite`` can only make that write short, and Linux stops
a short write of a regular file at a page boundary (the page cache copies a
page at a time and checks for fatal signals between pages); page boundaries
are multiples of every sector size dm-crypt allows (512..4096), so no sector
is ever left half old, half new.  Whether the storage below keeps a sector
write atomic across a power failure is the same question dm-crypt has.
"""

from __future__ import annotations

import argparse
import errno
import os
import signal
import stat
import sys
import threading

import crypto_api as capi
from crypto_api.errors import EINVAL, CryptoError
from crypto_api.ivgen import SECTOR_SIZE, dm_crypt_iv_mode, dm_crypt_iv_packer, dm_crypt_iv_sector

from .cli_common import check_length, read_key_file, wipe
from .cryptsetup_spec import parse_cipher_spec

SECTOR_SIZES = (512, 1024, 2048, 4096)
BATCH_BYTES = 1 << 20          # sectors per Python-level read/transform/write step: 1 MiB of them
_SUFFIX = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}

EPILOG = """\
IV numbering (dm-crypt's, see crypto_api.ivgen): sector i of the image (counted
in --sector-size units from the start of the image, whatever --offset says)
gets the IV number
    i * (sector_size / 512) + iv_offset               by default, or
    i + iv_offset / (sector_size / 512)               with --iv-large-sectors,
and plain64 = le64(number) || zeros, plain = le32(number mod 2^32) || zeros.
The same image opens with the dmsetup table (whole image, key file in hex)
    0 <image size/512> crypt capi:<algorithm>-<ivmode> <hex key> <iv-offset> <device> 0
      [<n> sector_size:<sector size> iv_large_sectors]
or cryptsetup open --type plain --hash plain --key-file KEY --key-size 256 ...
Interrupting (Ctrl-C) stops between batches of whole sectors and prints the
--offset/--size that finish the job; no sector is ever half written."""


def _bytes_arg(text: str) -> int:
    """A byte count: digits with an optional K, M, G or T (binary) suffix."""
    t = text.strip().upper().removesuffix("IB").removesuffix("B")
    num, suffix = (t[:-1], t[-1]) if t and t[-1] in _SUFFIX else (t, "")
    if not num.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r} is not a byte count (digits, optional K/M/G/T)")
    return int(num) * _SUFFIX[suffix]


def _count_arg(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r} is not a non-negative integer")
    return int(text)


def register(sub) -> None:
    p = sub.add_parser(
        "disk", help="encrypt or decrypt a disk image as dm-crypt would (offline)",
        description="dm-crypt compatible offline sector encryption of a disk image, "
                    "in place or into --output.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("action", choices=("encrypt", "decrypt"))
    p.add_argument("image", metavar="IMAGE", help="disk image file (or block device)")
    p.add_argument("--cipher", required=True, metavar="SPEC",
                   help="cryptsetup cipher spec: xchacha12,aes-adiantum-plain64, "
                        "xchacha20,aes-adiantum-plain64 or capi:<algorithm>-<ivmode>; "
                        "IV modes plain and plain64")
    p.add_argument("--key-file", required=True, metavar="PATH",
                   help="file holding the raw key (32 bytes for Adiantum)")
    p.add_argument("--sector-size", type=int, choices=SECTOR_SIZES, default=512,
                   help="encryption unit in bytes (default 512)")
    p.add_argument("--iv-offset", type=_count_arg, default=0, metavar="N",
                   help="added to the IV sector number, in 512-byte units as dm-crypt counts it; "
                        "must be a multiple of sector-size/512")
    p.add_argument("--iv-large-sectors", action="store_true",
                   help="dm-crypt's iv_large_sectors: count IV sectors in sector-size units "
                        "instead of 512-byte units")
    p.add_argument("--offset", type=_bytes_arg, default=0, metavar="BYTES",
                   help="start of the range to process (a multiple of the sector size; default 0)")
    p.add_argument("--size", type=_bytes_arg, default=None, metavar="BYTES",
                   help="length of the range (a multiple of the sector size; default: to the end)")
    p.add_argument("--output", metavar="FILE",
                   help="write the whole resulting image to FILE instead of changing IMAGE in place")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="progress bar on stderr (default: only when stderr is a terminal)")
    p.set_defaults(func=run)


# --------------------------------------------------------------------------
# The engine (used by the command; importable for scripts and tests)

class SectorCipher:
    """One keyed tfm plus dm-crypt's IV numbering: transforms batches of sectors.

    Not thread-safe (one tfm, as in the kernel: use one SectorCipher per thread).
    """

    def __init__(self, tfm, ivmode: str, sector_size: int, iv_offset: int = 0,
                 iv_large_sectors: bool = False) -> None:
        name = tfm.alg.cra_name
        gen, need = dm_crypt_iv_mode(ivmode)
        if tfm.ivsize < need:
            raise CryptoError(EINVAL, f"{name}: IV mode {ivmode} needs an IV of at least {need} bytes, "
                                      f"the cipher's IV is {tfm.ivsize} bytes")
        if sector_size not in SECTOR_SIZES:
            raise CryptoError(EINVAL, f"sector size {sector_size!r}: must be one of "
                                      f"{', '.join(map(str, SECTOR_SIZES))}")
        per = sector_size // SECTOR_SIZE
        if iv_offset % per:
            raise CryptoError(EINVAL, f"--iv-offset {iv_offset}: not a multiple of the sector size "
                                      f"in 512-byte units ({per} for {sector_size}-byte sectors)")
        check_length(tfm, sector_size, f"a {sector_size}-byte sector")
        dm_crypt_iv_sector(0, sector_size, iv_offset, iv_large_sectors)   # argument checks
        self.tfm = tfm
        self.sector_size = sector_size
        self.iv_offset = iv_offset
        self.iv_large_sectors = iv_large_sectors
        self._gen = gen
        self._pack = dm_crypt_iv_packer(ivmode, tfm.ivsize)
        self._ivsize = tfm.ivsize
        # iv number of sector i = i * step + base
        self._step = 1 if iv_large_sectors else per
        self._base = iv_offset // per if iv_large_sectors else iv_offset

    def iv(self, index: int) -> bytes:
        """The IV of sector ``index`` (sector-size units from the start of the image)."""
        return self._gen(index * self._step + self._base, self._ivsize)

    def check_range(self, first: int, count: int) -> None:
        """Refuse a range whose last IV number does not fit the IV mode (64 bits)."""
        if count:
            self.iv(first + count - 1)

    def crypt(self, buf: bytearray, first: int, encrypt: bool) -> None:
        """Transform ``buf`` (whole sectors; ``first`` = index of its first sector) in place."""
        ss = self.sector_size
        if len(buf) % ss:
            raise CryptoError(EINVAL, f"buffer of {len(buf)} bytes is not whole {ss}-byte sectors")
        count = len(buf) // ss
        self.check_range(first, count)        # every IV number of the batch fits the IV mode
        fn = self.tfm.encrypt if encrypt else self.tfm.decrypt
        pack, step, base = self._pack, self._step, self._base
        mv = memoryview(buf)
        for k in range(count):
            o = k * ss
            sector = mv[o:o + ss]
            fn(sector, pack((first + k) * step + base), sector)     # in place, no allocation


def _pread_full(fd: int, buf: bytearray, pos: int) -> None:
    mv = memoryview(buf)
    got = 0
    while got < len(buf):
        n = os.preadv(fd, [mv[got:]], pos + got)
        if n == 0:
            raise CryptoError(EINVAL, f"unexpected end of image at byte {pos + got}")
        got += n


def _pwrite_full(fd: int, data, pos: int) -> None:
    """Write all of ``data`` at ``pos``; each call starts where the last one stopped.

    ``pos`` and ``len(data)`` are whole sectors; a short write (only possible
    when a fatal signal arrives, and then at a page boundary) is continued.
    """
    mv = memoryview(data)
    done = 0
    while done < len(mv):
        n = os.pwrite(fd, mv[done:], pos + done)
        if n <= 0:
            raise OSError(errno.EIO, f"write of {len(mv) - done} bytes at {pos + done} made no progress")
        done += n


class _HoldSignals:
    """Block SIGINT/SIGTERM while a batch is written and recorded (main thread only)."""

    SIGNALS = {signal.SIGINT, signal.SIGTERM}

    def __init__(self) -> None:
        self.active = threading.current_thread() is threading.main_thread()

    def __enter__(self):
        if self.active:
            signal.pthread_sigmask(signal.SIG_BLOCK, self.SIGNALS)
        return self

    def __exit__(self, *exc):
        if self.active:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, self.SIGNALS)
        return False


def process(sc: SectorCipher, src_fd: int, dst_fd: int, start: int, length: int, encrypt: bool,
            progress=None, state=None, batch_bytes: int = BATCH_BYTES) -> None:
    """Transform bytes ``[start, start+length)`` of ``src_fd`` into the same place of ``dst_fd``.

    ``state`` (a dict) gets ``done``: the first byte not yet written, kept
    exact even when interrupted.  ``progress`` is called with byte counts.
    """
    ss = sc.sector_size
    if start % ss or length % ss:
        raise CryptoError(EINVAL, f"range {start}+{length} is not whole {ss}-byte sectors")
    batch_bytes = max(ss, batch_bytes - batch_bytes % ss)
    state = {} if state is None else state
    state["done"] = pos = start
    end = start + length
    hold = _HoldSignals()
    while pos < end:
        n = min(batch_bytes, end - pos)
        buf = bytearray(n)
        _pread_full(src_fd, buf, pos)
        sc.crypt(buf, pos // ss, encrypt)
        with hold:
            _pwrite_full(dst_fd, buf, pos)
            pos += n
            state["done"] = pos
        if progress is not None:
            progress(n)


def _copy(src_fd: int, dst_fd: int, start: int, end: int) -> None:
    pos = start
    while pos < end:
        n = min(BATCH_BYTES, end - pos)
        buf = bytearray(n)
        _pread_full(src_fd, buf, pos)
        _pwrite_full(dst_fd, buf, pos)
        pos += n


# --------------------------------------------------------------------------
# The command

def _device_size(fd: int) -> int:
    st = os.fstat(fd)
    if stat.S_ISREG(st.st_mode):
        return st.st_size
    if stat.S_ISBLK(st.st_mode):
        return os.lseek(fd, 0, os.SEEK_END)
    raise CryptoError(EINVAL, "not a regular file or block device")


def _geometry(args, image_size: int):
    ss = args.sector_size
    start = args.offset
    if start % ss:
        raise CryptoError(EINVAL, f"--offset {start}: not a multiple of the {ss}-byte sector size")
    if start > image_size:
        raise CryptoError(EINVAL, f"--offset {start}: beyond the end of the {image_size}-byte image")
    length = image_size - start if args.size is None else args.size
    if length % ss:
        what = f"--size {length}" if args.size is not None else \
            f"the image ({image_size} bytes{f' after --offset {start}' if start else ''})"
        raise CryptoError(EINVAL, f"{what}: not a multiple of the {ss}-byte sector size")
    if start + length > image_size:
        raise CryptoError(EINVAL, f"--offset {start} + --size {length} runs past the end of the "
                                  f"{image_size}-byte image")
    if length == 0:
        raise CryptoError(EINVAL, "nothing to do: the range is empty")
    return start, length


def _progress_bar(args, length: int):
    show = args.progress if args.progress is not None else sys.stderr.isatty()
    if not show:
        return None
    from tqdm import tqdm
    return tqdm(total=length, unit="B", unit_scale=True, unit_divisor=1024, file=sys.stderr,
                desc=f"{args.action} {os.path.basename(args.image)}", leave=True)


def run(args) -> int:
    encrypt = args.action == "encrypt"
    spec = parse_cipher_spec(args.cipher)
    try:
        tfm = capi.crypto_alloc_skcipher(spec.algorithm)
    except CryptoError as e:
        raise CryptoError(e.errno, f"cipher specification {spec.spec!r}: {e.message}") from None
    fds = []
    try:
        key = read_key_file(args.key_file)
        try:
            tfm.setkey(key)
        except CryptoError as e:
            raise CryptoError(e.errno, f"key file {args.key_file}: {e.message}") from None
        finally:
            wipe(key)
        sc = SectorCipher(tfm, spec.ivmode, args.sector_size, args.iv_offset, args.iv_large_sectors)
        in_place = args.output is None or (os.path.exists(args.output)
                                           and os.path.samefile(args.output, args.image))
        src = os.open(args.image, (os.O_RDWR if in_place else os.O_RDONLY) | os.O_CLOEXEC)
        fds.append(src)
        try:
            image_size = _device_size(src)
        except CryptoError as e:
            raise CryptoError(e.errno, f"{args.image}: {e.message}") from None
        start, length = _geometry(args, image_size)
        ss = args.sector_size
        sc.check_range(start // ss, length // ss)
        if in_place:
            dst = src
        else:
            dst = os.open(args.output, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            fds.append(dst)
            if stat.S_ISREG(os.fstat(dst).st_mode):
                os.ftruncate(dst, image_size)
            elif _device_size(dst) < image_size:
                raise CryptoError(EINVAL, f"--output {args.output}: smaller than the image")
        return _run_range(args, sc, src, dst, in_place, start, length, image_size, encrypt)
    finally:
        for fd in fds:
            os.close(fd)
        tfm.free()


def _run_range(args, sc, src, dst, in_place, start, length, image_size, encrypt) -> int:
    bar = _progress_bar(args, length)
    state = {}
    main = threading.current_thread() is threading.main_thread()
    old = signal.signal(signal.SIGTERM, signal.default_int_handler) if main else None
    try:
        if not in_place:
            _copy(src, dst, 0, start)
        process(sc, src, dst, start, length, encrypt, bar.update if bar else None, state)
        if not in_place:
            _copy(src, dst, start + length, image_size)
    except KeyboardInterrupt:
        os.fsync(dst)
        if bar is not None:
            bar.close()
        end = start + length
        done = state.get("done", start)
        if in_place:
            print(f"crypto-api disk: interrupted: bytes {start}..{done} of {args.image} are "
                  f"{args.action}ed, {done}..{end} unchanged; to finish, run again with "
                  f"--offset {done} --size {end - done}", file=sys.stderr)
        else:
            print(f"crypto-api disk: interrupted: {args.output} is incomplete "
                  f"({done - start} of {length} bytes done); run the command again", file=sys.stderr)
        return 130
    finally:
        if main:
            signal.signal(signal.SIGTERM, old)
    os.fsync(dst)
    if bar is not None:
        bar.close()
    return 0
