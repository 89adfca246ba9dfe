"""Whole-buffer positioned I/O and durability points of the ``disk`` command.

Every byte the ``disk`` command writes, to the image or to its journal, goes
through :func:`pwrite_full` and becomes durable through :func:`sync`
(``fdatasync``) or :func:`sync_dir` (``fsync``); tests inject faults
(ENOSPC, EIO, a kill) at each of those points.  Mirrors what cryptsetup's offline reencryption does with its
device and metadata writes (lib/utils_io.c, lib/luks2/luks2_reencrypt.c).
"""

from __future__ import annotations

import errno
import os
import stat

from crypto_api.errors import EINVAL, CryptoError


def pread_full(fd: int, buf: bytearray, pos: int, what: str) -> None:
    """Fill ``buf`` from ``pos``; a file that ends first is EINVAL naming ``what``."""
    mv = memoryview(buf)
    got = 0
    while got < len(buf):
        n = os.preadv(fd, [mv[got:]], pos + got)
        if n == 0:
            raise CryptoError(EINVAL, f"{what}: unexpected end at byte {pos + got}")
        got += n


def pwrite_full(fd: int, data, pos: int) -> None:
    """Write all of ``data`` at ``pos``, continuing a short write where it stopped."""
    mv = memoryview(data).cast("B")
    done = 0
    while done < len(mv):
        n = os.pwrite(fd, mv[done:], pos + done)
        if n <= 0:
            raise OSError(errno.EIO, f"write of {len(mv) - done} bytes at {pos + done} made no progress")
        done += n


def sync(fd: int) -> None:
    """Make the data written to ``fd`` durable (``fdatasync``: data, and the
    metadata needed to read it back, without timestamps)."""
    os.fdatasync(fd)


def sync_dir(path: str) -> None:
    """Make a creation, rename or removal in ``path``'s directory durable (``fsync``)."""
    fd = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def device_size(fd: int, path: str) -> int:
    """Size in bytes of a regular file or block device; EINVAL for anything else."""
    st = os.fstat(fd)
    if stat.S_ISREG(st.st_mode):
        return st.st_size
    if stat.S_ISBLK(st.st_mode):
        return os.lseek(fd, 0, os.SEEK_END)
    raise CryptoError(EINVAL, f"{path}: not a regular file or block device")


def is_block_device(fd: int) -> bool:
    return stat.S_ISBLK(os.fstat(fd).st_mode)
