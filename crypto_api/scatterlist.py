"""Scatterlists over Python buffers (include/linux/scatterlist.h).

An entry covers ``length`` bytes of a buffer starting at ``offset``.  Every
buffer is taken to start on a page boundary of a 4096-byte page grid, so the
offset decides where the entry crosses pages, which is what the skcipher walk
cuts its steps at.  A scatterlist is a plain list of entries; entries of
length 0 (unused slots of ``sg_init_table``) are skipped.
"""

from __future__ import annotations

from typing import List, Optional, Sequence, Union

from .errors import EINVAL, CryptoError

PAGE_SIZE = 4096


def as_byte_view(buf, what: str = "buffer") -> memoryview:
    """A flat unsigned-byte memoryview of any C-contiguous bytes-like object."""
    t = type(buf)
    if t is bytes or t is bytearray:
        return memoryview(buf)
    if isinstance(buf, str):
        raise TypeError(f"{what} must be a bytes-like object, not str")
    try:
        mv = memoryview(buf)
    except TypeError:
        raise TypeError(f"{what} must be a bytes-like object, not {type(buf).__name__}") from None
    if not mv.c_contiguous:
        raise TypeError(f"{what} must be C-contiguous")
    if mv.format != "B" or mv.ndim != 1:
        mv = mv.cast("B")
    return mv


_ffi = None


def _address(buf) -> int:
    global _ffi
    if _ffi is None:
        import cffi
        _ffi = cffi.FFI()
    return int(_ffi.cast("uintptr_t", _ffi.from_buffer(buf)))


_OWN_MEMORY = (bytes, bytearray)


def spans_meet(pa: int, na: int, pb: int, nb: int) -> bool:
    """Two address ranges [pa, pa + na) and [pb, pb + nb) with a byte in common."""
    return na > 0 and nb > 0 and pa < pb + nb and pb < pa + na


def partly_overlapping(a, b) -> bool:
    """True if two non-empty buffers share memory without being the same bytes."""
    oa = a.obj if type(a) is memoryview else a
    ob = b.obj if type(b) is memoryview else b
    if oa is not ob and type(oa) in _OWN_MEMORY and type(ob) in _OWN_MEMORY:
        return False                    # two distinct bytes/bytearray objects never share memory
    pa, pb = _address(a), _address(b)
    return pa != pb and spans_meet(pa, len(a), pb, len(b))


class Scatterlist:
    """One ``struct scatterlist`` entry: ``length`` bytes of ``buf`` at ``offset``."""

    __slots__ = ("buf", "offset", "length")

    def __init__(self, buf: Optional[memoryview] = None, offset: int = 0, length: int = 0) -> None:
        self.buf = buf
        self.offset = offset
        self.length = length

    def view(self) -> memoryview:
        """The bytes this entry covers."""
        if self.buf is None:
            return memoryview(b"")
        return self.buf[self.offset:self.offset + self.length]

    def __repr__(self) -> str:
        size = None if self.buf is None else len(self.buf)
        return f"<Scatterlist offset={self.offset} length={self.length} bufsize={size}>"


def sg_set_buf(sg: Scatterlist, buf: Union[bytes, bytearray, memoryview], offset: int = 0,
               length: Optional[int] = None) -> Scatterlist:
    """Point ``sg`` at ``buf[offset:offset+length]`` (default: to the end)."""
    if not isinstance(sg, Scatterlist):
        raise TypeError(f"sg must be a Scatterlist entry, not {type(sg).__name__}")
    mv = as_byte_view(buf, "scatterlist buffer")
    if not isinstance(offset, int) or isinstance(offset, bool):
        raise TypeError("scatterlist offset must be an int")
    if length is None:
        length = len(mv) - offset
    if not isinstance(length, int) or isinstance(length, bool):
        raise TypeError("scatterlist length must be an int")
    if offset < 0 or length < 0 or offset + length > len(mv):
        raise CryptoError(
            EINVAL,
            f"scatterlist: entry offset {offset} length {length} does not fit a {len(mv)}-byte buffer",
        )
    sg.buf = mv
    sg.offset = offset
    sg.length = length
    return sg


SG_MAX_ENTRIES = 1 << 20


def sg_init_table(n: int) -> List[Scatterlist]:
    """A scatterlist of ``n`` empty entries (at most SG_MAX_ENTRIES)."""
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"scatterlist: table size must be an int, not {type(n).__name__}")
    if n < 0 or n > SG_MAX_ENTRIES:
        raise CryptoError(EINVAL, f"scatterlist: table size {n} outside 0..{SG_MAX_ENTRIES}")
    return [Scatterlist() for _ in range(n)]


def sg_init_one(buf: Union[bytes, bytearray, memoryview], offset: int = 0,
                length: Optional[int] = None) -> List[Scatterlist]:
    """A one-entry scatterlist over ``buf`` (or a slice of it)."""
    sgl = sg_init_table(1)
    sg_set_buf(sgl[0], buf, offset, length)
    return sgl


def sg_nbytes(sgl: Sequence[Scatterlist]) -> int:
    """Total bytes covered by a scatterlist."""
    return sum(sg.length for sg in sgl)


def sg_linear_views(src: Sequence[Scatterlist], dst: Sequence[Scatterlist], nbytes: int):
    """``(src, dst)`` memoryviews of the first ``nbytes`` when each list is one
    entry covering them (a request over one contiguous buffer per side), else None."""
    if len(src) == 1 and len(dst) == 1:
        s, d = src[0], dst[0]
        if s.length >= nbytes and d.length >= nbytes:
            sv, dv = s.buf[s.offset:s.offset + nbytes], d.buf[d.offset:d.offset + nbytes]
            # The entries' fields are plain attributes that may have changed
            # since check_sgl: C is told nbytes, so the views must hold them.
            if len(sv) == nbytes and len(dv) == nbytes:
                return sv, dv
    return None


def sg_copy_to_bytes(sgl: Sequence[Scatterlist], nbytes: int) -> bytes:
    """Gather the first ``nbytes`` covered by ``sgl``."""
    out = bytearray()
    for sg in sgl:
        if len(out) >= nbytes:
            break
        out += sg.view()[: nbytes - len(out)]
    return bytes(out)


def sg_copy_from_bytes(sgl: Sequence[Scatterlist], data, skip: int = 0) -> None:
    """Scatter ``data`` into the bytes covered by ``sgl``, starting ``skip`` bytes in."""
    data = memoryview(data)
    pos = 0
    for i, sg in enumerate(sgl):
        if pos >= len(data):
            break
        if skip >= sg.length:
            skip -= sg.length
            continue
        n = min(sg.length - skip, len(data) - pos)
        sg_entry_slice(sgl, i, skip, n)[:] = data[pos:pos + n]
        pos += n
        skip = 0


def check_sgl(sgl, what: str, cryptlen: int, algname: str, writable: bool) -> None:
    """Refuse a scatterlist that is not one or shorter than ``cryptlen``."""
    if isinstance(sgl, Scatterlist):
        raise TypeError(f"{algname}: {what} must be a list of Scatterlist entries (use sg_init_one)")
    try:
        entries = list(sgl)
    except TypeError:
        raise TypeError(f"{algname}: {what} must be a list of Scatterlist entries, not {type(sgl).__name__}") from None
    total = 0
    for sg in entries:
        if not isinstance(sg, Scatterlist):
            raise TypeError(f"{algname}: {what} entries must be Scatterlist, not {type(sg).__name__}")
        if sg.length:
            # entries edited by hand (not through sg_set_buf) are checked too
            if not isinstance(sg.buf, memoryview) or not isinstance(sg.offset, int) \
                    or not isinstance(sg.length, int) or sg.offset < 0 or sg.length < 0 \
                    or sg.offset + sg.length > len(sg.buf):
                raise CryptoError(EINVAL, f"{algname}: {what} entry {sg!r} does not describe bytes of its buffer")
            if writable and sg.buf.readonly:
                raise CryptoError(EINVAL, f"{algname}: {what} covers a read-only buffer")
        total += sg.length
    if total < cryptlen:
        raise CryptoError(EINVAL, f"{algname}: {what} covers {total} bytes, shorter than cryptlen {cryptlen}")


def sg_entry_slice(sgl: Sequence[Scatterlist], i: int, pos: int, n: int) -> memoryview:
    """Exactly ``n`` bytes of entry ``i`` from ``pos`` on.

    An entry's fields are plain attributes: one changed after the request was
    checked (by a trace function, another thread) is refused with EINVAL
    rather than handed on short, so no caller tells C a length its view does
    not hold.
    """
    if i < len(sgl):
        sg = sgl[i]
        start = sg.offset + pos
        if sg.buf is not None and start >= 0 and pos >= 0 and pos + n <= sg.length:
            piece = sg.buf[start:start + n]
            if len(piece) == n:
                return piece
    raise CryptoError(EINVAL, f"scatterlist entry {i} no longer covers the {n} bytes the request "
                              "was checked for (changed during the request)")


def scatterwalk_map_and_copy(buf, sgl: Sequence[Scatterlist], start: int, nbytes: int, out: bool) -> None:
    """Copy ``nbytes`` at offset ``start`` of ``sgl`` into ``buf`` (out=False)
    or from ``buf`` into the scatterlist (out=True)."""
    mv = memoryview(buf)
    done = 0
    skip = start
    for i, sg in enumerate(sgl):
        if done >= nbytes:
            break
        if skip >= sg.length:
            skip -= sg.length
            continue
        take = min(sg.length - skip, nbytes - done)
        piece = sg_entry_slice(sgl, i, skip, take)
        if out:
            piece[:] = mv[done:done + take]
        else:
            mv[done:done + take] = piece
        done += take
        skip = 0
    if done < nbytes:
        raise CryptoError(EINVAL, f"scatterlist: {nbytes} bytes at offset {start} run past its end")


def sg_pieces(sgl: Sequence[Scatterlist], nbytes: int):
    """Yield memoryviews of the first ``nbytes`` covered by ``sgl``, one page
    at a time, as an atomic ``sg_miter`` maps them (a piece ends at the end of
    its entry or of its page, whichever comes first)."""
    left = nbytes
    for sg in sgl:
        pos, end = sg.offset, sg.offset + min(sg.length, max(left, 0))
        left -= end - pos
        while pos < end:
            cut = min(end, (pos // PAGE_SIZE + 1) * PAGE_SIZE)
            yield sg.buf[pos:cut]
            pos = cut
        if left <= 0:
            break


def scatterwalk_ffwd(sgl: Sequence[Scatterlist], skip: int) -> List[Scatterlist]:
    """The entries of ``sgl`` from byte ``skip`` on (crypto/scatterwalk.c):
    new entries over the same buffers, the first one starting ``skip`` bytes in."""
    out: List[Scatterlist] = []
    for sg in sgl:
        if skip >= sg.length:
            skip -= sg.length
            continue
        out.append(Scatterlist(sg.buf, sg.offset + skip, sg.length - skip))
        skip = 0
    return out
