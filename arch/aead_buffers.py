"""The buffers of an AEAD request for a driver whose core takes flat memory
(the one-pass ChaCha20-Poly1305 drivers, x86's AES-NI GCM).

No kernel counterpart as one helper: the kernel's glue does the same with
its scatterwalk (a request whose scatterlists are one entry each side is
used in place; any other is copied into private buffers, and the result
copied back).  Here the private buffers are wiped once the request is done.
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterator, Optional, Tuple

from crypto_api.scatterlist import scatterwalk_map_and_copy


def contiguous_views(req: Any, outlen: int) -> Optional[Tuple[memoryview, memoryview]]:
    """(src, dst) memoryviews of the whole request when each side is one
    scatterlist entry, else None."""
    src, dst = req.src, req.dst
    if len(src) == 1 and len(dst) == 1:
        s, d = src[0], dst[0]
        if s.length >= req.assoclen + req.cryptlen and d.length >= req.assoclen + outlen:
            return s.buf[s.offset:s.offset + s.length], d.buf[d.offset:d.offset + d.length]
    return None


def gather(sgl: Any, start: int, n: int) -> bytearray:
    """``n`` bytes of ``sgl`` from ``start``, copied out."""
    buf = bytearray(n)
    scatterwalk_map_and_copy(buf, sgl, start, n, False)
    return buf


@contextlib.contextmanager
def request_buffers(req: Any, alen: int, outlen: int) -> Iterator[Tuple[Any, Any, Any]]:
    """``(ad, text, out)``: the first ``alen`` bytes of the AD, the text
    (``req.cryptlen`` bytes after the AD region) and where ``outlen`` bytes
    of output go (after the AD region of dst).  In place for one-entry
    scatterlists; otherwise private copies, the output copied to dst when
    the block ends normally, and every copy wiped however it ends."""
    views = contiguous_views(req, outlen)
    if views is not None:
        src, dst = views
        yield (src[:alen], src[req.assoclen:req.assoclen + req.cryptlen],
               dst[req.assoclen:req.assoclen + outlen])
        return
    ad = gather(req.src, 0, alen)
    gathered = gather(req.src, req.assoclen, req.cryptlen)
    text = memoryview(gathered)
    out = bytearray(outlen)
    try:
        yield ad, text, out
        scatterwalk_map_and_copy(out, req.dst, req.assoclen, outlen, True)
    finally:
        text.release()
        for buf in (out, gathered, ad):
            buf[:] = bytes(len(buf))
