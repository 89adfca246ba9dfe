"""The skcipher walk (crypto/skcipher.c, v5.0 semantics).

A walk hands a driver the request's bytes one step at a time.  A step never
crosses a scatterlist entry or a page boundary of either side; when fewer than
one stride of bytes are contiguous (and more remain), the walk bounces exactly
one stride through a buffer (the SLOW path) so that the driver always sees at
least a whole stride.  The driver reports the bytes it did *not* process to
:func:`skcipher_walk_done`; they are offered again at the start of the next
step.  Bytes processed inside an FPU section are reported to the FPU model.
"""

from __future__ import annotations

from typing import Any, List

from .errors import EINVAL, CryptoError
from .fpu import might_sleep
from .scatterlist import PAGE_SIZE, Scatterlist, sg_entry_slice

_FAST, _COPY, _SLOW = 0, 1, 2
SKCIPHER_WALK_SLEEP = 1 << 3


class _Cursor:
    """Position inside a scatterlist: entry index and offset within it."""

    __slots__ = ("sgl", "i", "pos")

    def __init__(self, sgl) -> None:
        self.sgl: List[Scatterlist] = [sg for sg in sgl if sg.length]
        self.i = 0
        self.pos = 0

    def addr(self) -> int:
        sg = self.sgl[self.i]
        return sg.offset + self.pos

    def avail(self) -> int:
        """Contiguous bytes from here to the end of the entry or the page."""
        sg = self.sgl[self.i]
        addr = sg.offset + self.pos
        return min(sg.length - self.pos, PAGE_SIZE - (addr & (PAGE_SIZE - 1)))

    def view(self, n: int) -> memoryview:
        return sg_entry_slice(self.sgl, self.i, self.pos, n)

    def advance(self, n: int) -> None:
        self.pos += n
        sgl = self.sgl
        while self.i < len(sgl) and self.pos >= sgl[self.i].length:
            self.pos -= sgl[self.i].length
            self.i += 1

    def gather(self, n: int) -> bytearray:
        """Copy ``n`` bytes from here on (across entries) without advancing."""
        out = bytearray()
        i, pos = self.i, self.pos
        while len(out) < n:
            take = min(self.sgl[i].length - pos, n - len(out)) if i < len(self.sgl) else n
            out += sg_entry_slice(self.sgl, i, pos, take)
            i, pos = i + 1, 0
        return out

    def scatter(self, data: memoryview) -> None:
        """Write ``data`` from here on (across entries) without advancing."""
        i, pos, done = self.i, self.pos, 0
        while done < len(data):
            take = min(self.sgl[i].length - pos, len(data) - done) if i < len(self.sgl) else len(data)
            sg_entry_slice(self.sgl, i, pos, take)[:] = data[done:done + take]
            done += take
            i, pos = i + 1, 0


class SkcipherWalk:
    """``struct skcipher_walk``: ``src``/``dst`` are memoryviews of this step."""

    __slots__ = (
        "total", "nbytes", "src", "dst", "iv", "oiv", "blocksize", "stride",
        "ivsize", "alignmask", "flags", "algname", "_in", "_out", "_mode", "_bounce",
    )

    def __repr__(self) -> str:
        mode = ("fast", "copy", "slow")[self._mode] if self.nbytes else "done"
        return f"<SkcipherWalk {self.algname} total={self.total} nbytes={self.nbytes} {mode}>"


def skcipher_walk_virt(req: Any, atomic: bool = False) -> SkcipherWalk:     # a SkcipherRequest
    """Start walking ``req``; the first step is ready in ``walk.nbytes``.

    ``atomic=True`` forbids sleeping between steps (needed inside an FPU
    section).  Raises EINVAL when the request is shorter than one block.
    """
    from .skcipher import SkcipherRequest
    if not isinstance(req, SkcipherRequest):
        raise TypeError(f"skcipher_walk_virt needs a SkcipherRequest, not {type(req).__name__}")
    tfm = req.tfm
    alg = tfm.alg
    w = SkcipherWalk()
    w.algname = alg.cra_driver_name
    w.total = req.cryptlen
    w.nbytes = 0
    w.iv = w.oiv = req.iv
    w.flags = SKCIPHER_WALK_SLEEP if (req.flags & 0x200 and not atomic) else 0
    w.src = w.dst = None
    w._mode = _FAST
    w._bounce = None
    w.blocksize = alg.cra_blocksize
    w.stride = alg.walksize
    w.ivsize = alg.ivsize
    w.alignmask = alg.cra_alignmask
    if w.total == 0:
        return w
    if w.alignmask and w.ivsize and w.iv is not None:
        # An algorithm with an alignment mask gets the IV in an aligned copy
        # (Python gives no addresses, so it always gets one); it is copied
        # back to the caller's IV when the walk ends.
        w.iv = bytearray(bytes(memoryview(req.iv)[:w.ivsize]))
    w._in = _Cursor(req.src)
    w._out = _Cursor(req.dst)
    _next_step(w)
    return w


def _fail(w: SkcipherWalk, msg: str):
    w.total = 0
    w.nbytes = 0
    w.src = w.dst = None
    raise CryptoError(EINVAL, f"{w.algname}: {msg}")


def _next_step(w: SkcipherWalk) -> None:
    total = w.total
    bsize = min(w.stride, max(total, w.blocksize))
    n = min(total, w._in.avail(), w._out.avail())
    if n < bsize:
        if total < w.blocksize:
            _fail(w, f"request of {total} bytes is shorter than the block size {w.blocksize}")
        buf = memoryview(w._in.gather(bsize))
        w._bounce = buf
        w.src = w.dst = buf
        w.nbytes = bsize
        w._mode = _SLOW
    elif w.alignmask and ((w._in.addr() | w._out.addr()) & w.alignmask):
        buf = memoryview(bytearray(w._in.view(n)))
        w._bounce = buf
        w.src = w.dst = buf
        w.nbytes = n
        w._mode = _COPY
    else:
        w.src = w._in.view(n)
        w.dst = w._out.view(n)
        w.nbytes = n
        w._mode = _FAST


def skcipher_walk_done(w: SkcipherWalk, res: int) -> int:
    """Finish the current step; ``res`` = bytes of it NOT processed.

    A negative ``res`` aborts the walk and is returned.  A bounced (slow) step
    must be consumed whole, else EINVAL.  Returns 0.
    """
    if not isinstance(w, SkcipherWalk):
        raise TypeError(f"skcipher_walk_done needs a SkcipherWalk, not {type(w).__name__}")
    if not isinstance(res, int) or isinstance(res, bool):
        raise TypeError(f"{w.algname}: skcipher_walk_done: res must be an int, not {type(res).__name__}")
    if res < 0:
        w.total = 0
        w.nbytes = 0
        w.src = w.dst = w._bounce = None
        return res
    if res > w.nbytes:
        _fail(w, f"skcipher_walk_done: {res} unprocessed bytes reported for a {w.nbytes}-byte step")
    n = w.nbytes - res
    mode = w._mode
    if mode == _SLOW:
        if res:
            _fail(w, f"bounced walk step of {w.nbytes} bytes was not consumed whole ({res} left)")
        w._out.scatter(w._bounce)
    elif mode == _COPY:
        w._out.scatter(w._bounce[:n])
    w._in.advance(n)
    w._out.advance(n)
    w.total -= n
    w._bounce = None
    if w.total:
        if w.flags & SKCIPHER_WALK_SLEEP:
            might_sleep("skcipher_walk_done")
        _next_step(w)
    else:
        w.nbytes = 0
        w.src = w.dst = None
        if w.iv is not w.oiv:
            memoryview(w.oiv)[:w.ivsize] = w.iv
    return 0
