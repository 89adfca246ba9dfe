"""Test buffers: scatterlists laid out per a config, with poison around them.

Mirrors build_test_sglist / verify_correct_output in crypto/testmgr.c.  Each
piece lives in its own two-page buffer filled with poison (0xfe); after the
operation every byte outside the pieces must still be poison.
"""

from __future__ import annotations

from typing import List, Sequence, Tuple

from ..scatterlist import Scatterlist
from .configs import PAGE_SIZE, TOTAL, DivSpec

POISON = 0xFE
BUFSIZE = 2 * PAGE_SIZE


def piece_lengths(total: int, divs: Sequence[DivSpec]) -> List[Tuple[DivSpec, int]]:
    """Split ``total`` by proportion; empty pieces dropped, remainder to the last."""
    out: List[Tuple[DivSpec, int]] = []
    remaining = total
    for d in divs:
        if remaining <= 0:
            break
        n = min(remaining, (total * d.proportion + TOTAL // 2) // TOTAL)
        if n:
            out.append((d, n))
            remaining -= n
    if remaining > 0:
        if out:
            d, n = out[-1]
            out[-1] = (d, n + remaining)
        else:
            out.append((divs[-1], remaining))
    return out


class TestSgl:
    """A scatterlist over poisoned buffers, one buffer per piece."""

    __test__ = False          # not a pytest test class

    def __init__(self, total: int, divs: Sequence[DivSpec], alignmask: int, data: bytes = b"") -> None:
        self.pieces: List[Tuple[bytearray, int, int, DivSpec]] = []
        self.sgl: List[Scatterlist] = []
        for d, n in piece_lengths(total, divs):
            off = d.offset + (alignmask if d.offset_relative_to_alignmask else 0)
            while off and off + n > BUFSIZE:
                off //= 2
            size = max(BUFSIZE, off + n)
            buf = bytearray([POISON]) * size
            sg = Scatterlist()
            sg.buf = memoryview(buf)
            sg.offset = off
            sg.length = n
            self.pieces.append((buf, off, n, d))
            self.sgl.append(sg)
        if data:
            self.fill(data)

    def fill(self, data: bytes) -> None:
        pos = 0
        for buf, off, n, _ in self.pieces:
            buf[off:off + n] = data[pos:pos + n]
            pos += n

    def contents(self) -> bytes:
        return b"".join(bytes(buf[off:off + n]) for buf, off, n, _ in self.pieces)

    def poison_intact(self) -> bool:
        for buf, off, n, _ in self.pieces:
            if buf[:off].count(POISON) != off or buf[off + n:].count(POISON) != len(buf) - off - n:
                return False
        return True
