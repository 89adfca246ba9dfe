"""CryptoError: every refusal carries the kernel's errno.

Mirrors the negative-errno convention of the kernel crypto API (the values
of include/uapi/asm-generic/errno-base.h and errno.h): each error is an
``OSError`` whose ``errno`` is the kernel's code and whose message names the
algorithm and what was wrong.
"""

from __future__ import annotations

import errno as _errno

EINVAL = _errno.EINVAL
ENOENT = _errno.ENOENT
EEXIST = _errno.EEXIST
EAGAIN = _errno.EAGAIN
EBUSY = _errno.EBUSY
ELIBBAD = _errno.ELIBBAD
ENOKEY = _errno.ENOKEY
ENAMETOOLONG = _errno.ENAMETOOLONG
ENOSYS = _errno.ENOSYS
ENODEV = _errno.ENODEV
ETIMEDOUT = _errno.ETIMEDOUT
EINTR = _errno.EINTR
EBADMSG = _errno.EBADMSG
EOVERFLOW = _errno.EOVERFLOW


class CryptoError(OSError):
    """An error from the crypto API: ``.errno`` is the kernel errno (positive).

    ``CryptoError(errno, message)``; ``str()`` gives
    ``"[Errno 22] EINVAL: xchacha12-generic: key is 16 bytes, expected 32"``.
    """

    def __init__(self, errno: int, message: str) -> None:
        super().__init__(errno, message)
        self.message = message

    @property
    def errname(self) -> str:
        return _errno.errorcode.get(self.errno, str(self.errno))

    def __str__(self) -> str:
        return f"[Errno {self.errno}] {self.errname}: {self.message}"

    def __reduce__(self):
        return (type(self), (self.errno, self.message))
