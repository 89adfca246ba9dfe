"""How a fuzz target hands one message to a transform: the buffer shapes.

No kernel counterpart (testmgr.c's test configurations play this role in
the kernel: misaligned, split and in-place buffers).  :func:`run_direct` is
the one-call path (``encrypt(data, iv)``, ``out=`` of the exact size, in
place through ``out=`` on the input buffer, a memoryview at an odd offset of a
larger buffer); :func:`run_request` is the request path with random
scatterlists (split points, page offsets, in place over the same entries or
separate ones), checking that no byte around an entry changes.
"""

from __future__ import annotations

import crypto_api as capi

from fuzz_input import FuzzInput

GUARD = 0xA5          # the byte around every entry; it must survive the call
DIRECT_FORMS = ("new", "out", "inplace", "offset")


def run_direct(fi: FuzzInput, call, data: bytes, outlen: int) -> bytes:
    """``call(data, out)`` in one of the forms :data:`DIRECT_FORMS`; returns
    what the call produced (``outlen`` bytes) after checking the guard bytes."""
    form = fi.choice(DIRECT_FORMS)
    if form == "new":
        return bytes(call(data, None))
    lead = fi.uint(63)
    if form == "inplace" and outlen == len(data):
        buf = bytearray([GUARD]) * (lead + outlen + 16)
        buf[lead:lead + outlen] = data
        view = memoryview(buf)[lead:lead + outlen]
        res = call(view, view)
    else:
        buf = bytearray([GUARD]) * (lead + outlen + 16)
        src = bytearray(data) if form != "offset" else _at_offset(data, fi.uint(63))
        res = call(src, memoryview(buf)[lead:lead + outlen])
    assert res is not None
    if buf[:lead] != bytearray([GUARD]) * lead or buf[lead + outlen:] != bytearray([GUARD]) * 16:
        raise AssertionError(f"{form}: bytes around the output changed")
    return bytes(buf[lead:lead + outlen])


def _at_offset(data: bytes, off: int) -> memoryview:
    """``data`` as a read-only view at offset ``off`` of a larger buffer."""
    return memoryview(bytes(off) + data + bytes(7))[off:off + len(data)]


def _layout(fi: FuzzInput, n: int) -> list:
    """(offset, length) per entry: up to 5 entries, offsets near page starts and ends."""
    cuts = sorted(fi.uint(n) for _ in range(fi.uint(4)))
    lengths = [b - a for a, b in zip([0] + cuts, cuts + [n])]
    return [(fi.choice((0, 1, fi.uint(63), 4096 - 1 - fi.uint(63))), k) for k in lengths]


def _scatter(data: bytes, layout: list):
    sgl, bufs, pos = capi.sg_init_table(len(layout)), [], 0
    for sg, (off, k) in zip(sgl, layout):
        buf = bytearray([GUARD]) * (off + k + 24)
        buf[off:off + k] = data[pos:pos + k]
        capi.sg_set_buf(sg, buf, off, k)
        bufs.append(buf)
        pos += k
    return sgl, bufs


def _gather(bufs: list, layout: list) -> bytes:
    return b"".join(bytes(b[o:o + k]) for b, (o, k) in zip(bufs, layout))


def _check_guards(bufs: list, layout: list, what: str) -> None:
    for b, (o, k) in zip(bufs, layout):
        if any(x != GUARD for x in b[:o]) or any(x != GUARD for x in b[o + k:]):
            raise AssertionError(f"{what}: a byte around a scatterlist entry changed")


def run_request(fi: FuzzInput, submit, data: bytes, outlen: int) -> bytes:
    """``submit(src_sgl, dst_sgl)`` over random scatterlists holding ``data``
    (the destination covers ``outlen`` bytes; in place: the same list);
    returns the destination's bytes after checking the guard bytes."""
    n = max(len(data), outlen)
    padded = data + bytes(n - len(data))
    src_layout = _layout(fi, n)
    src, src_bufs = _scatter(padded, src_layout)
    if fi.flag():
        submit(src, src)
        _check_guards(src_bufs, src_layout, "in place")
        return _gather(src_bufs, src_layout)[:outlen]
    dst_layout = _layout(fi, n)
    dst, dst_bufs = _scatter(bytes(n), dst_layout)
    submit(src, dst)
    _check_guards(src_bufs, src_layout, "source")
    _check_guards(dst_bufs, dst_layout, "destination")
    if _gather(src_bufs, src_layout) != padded:
        raise AssertionError("the source changed (not in place)")
    return _gather(dst_bufs, dst_layout)[:outlen]
