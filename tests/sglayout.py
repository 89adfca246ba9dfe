"""Random scatterlist layouts for property tests (shared by the driver tests).

A layout is a list of (offset, length) entries whose lengths add up to the
message length; each entry gets its own page-aligned buffer, filled with a
marker byte around the entry so that writes outside it show.
"""

from hypothesis import strategies as st

import crypto_api as capi


@st.composite
def layouts(draw, n):
    """(offset, length) per entry, lengths summing to n; offsets near page ends too."""
    cuts = sorted(draw(st.lists(st.integers(0, n), max_size=6)))
    lengths = [b - a for a, b in zip([0] + cuts, cuts + [n])]
    offset = st.one_of(st.integers(0, 70), st.integers(4096 - 130, 4096 + 3))
    return [(draw(offset), length) for length in lengths]


def scatter(data, layout, fill):
    """Own page-aligned buffer per entry, filled with ``fill`` around the entry."""
    sgl, bufs, pos = capi.sg_init_table(len(layout)), [], 0
    for sg, (off, length) in zip(sgl, layout):
        buf = bytearray(fill * (off + length + 40))
        buf[off:off + length] = data[pos:pos + length]
        capi.sg_set_buf(sg, buf, off, length)
        bufs.append(buf)
        pos += length
    return sgl, bufs


def gather(bufs, layout):
    """The bytes the entries cover, in order."""
    return b"".join(bytes(b[off:off + n]) for b, (off, n) in zip(bufs, layout))


def outside(bufs, layout):
    """The bytes around each entry (must not change)."""
    return [bytes(b[:off]) + bytes(b[off + n:]) for b, (off, n) in zip(bufs, layout)]
