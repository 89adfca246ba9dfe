"""``disk encrypt|decrypt IMAGE``: dm-crypt compatible offline sector encryption.

Encrypts or decrypts a disk image exactly as the dm-crypt target
(drivers/md/dm-crypt.c) would with the table ``cryptsetup open --type plain``
builds for the same options, so an image written here opens with cryptsetup
(or a ``dmsetup`` crypt table) and the other way round, without root or a
kernel module.  The options are cryptsetup's: ``--offset``, ``--size`` and
``--skip`` in 512-byte sectors (:mod:`.disk_geometry`), ``--sector-size``,
``--iv-large-sectors``.

In place, the run holds an exclusive lock on the image (:mod:`.disk_lock`)
and keeps a journal beside it (:mod:`.disk_journal`, :mod:`.disk_engine`),
so that after any failure or kill, running the same command again finishes
the job with no sector lost or processed twice.  Each batch's sectors are
transformed in one C call (:mod:`crypto_api.dmcrypt.sector_batch`);
``--jobs N`` runs N workers that each read, record and transform whole
batches at once (:mod:`.disk_pipeline`), while the main thread writes them
in order, so the journal's guarantees do not depend on it.
"""

from __future__ import annotations

import argparse
import errno
import os
import sys

from crypto_api.errors import EINVAL, CryptoError
from crypto_api.dmcrypt import MAX_JOBS, SECTOR_SIZE, SECTOR_SIZES, VolumeCipher

from .cli_common import add_key_options, read_key_file, wipe
from .disk_engine import fingerprint, run_in_place, run_to_output
from .disk_geometry import volume_geometry
from .disk_io import device_size, is_block_device
from .disk_journal import RESILIENCE_MODES, JobParams, Journal, default_path, key_check_value, refuse_mismatch
from .disk_lock import lock_exclusive
from .disk_signals import StopSignals, Stopped

BATCH_BYTES = 4 << 20
MAX_BATCH_BYTES = 64 << 20
UNSAFE_FLAG = "--allow-unsafe-cipher"
_SUFFIX = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}

EPILOG = """\
Geometry, as cryptsetup plain and dm-crypt count it (512-byte sectors):
  --offset N   the volume starts at byte N*512 of IMAGE (its sector 0 is there)
  --size N     the volume is N*512 bytes long (default: to the end of IMAGE)
  --skip N     added to the IV sector number (the dm-crypt table's iv_offset)
Sector n of the volume (--sector-size units from --offset) gets the IV number
    n * (sector_size / 512) + skip              by default, or
    n + skip / (sector_size / 512)              with --iv-large-sectors,
and plain64 = le64(number) || zeros, plain = le32(number mod 2^32) || zeros.
The same image opens with
    cryptsetup open --type plain --hash plain --key-file KEY --key-size 256 \\
        --cipher SPEC --offset N --skip N [--size N] [--sector-size S] [--iv-large-sectors]
In place, IMAGE is locked and a journal (IMAGE.crypto-api-journal) records each
batch before it is overwritten: after Ctrl-C, a kill, a crash or a write error,
run the same command again and it finishes the job.  Once the job is done the
journal stays as its receipt: the same command again does nothing; any other
job on the image replaces it."""


def _bytes_arg(text: str) -> int:
    """A byte count: digits with an optional K, M or G (binary) suffix."""
    t = text.strip().upper().removesuffix("IB").removesuffix("B")
    num, suffix = (t[:-1], t[-1]) if t and t[-1] in _SUFFIX else (t, "")
    if not num.isdigit() or int(num) == 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive byte count (digits, optional K/M/G)")
    return int(num) * _SUFFIX[suffix]


def _batch_arg(text: str) -> int:
    n = _bytes_arg(text)
    if n > MAX_BATCH_BYTES:
        raise argparse.ArgumentTypeError(f"{text!r}: at most {MAX_BATCH_BYTES >> 20}M (a batch is held in memory twice)")
    return n


#: ``--jobs`` when not given.  One worker: with the main thread writing,
#: that is already two threads busy, the number of cores of a small machine;
#: each further worker prepares one more batch at once (about ``--jobs + 2``
#: batches are held in memory, each twice with ``journal``), which pays on
#: more cores.
DEFAULT_JOBS = 1


def _jobs_arg(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= MAX_JOBS:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of workers from 1 to {MAX_JOBS}")
    return int(text)


def _count_arg(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r} is not a non-negative integer")
    return int(text)


def register(sub) -> None:
    p = sub.add_parser(
        "disk", help="encrypt or decrypt a disk image as dm-crypt would (offline)",
        description="dm-crypt compatible offline sector encryption of a disk image, "
                    "in place (locked, journalled) or into --output.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("action", choices=("encrypt", "decrypt"))
    p.add_argument("image", metavar="IMAGE", help="disk image file (or block device)")
    p.add_argument("--cipher", required=True, metavar="SPEC",
                   help="cryptsetup cipher spec: aes-xts-plain64, aes-xts-plain, "
                        "aes-cbc-essiv:sha256, xchacha12,aes-adiantum-plain64, "
                        "xchacha20,aes-adiantum-plain64 or capi:<algorithm>-<ivmode>; "
                        "IV modes plain, plain64 and essiv:<hash> (dm-crypt 5.4+)")
    add_key_options(p, required=True,
                    key_help="file holding the raw key (32 bytes for Adiantum, 32 or 64 for aes-xts)")
    p.add_argument("--sector-size", type=int, choices=SECTOR_SIZES, default=SECTOR_SIZE,
                   help="encryption unit in bytes (default 512)")
    p.add_argument("--offset", type=_count_arg, default=0, metavar="SECTORS",
                   help="cryptsetup --offset: where the volume starts in IMAGE, in 512-byte sectors; "
                        "its IVs count from there (default 0)")
    p.add_argument("--size", type=_count_arg, default=None, metavar="SECTORS",
                   help="cryptsetup --size: the volume's length in 512-byte sectors (default: to the end)")
    p.add_argument("--skip", type=_count_arg, default=0, metavar="SECTORS",
                   help="cryptsetup --skip: added to every IV sector number, in 512-byte sectors "
                        "(the dm-crypt table's iv_offset); a multiple of sector-size/512")
    p.add_argument("--iv-large-sectors", action="store_true",
                   help="dm-crypt's iv_large_sectors: count IV sectors in sector-size units "
                        "instead of 512-byte units")
    p.add_argument("--output", metavar="FILE",
                   help="write the whole resulting image to FILE instead of changing IMAGE in place")
    p.add_argument("--journal", metavar="PATH",
                   help="the in-place journal (default: IMAGE.crypto-api-journal; required for a "
                        "block device)")
    p.add_argument("--resilience", choices=RESILIENCE_MODES, default="journal",
                   help="journal: a copy of each batch's original sectors (repairs anything); "
                        "checksum: a digest of each (less writing; needs atomic sector writes)")
    p.add_argument("--batch-size", type=_batch_arg, default=BATCH_BYTES, metavar="BYTES",
                   help="bytes per journalled batch (default 4M; a resumed job keeps its own)")
    p.add_argument("--jobs", type=_jobs_arg, default=DEFAULT_JOBS, metavar="N",
                   help="worker threads, each reading, recording and transforming whole batches "
                        "(default 1; about N+2 batches in memory); the journal, the result and "
                        "resuming a job do not depend on it")
    p.add_argument(UNSAFE_FLAG, dest="allow_unsafe", action="store_true",
                   help="UNSAFE: accept a stream cipher or a mode not made for sectors")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="progress bar on stderr (default: only when stderr is a terminal)")
    p.set_defaults(func=run)


def _progress_bar(args, length: int):
    show = args.progress if args.progress is not None else sys.stderr.isatty()
    if not show:
        return None
    from tqdm import tqdm
    return tqdm(total=length, unit="B", unit_scale=True, unit_divisor=1024, file=sys.stderr,
                desc=f"{args.action} {os.path.basename(args.image)}", leave=True)


def _volume_ciphers(args) -> list:
    """One VolumeCipher per ``--jobs`` worker (a VolumeCipher is used by one
    thread at a time), all from the same key, read once and wiped."""
    key = read_key_file(args.key_file)
    vcs: list = []
    try:
        for _ in range(args.jobs):
            vcs.append(VolumeCipher(args.cipher, key, sector_size=args.sector_size, iv_offset=args.skip,
                                    iv_large_sectors=args.iv_large_sectors, allow_unsafe=args.allow_unsafe,
                                    override=UNSAFE_FLAG, key_name=f"key file {args.key_file}"))
    except BaseException:
        for vc in vcs:
            vc.close()
        raise
    finally:
        wipe(key)
    return vcs


def run(args) -> int:
    vcs = _volume_ciphers(args)
    vc = vcs[0]
    fds = []
    try:
        in_place = args.output is None or (os.path.exists(args.output)
                                           and os.path.samefile(args.output, args.image))
        src = os.open(args.image, (os.O_RDWR if in_place else os.O_RDONLY) | os.O_CLOEXEC)
        fds.append(src)
        lock_exclusive(src, args.image, "image")
        image_size = device_size(src, args.image)
        geo = volume_geometry(image_size, args.sector_size, args.offset, args.size)
        vc.iv(geo.index(geo.end) - 1)              # the last IV number fits the IV mode
        if in_place and args.journal is None and is_block_device(src):
            raise CryptoError(EINVAL, f"{args.image}: a block device needs --journal PATH on a "
                                      "persistent filesystem (the journal must survive a crash)")
        journal_path = args.journal or default_path(args.image)
        params = JobParams(args.action, vc.algorithm, vc.ivmode, args.sector_size, args.skip,
                           args.iv_large_sectors, geo.start, geo.length, image_size,
                           key_check_value(vc), args.resilience)
        with StopSignals() as stop:
            if in_place:
                return _in_place(args, vcs, src, geo, params, journal_path, stop)
            _refuse_unfinished(args.image, journal_path)
            dst = os.open(args.output, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            fds.append(dst)
            lock_exclusive(dst, args.output, "output")
            if is_block_device(dst):
                if device_size(dst, args.output) < image_size:
                    raise CryptoError(EINVAL, f"--output {args.output}: smaller than the image")
            else:
                os.ftruncate(dst, image_size)
            bar = _progress_bar(args, geo.length)
            try:
                run_to_output(vcs, src, dst, geo, image_size, args.action == "encrypt", args.image,
                              stop, args.batch_size, bar.update if bar else None)
            except Stopped:
                print(f"crypto-api disk: interrupted: {args.output} is incomplete; run the same "
                      "command again", file=sys.stderr)
                return 130
            finally:
                if bar is not None:
                    bar.close()
            return 0
    finally:
        for fd in fds:
            os.close(fd)
        for vc in vcs:
            vc.close()


def _refuse_unfinished(image: str, journal_path: str) -> None:
    """Reading the image elsewhere while an in-place job on it is unfinished is refused."""
    if not os.path.exists(journal_path):
        return
    journal = Journal.open(journal_path)
    try:
        last = journal.latest()
        if last is None or not last.done:
            raise CryptoError(EINVAL, f"{image}: the in-place job of journal {journal_path} is "
                                      f"unfinished; finish it first: {journal.params.command(image)}")
    finally:
        journal.close()


def _in_place(args, vcs, fd, geo, params, journal_path, stop) -> int:
    journal = None
    if os.path.exists(journal_path):
        journal = Journal.open(journal_path)
        last = journal.latest()
        if last is not None and last.done:
            if journal.params == params and last.payload == fingerprint(fd, geo, args.image):
                journal.close()
                print(f"crypto-api disk: nothing to do: {args.image} was already {args.action}ed by "
                      f"this same command (its journal {journal_path} says so); to run it again "
                      "anyway, delete the journal", file=sys.stderr)
                return 0
            journal.close()              # a finished job's receipt: a new job replaces it
            journal = None
        elif journal.params != params:
            journal.close()
            raise refuse_mismatch(journal, params, args.image)
    if journal is None:
        try:
            journal = Journal.create(journal_path, params, args.batch_size)
        except OSError as e:
            if isinstance(e, CryptoError):
                raise
            raise CryptoError(e.errno or errno.EIO, f"journal {journal_path}: cannot create it: "
                                                    f"{e.strerror or e}; {args.image} is unchanged") from None
    state = {}
    bar = _progress_bar(args, geo.length)
    try:
        run_in_place(vcs, fd, geo, journal, args.action == "encrypt", args.image, stop,
                     (lambda n: bar.update(n)) if bar else None, state)
    except Stopped:
        print(f"crypto-api disk: interrupted: {state.get('done', 0)} of {geo.length} bytes of "
              f"{args.image} {args.action}ed; the journal {journal_path} keeps the state: "
              "run the same command again to finish", file=sys.stderr)
        return 130
    except OSError as e:
        if e.errno in (errno.EUCLEAN, errno.EBUSY):          # damage the journal cannot repair
            raise
        raise CryptoError(e.errno or errno.EIO, f"{args.image}: {e.strerror or e} after {state.get('done', 0)} "
                                        f"of {geo.length} bytes; nothing is lost: the journal "
                                        f"{journal_path} keeps the state; run the same command again "
                                        "(once the cause is fixed) to finish") from None
    finally:
        journal.close()
        if bar is not None:
            bar.close()
    return 0
