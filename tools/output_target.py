"""Where ``enc``/``dec`` write: a path opened so that no user's data is lost.

The rule (what ``cp`` and a shell redirection let a user expect, made safe
against interruption where that is possible):

* Standard output, and any path that is not a regular file (a character or
  block device such as /dev/null, a FIFO, a socket, or a symlink to one), is
  opened and written in place: never replaced, never unlinked.
* A regular file (a symlink to one is followed: the target is written, the
  link stays a link) that the user may not write (``open(O_WRONLY)`` fails:
  a 0444 file for a non-root user, a read-only mount, a running program) is
  refused, naming the path, before anything is written.
* A regular file is replaced atomically when the replacement keeps what a
  user expects: it has one link (a hard-linked file is written in place, so
  every name sees the new content, as with ``>``), its directory is
  writable, the user owns it (or is root, who gives the new file the old
  owner), and it carries no extended attributes (ACLs, capabilities, labels,
  which a new file would lose).  The new content goes to an anonymous
  ``O_TMPFILE`` in the target's directory, is fsynced, given the old owner,
  group and mode, linked under a hidden name ``.<name>.crypto-api-XXXXXXXX``
  and renamed over the target (then the directory is fsynced).  A kill before
  the link leaves nothing at all; a kill between link and rename (two system
  calls) leaves the complete new file under its hidden name.  Where the
  filesystem has no ``O_TMPFILE`` the hidden name is created at once, with
  mode 0600, and unlinked on any error (only SIGKILL can leave it).
* Any other regular file is written in place: truncated at the first write.
  A new file is created through the same temporary-file path, mode
  0666 & ~umask.
* Writing in place onto the input itself (the same regular file, the same
  block device) is refused: a kill would leave it half processed
  (``crypto-api disk`` converts an image in place, with a journal).

This mirrors coreutils' ``cp``/``install`` and ``sed -i`` (temp file beside
the target, then rename) and libkcapi's kcapi-enc (which writes in place).
"""

from __future__ import annotations

import errno
import io
import os
import secrets
import stat
import sys
from typing import Optional

import attrs

from crypto_api.errors import EINVAL, CryptoError

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
TEMP_MARK = ".crypto-api-"


def temp_name(target: str) -> str:
    """A fresh hidden name beside ``target``: ``.<name>.crypto-api-XXXXXXXX``."""
    directory, base = os.path.split(target)
    return os.path.join(directory, f".{base}{TEMP_MARK}{secrets.token_hex(4)}")


def _fail(e: OSError, name: str, what: str) -> CryptoError:
    if isinstance(e, CryptoError):
        return e
    return CryptoError(e.errno or errno.EIO, f"{name}: {what}: {e.strerror or e}")


def _may_write(path: str) -> bool:
    eff = os.access in os.supports_effective_ids
    return os.access(path, os.W_OK | os.X_OK, effective_ids=eff)


def _can_keep_owner(st: os.stat_result) -> bool:
    """Whether a new file can get ``st``'s owner and group (root, or the owner in that group)."""
    euid = os.geteuid()
    return euid == 0 or (st.st_uid == euid and (st.st_gid == os.getegid() or st.st_gid in os.getgroups()))


def _same_file(st: os.stat_result, other: Optional[os.stat_result]) -> bool:
    """Whether ``st`` (the output) and ``other`` (the input) are one file or one block device."""
    if other is None:
        return False
    if stat.S_ISBLK(st.st_mode):
        return stat.S_ISBLK(other.st_mode) and st.st_rdev == other.st_rdev
    return stat.S_ISREG(st.st_mode) and (st.st_dev, st.st_ino) == (other.st_dev, other.st_ino)


def _has_xattrs(path: str) -> bool:
    try:
        return bool(os.listxattr(path))
    except (OSError, AttributeError):
        return False


def _linkat():
    """libc's linkat(2), or None (os.link cannot follow /proc/self/fd's magic links)."""
    try:
        import ctypes
        f = ctypes.CDLL(None, use_errno=True).linkat
    except (ImportError, OSError, AttributeError):
        return None
    f.argtypes = (ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_int)
    return f


_LINKAT = _linkat()
_AT_FDCWD = -100
_AT_SYMLINK_FOLLOW = 0x400


def _link_fd(fd: int, name: str) -> None:
    """Give the anonymous (O_TMPFILE) file open on ``fd`` the name ``name``."""
    import ctypes
    if _LINKAT(_AT_FDCWD, f"/proc/self/fd/{fd}".encode(), _AT_FDCWD, os.fsencode(name), _AT_SYMLINK_FOLLOW):
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err), name)


@attrs.define
class OutputTarget:
    """An opened output: ``write()`` pieces, then ``commit()``; ``abort()`` (or
    leaving the ``with`` block without committing) drops a replacement."""

    name: str                         #: how messages name it (the path, or "standard output")
    fd: Optional[int] = None          #: where the bytes go (None: ``stream``)
    stream: Optional[io.BufferedIOBase] = None
    path: Optional[str] = None        #: the real path replaced (replace mode only)
    replaced: Optional[os.stat_result] = None   #: the file being replaced, if any
    temp_path: Optional[str] = None   #: the named temporary file (no O_TMPFILE)
    truncate: bool = False            #: in place on a regular file: truncate at the first write
    owns_fd: bool = True              #: False for standard output, which stays open
    done: bool = False

    @property
    def replacing(self) -> bool:
        return self.path is not None

    def write(self, data) -> None:
        view = memoryview(data).cast("B")
        try:
            if self.truncate:
                os.ftruncate(self.fd, 0)
                self.truncate = False
            if self.fd is None:
                self.stream.write(view)
            else:
                while view:
                    view = view[os.write(self.fd, view):]
        except OSError as e:
            raise self._write_error(e) from None

    def _write_error(self, e: OSError) -> CryptoError:
        if e.errno == errno.EPIPE:
            return CryptoError(errno.EPIPE, f"{self.name}: the reader closed the pipe; "
                                            "the output is incomplete")
        if e.errno == errno.EBADF and self.name == "standard output":
            return CryptoError(errno.EBADF, "standard output is closed")
        return _fail(e, self.name, "cannot write")

    def commit(self) -> None:
        """Make the output final: flush, and put a replacement in place."""
        try:
            if self.truncate:
                os.ftruncate(self.fd, 0)
                self.truncate = False
            if self.fd is None:
                self.stream.flush()
            elif self.replacing:
                self._install()
            else:
                mode = os.fstat(self.fd).st_mode
                if stat.S_ISREG(mode) or stat.S_ISBLK(mode):
                    os.fsync(self.fd)
        except OSError as e:
            raise self._write_error(e) from None
        self.done = True
        self.close()

    def _install(self) -> None:
        fd, old = self.fd, self.replaced
        os.fsync(fd)
        if old is None:
            mask = os.umask(0)
            os.umask(mask)
            os.fchmod(fd, 0o666 & ~mask)
        else:
            if (old.st_uid, old.st_gid) != (os.geteuid(), os.getegid()):
                os.fchown(fd, old.st_uid if os.geteuid() == 0 else -1, old.st_gid)
            os.fchmod(fd, stat.S_IMODE(old.st_mode))     # after fchown, which clears set-id bits
        if self.temp_path is None:                       # O_TMPFILE: give it a name first
            while True:
                name = temp_name(self.path)
                try:
                    _link_fd(fd, name)
                    break
                except FileExistsError:
                    continue
            self.temp_path = name
        os.replace(self.temp_path, self.path)
        self.temp_path = None
        dfd = os.open(os.path.dirname(self.path), os.O_RDONLY | _CLOEXEC)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)

    def abort(self) -> None:
        """Drop an unfinished replacement (the target keeps its old content)."""
        if self.temp_path is not None:
            try:
                os.unlink(self.temp_path)
            except OSError:
                pass
            self.temp_path = None
        self.close()

    def close(self) -> None:
        if self.fd is not None and self.owns_fd:
            os.close(self.fd)
        self.fd = None

    def __enter__(self) -> "OutputTarget":
        return self

    def __exit__(self, *exc) -> None:
        if not self.done:
            self.abort()


def open_stdout() -> OutputTarget:
    """Standard output, written in place (whatever it is: a pipe, a terminal, a file)."""
    out = sys.stdout
    if out is None:
        raise CryptoError(errno.EBADF, "standard output is closed")
    try:
        out.flush()
        fd = out.fileno()
    except (OSError, ValueError):
        return OutputTarget("standard output", stream=out.buffer)
    return OutputTarget("standard output", fd=fd, owns_fd=False)


def _open_temp(directory: str, target: str, name: str) -> OutputTarget:
    """An anonymous (O_TMPFILE) or hidden temporary file in ``directory``."""
    tmpfile = getattr(os, "O_TMPFILE", 0)
    if tmpfile and _LINKAT is not None and os.path.isdir("/proc/self/fd"):
        try:
            fd = os.open(directory, tmpfile | os.O_WRONLY | _CLOEXEC, 0o600)
            return OutputTarget(name, fd=fd, path=target)
        except OSError as e:
            if e.errno not in (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL):
                raise _fail(e, name, "cannot create a file in its directory") from None
    while True:
        tmp = temp_name(target)
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _CLOEXEC, 0o600)
            return OutputTarget(name, fd=fd, path=target, temp_path=tmp)
        except FileExistsError:
            continue
        except OSError as e:
            raise _fail(e, name, "cannot create a file in its directory") from None


def open_output(path: Optional[str], input_stat: Optional[os.stat_result] = None) -> OutputTarget:
    """Open ``path`` (None: standard output) for the rule in the module docstring.

    ``input_stat``: the input file's stat; writing in place onto the input
    itself is refused (EINVAL), replacing it is fine.  Nothing is truncated
    or written here.
    """
    if path is None:
        return open_stdout()
    real = os.path.realpath(path)
    try:
        st = os.stat(real)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise _fail(e, path, "cannot use it as the output") from None
    if st is None:
        target = _open_temp(os.path.dirname(real), real, path)
        return target
    if stat.S_ISDIR(st.st_mode):
        raise CryptoError(errno.EISDIR, f"{path}: is a directory, not an output file")
    regular = stat.S_ISREG(st.st_mode)
    try:
        # A device or FIFO is opened as it is (a FIFO waits for its reader);
        # a regular file is opened to learn whether the user may write it.
        fd = os.open(real if regular else path,
                     os.O_WRONLY | _CLOEXEC | (os.O_NONBLOCK if regular else 0))
    except OSError as e:
        raise _fail(e, path, "cannot write it") from None
    try:
        st = os.fstat(fd)
    except OSError:
        os.close(fd)
        raise
    if regular and stat.S_ISREG(st.st_mode):
        os.set_blocking(fd, True)
        if st.st_nlink == 1 and _can_keep_owner(st) and not _has_xattrs(real) and _may_write(os.path.dirname(real)):
            os.close(fd)
            target = _open_temp(os.path.dirname(real), real, path)
            target.replaced = st
            return target
    if _same_file(st, input_stat):
        os.close(fd)
        why = ("it cannot be replaced (it has other hard links, another owner, extended attributes "
               "or a read-only directory)" if stat.S_ISREG(st.st_mode) else "a device is not replaced")
        raise CryptoError(EINVAL, f"{path}: is also the input, and {why}: writing it in place would "
                                  "leave it half processed if interrupted (crypto-api disk does that safely)")
    return OutputTarget(path, fd=fd, truncate=stat.S_ISREG(st.st_mode))
