"""Helpers shared by the ``enc``/``dec``, ``disk`` and ``speed`` commands.

The key options, spelled as cryptsetup spells them (``--key-file PATH``;
``--key-fd N`` where a descriptor is taken), with libkcapi's ``--keyfile`` /
``--keyfd`` accepted as hidden aliases; reading key material (from a file or
an inherited file descriptor, never from the command line) into a wipeable
buffer; and the message-length rules of a skcipher: what lengths it can
process as one message without padding.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import stat
import threading
from typing import Iterator, Optional

from crypto_api.errors import EINVAL, CryptoError
from crypto_api.dmcrypt import WIDE_BLOCK_TEMPLATES

#: The most key material read from a file or descriptor (the largest key of any
#: algorithm here is nhpoly1305's 1088 bytes; a bigger file is not a key).
MAX_KEY_FILE = 4096

#: Block modes that take any length of at least one block (ciphertext
#: stealing: crypto/xts.c since 5.4, crypto/cts.c).
STEALING_TEMPLATES = ("xts", "cts")

#: The canonical key options and their accepted aliases (not shown in --help).
KEY_FILE_OPTION, KEY_FILE_ALIAS = "--key-file", "--keyfile"
KEY_FD_OPTION, KEY_FD_ALIAS = "--key-fd", "--keyfd"


def add_key_options(p, *, key_help: str, fd: bool = False, required: bool = False) -> None:
    """``--key-file PATH`` (``args.key_file``) and, with ``fd``, ``--key-fd N``
    (``args.key_fd``), one of them at most (``required``: exactly one).
    Each has its alias beside it in the same group, so giving a spelling twice
    is refused like giving both options; only the canonical names are in the
    help and the usage line."""
    group = p.add_mutually_exclusive_group(required=required)
    group.add_argument(KEY_FILE_OPTION, dest="key_file", metavar="PATH", help=key_help)
    group.add_argument(KEY_FILE_ALIAS, dest="key_file", metavar="PATH", help=argparse.SUPPRESS)
    if fd:
        fd_help = "read the raw key from inherited file descriptor N (to EOF)"
        group.add_argument(KEY_FD_OPTION, dest="key_fd", type=int, metavar="N", help=fd_help)
        group.add_argument(KEY_FD_ALIAS, dest="key_fd", type=int, metavar="N", help=argparse.SUPPRESS)


def read_key(args, name: str) -> bytearray:
    """The key from ``--key-file`` or ``--key-fd``; EINVAL naming ``name`` when neither is given."""
    if args.key_file is not None:
        return read_key_file(args.key_file)
    if args.key_fd is not None:
        return read_key_fd(args.key_fd)
    raise CryptoError(EINVAL, f"{name}: needs a key: give {KEY_FILE_OPTION} PATH or {KEY_FD_OPTION} N")


def wipe(buf: bytearray) -> None:
    """Overwrite key material held in a bytearray."""
    buf[:] = bytes(len(buf))


def _read_all(fd: int, what: str) -> bytearray:
    out = bytearray()
    while True:
        chunk = os.read(fd, MAX_KEY_FILE + 1 - len(out))
        if not chunk:
            break
        out += chunk
        if len(out) > MAX_KEY_FILE:
            wipe(out)
            raise CryptoError(EINVAL, f"{what}: more than {MAX_KEY_FILE} bytes, not a key")
    if not out:
        raise CryptoError(EINVAL, f"{what}: empty, no key material")
    return out


def read_key_file(path: str) -> bytearray:
    """The whole content of a key file (raw bytes, not hex, not hashed)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    try:
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            raise IsADirectoryError(21, "Is a directory", path)
        return _read_all(fd, f"key file {path}")
    finally:
        os.close(fd)


def read_key_fd(fd: int) -> bytearray:
    """Everything readable from an inherited descriptor (read to EOF, then closed)."""
    if not 0 <= fd < 2 ** 31:          # os.read/os.close take a C int
        raise CryptoError(EINVAL, f"{KEY_FD_OPTION} {fd}: not a file descriptor")
    try:
        return _read_all(fd, f"key descriptor {fd}")
    except OSError as e:
        if isinstance(e, CryptoError):
            raise
        raise CryptoError(e.errno or EINVAL, f"{KEY_FD_OPTION} {fd}: cannot read: {e.strerror}") from None
    finally:
        try:
            os.close(fd)
        except OSError:
            pass


def length_rule(tfm):
    """``(minimum, multiple)`` message lengths ``tfm`` takes as one message.

    A stream cipher (block size 1) takes any length; a length-preserving
    wide-block cipher (Adiantum) or a mode that steals ciphertext (XTS) any
    length of at least its block size; any other block cipher only whole
    blocks (it would need padding otherwise).
    """
    bs = tfm.blocksize
    if bs <= 1:
        return 0, 1
    template = tfm.alg.cra_name.split("(", 1)[0]
    if "(" in tfm.alg.cra_name and template in WIDE_BLOCK_TEMPLATES + STEALING_TEMPLATES:
        return bs, 1
    return bs, bs


def check_length(tfm, n: int, what: str) -> None:
    """Refuse a message length ``tfm`` cannot take without padding (EINVAL)."""
    low, mult = length_rule(tfm)
    name = tfm.alg.cra_name
    if n < low:
        raise CryptoError(EINVAL, f"{name}: {what} is {n} bytes, at least {low} are required")
    if n % mult:
        raise CryptoError(EINVAL, f"{name}: {what} is {n} bytes, not a multiple of its {mult}-byte "
                                  "block; this tool does not pad (block cipher modes need padding)")


def parse_iv(text: Optional[str], tfm) -> Optional[bytes]:
    """The ``--iv HEX`` argument for ``tfm`` (None when it has no IV); EINVAL if it does not fit."""
    name = tfm.alg.cra_name
    if text is None:
        if tfm.ivsize:
            raise CryptoError(EINVAL, f"{name}: needs --iv with {tfm.ivsize} bytes ({2 * tfm.ivsize} hex digits)")
        return None
    try:
        iv = bytes.fromhex(text)
    except ValueError:
        raise CryptoError(EINVAL, f"--iv {text[:40]!r}: not a hex string") from None
    if len(iv) != tfm.ivsize:
        raise CryptoError(EINVAL, f"{name}: --iv gives {len(iv)} byte{'' if len(iv) == 1 else 's'}, "
                                  f"the IV is {tfm.ivsize} bytes")
    return iv


@contextlib.contextmanager
def sigterm_unwinds() -> Iterator[None]:
    """Within the block, SIGTERM raises SystemExit(143) as Ctrl-C raises
    KeyboardInterrupt, so ``finally`` clauses (a temporary file's removal)
    run; by default Python dies at once.  Main thread only (elsewhere, or
    where SIGTERM is not the default, nothing changes)."""
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL):
        yield
        return

    def unwind(signum, frame):
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, unwind)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
