"""The input side of ``enc``/``dec`` and the three ways a message goes through.

A stream cipher with a known continuation (tools/stream_continuation.py) is
processed in chunks of :data:`CHUNK` bytes, each one batch of
:data:`PIECE`-byte pieces whose IVs continue the last, so memory stays
constant for any input and the pieces run on the batch's native workers.  An
``adiantum(...)`` instance is a wide-block cipher whose one message is the
whole input: it runs in two passes over a seekable input
(``adiantum_crypt_stream`` in algs/adiantum.py); a non-seekable input (a
pipe) is first spooled to an anonymous temporary file, which costs disk
space, not memory.  The block modes ``ecb``, ``cbc``, ``ctr`` and ``xts``
go chunk by chunk too (tools/block_stream.py).  Any other skcipher (a mode
for which this tool knows no continuation) gets the whole input as one
message in memory, as libkcapi's kcapi-enc does with its one-shot mode.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
import tempfile
from typing import Callable, Optional

import attrs

from crypto_api.algs.adiantum import adiantum_crypt_stream
from crypto_api.errors import CryptoError

from .stream_continuation import CounterContinuation

#: Bytes per request when streaming (a multiple of every keystream block size).
CHUNK = 1 << 20
#: A stream chunk longer than this goes as pieces of this size (each IV
#: continuing the last) through ``tfm.encrypt_batch``, whose native workers
#: run them at once (crypto_api/batch.py); a multiple of every block size.
PIECE = 1 << 16

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
Writer = Callable[[memoryview], None]


def _fail(e: OSError, name: str) -> CryptoError:
    if isinstance(e, CryptoError):
        return e
    return CryptoError(e.errno or errno.EIO, f"{name}: cannot read: {e.strerror or e}")


@attrs.define
class InputSource:
    """An opened input: read in order (``read_full``), or at offsets when ``size`` is known."""

    name: str                            #: the path, or "standard input"
    fd: Optional[int] = None             #: None: read ``stream`` (a file object) instead
    stream: Optional[object] = None
    stat: Optional[os.stat_result] = None
    size: Optional[int] = None           #: bytes from ``base`` to the end; None: not seekable
    base: int = 0                        #: the offset reading starts from
    owns_fd: bool = True
    spool: Optional[object] = None       #: the temporary file holding a spooled input

    @property
    def seekable(self) -> bool:
        return self.size is not None

    def read_full(self, view: memoryview) -> int:
        """Fill ``view`` (fewer bytes only at the end of the input); the count."""
        got = 0
        try:
            while got < len(view):
                if self.fd is None:
                    n = self.stream.readinto(view[got:])
                else:
                    n = os.readv(self.fd, [view[got:]])
                if not n:
                    break
                got += n
        except OSError as e:
            raise _fail(e, self.name) from None
        return got

    def read_at(self, offset: int, n: int) -> bytes:
        """The ``n`` bytes at ``offset`` (seekable inputs)."""
        try:
            data = os.pread(self.fd, n, self.base + offset)
            while len(data) < n:
                more = os.pread(self.fd, n - len(data), self.base + offset + len(data))
                if not more:
                    raise CryptoError(errno.EIO, f"{self.name}: ends at byte {offset + len(data)} "
                                                 f"of {self.size}: it changed while being read")
                data += more
        except OSError as e:
            raise _fail(e, self.name) from None
        return data

    def close(self) -> None:
        if self.spool is not None:
            self.spool.close()
        elif self.fd is not None and self.owns_fd:
            os.close(self.fd)
        self.fd = self.spool = None

    def __enter__(self) -> "InputSource":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _sized(src: InputSource) -> InputSource:
    """Fill in ``stat``, ``size`` and ``base`` for a regular file or block device."""
    try:
        st = os.fstat(src.fd)
    except OSError as e:
        raise _fail(e, src.name) from None
    src.stat = st
    if stat.S_ISDIR(st.st_mode):
        raise CryptoError(errno.EISDIR, f"{src.name}: is a directory, not an input file")
    if stat.S_ISREG(st.st_mode) or stat.S_ISBLK(st.st_mode):
        src.base = os.lseek(src.fd, 0, os.SEEK_CUR)
        src.size = os.lseek(src.fd, 0, os.SEEK_END) - src.base
        os.lseek(src.fd, src.base, os.SEEK_SET)
    return src


def open_input(path: Optional[str]) -> InputSource:
    """Open the input file, or standard input (None): a one-line error when it is closed."""
    if path is not None:
        try:
            fd = os.open(path, os.O_RDONLY | _CLOEXEC)
        except OSError as e:
            raise CryptoError(e.errno or errno.EIO, f"{path}: cannot open the input: {e.strerror}") from None
        try:
            return _sized(InputSource(path, fd=fd))
        except BaseException:
            os.close(fd)
            raise
    stdin = sys.stdin
    if stdin is None:                    # started with fd 0 closed (`<&-`)
        raise CryptoError(errno.EBADF, "standard input is closed")
    try:
        fd = stdin.fileno()
    except (OSError, ValueError):        # not backed by a descriptor (an embedding program)
        return InputSource("standard input", stream=stdin.buffer)
    try:
        return _sized(InputSource("standard input", fd=fd, owns_fd=False))
    except CryptoError as e:
        if e.errno == errno.EBADF:
            raise CryptoError(errno.EBADF, "standard input is closed") from None
        raise


def spool(src: InputSource, directory: Optional[str] = None, chunk_size: int = CHUNK) -> InputSource:
    """Copy a non-seekable input to an anonymous temporary file and read that.

    The file is created unlinked (O_TMPFILE, or created and unlinked at
    once) in ``directory`` (default ``$TMPDIR``), so nothing is left behind
    even if the process is killed; it costs disk space, not memory.
    """
    tmp = tempfile.TemporaryFile(dir=directory)
    try:
        buf = bytearray(chunk_size)
        view = memoryview(buf)
        size = 0
        while True:
            n = src.read_full(view)
            if not n:
                break
            tmp.write(view[:n])
            size += n
        tmp.flush()
        tmp.seek(0)                      # read in order (read_full) from the start, or at offsets
    except BaseException:
        tmp.close()
        raise
    return InputSource(src.name, fd=tmp.fileno(), stat=src.stat, size=size, spool=tmp)


def crypt_with_continuation(tfm, encrypt: bool, iv: bytes, rule: CounterContinuation,
                            src: InputSource, write: Writer, chunk_size: int = CHUNK) -> None:
    """A stream cipher, chunk by chunk, each chunk's IV continuing the last (constant memory)."""
    if chunk_size <= 0 or chunk_size % rule.block_size:
        raise ValueError(f"chunk_size must be a positive multiple of {rule.block_size}")
    crypt = tfm.encrypt if encrypt else tfm.decrypt
    batch = tfm.encrypt_batch if encrypt else tfm.decrypt_batch
    inbuf, outbuf = bytearray(chunk_size), bytearray(chunk_size)
    inview, outview = memoryview(inbuf), memoryview(outbuf)
    blocks = 0
    try:
        while True:
            n = src.read_full(inview)
            if not n:
                break
            if n > PIECE:                # the chunk's pieces at once, on the batch's native workers
                at = range(0, n, PIECE)
                batch([inview[k:min(k + PIECE, n)] for k in at],
                      [rule.iv_at(iv, blocks + k // rule.block_size) for k in at],
                      [outview[k:min(k + PIECE, n)] for k in at])
            else:
                crypt(inview[:n], rule.iv_at(iv, blocks), out=outview[:n])
            write(outview[:n])
            blocks += n // rule.block_size
            if n < chunk_size:
                break
    finally:
        inbuf[:] = bytes(chunk_size)     # the plaintext (one side or the other) does not linger
        outbuf[:] = bytes(chunk_size)


def crypt_adiantum(tfm, encrypt: bool, iv: bytes, src: InputSource, write: Writer,
                   chunk_size: int = CHUNK) -> None:
    """Adiantum over a seekable input in constant memory (two passes)."""
    adiantum_crypt_stream(tfm, encrypt, iv, src.read_at, src.size, write, chunk_size)


def read_whole(src: InputSource) -> bytes:
    """The whole input in memory (ciphers without a streaming rule)."""
    if src.fd is None:
        try:
            return src.stream.read()
        except OSError as e:
            raise _fail(e, src.name) from None
    parts = []
    while True:
        try:
            piece = os.read(src.fd, CHUNK)
        except OSError as e:
            raise _fail(e, src.name) from None
        if not piece:
            return b"".join(parts)
        parts.append(piece)
