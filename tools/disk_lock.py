"""Exclusive locks on the image and its journal for the ``disk`` command.

cryptsetup takes a lock on a device before reencrypting it
(lib/utils_device_locking.c, ``flock``); so does this tool: an exclusive,
non-blocking ``flock`` on the open image (and on the journal), so a second
run on the same image refuses at once with EBUSY instead of processing the
sectors a second time.  The lock belongs to the open file description and
goes away with the process, however it ends.
"""

from __future__ import annotations

import errno
import fcntl

from crypto_api.errors import EBUSY, CryptoError


def lock_exclusive(fd: int, path: str, what: str) -> None:
    """``flock(LOCK_EX | LOCK_NB)`` on ``fd``; EBUSY naming ``path`` if another holds it."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as e:
        if e.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
            raise CryptoError(EBUSY, f"{path}: the {what} is locked (flock LOCK_EX) by another "
                                     "crypto-api disk run; wait for it to finish") from None
        raise
