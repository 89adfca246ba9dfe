"""The fuzzers' view of one input: numbers and bytes taken from its front.

No kernel counterpart.  libFuzzer (through atheris) mutates a byte string;
each target decodes it with :class:`FuzzInput` into lengths, offsets, choices
and data.  The decoding is this module's own and needs no atheris, so the
corpus replay (tests/fuzz/test_corpus.py) runs each kept input through the
same check in a plain pytest run.  An exhausted input reads as zeros: every
input, however short, decodes to some case.
"""

from __future__ import annotations

import hashlib


class FuzzInput:
    """A cursor over the input bytes."""

    def __init__(self, data: bytes):
        self.data = bytes(data)
        self.pos = 0

    def remaining(self) -> int:
        return max(0, len(self.data) - self.pos)

    def take(self, n: int) -> bytes:
        """The next ``n`` bytes (zero-padded past the end)."""
        chunk = self.data[self.pos:self.pos + n]
        self.pos += n
        return chunk + bytes(n - len(chunk))

    def uint(self, limit: int) -> int:
        """An integer in ``[0, limit]`` (``limit`` < 2**32)."""
        if limit <= 0:
            return 0
        width = 1 if limit < 0x100 else 2 if limit < 0x10000 else 4
        return int.from_bytes(self.take(width), "little") % (limit + 1)

    def flag(self) -> bool:
        return bool(self.uint(1))

    def choice(self, items):
        return items[self.uint(len(items) - 1)]

    def length(self, limit: int) -> int:
        """A length up to ``limit``, small ones likelier (a length byte picks
        the scale: short, around a block, anything)."""
        scale = self.uint(3)
        if scale == 0:
            return self.uint(min(limit, 40))
        if scale == 1:
            return min(limit, self.uint(4) * 64 + self.uint(31))
        return self.uint(limit)

    def blob(self, n: int) -> bytes:
        """``n`` bytes: the input's own where it has them, the rest an
        expansion of what it gave (so long messages need no long inputs)."""
        own = self.data[self.pos:self.pos + n]
        self.pos += len(own)
        if len(own) == n:
            return own
        return own + hashlib.shake_256(own + n.to_bytes(4, "little")).digest(n - len(own))

    def text(self, limit: int, alphabet: str) -> str:
        """Up to ``limit`` characters of ``alphabet``, one input byte each."""
        n = self.uint(limit)
        return "".join(alphabet[b % len(alphabet)] for b in self.take(n))
