"""How a stream cipher's IV continues a message cut into chunks.

``enc``/``dec`` (tools/kcapi_enc.py) process a large input in chunks of a
whole number of keystream blocks; each chunk is one request whose IV must say
where in the keystream the chunk starts, exactly as one long message would
continue.  That place is a kernel fact about each algorithm
(crypto/chacha_generic.c, lib/crypto/chacha.c), kept here and nowhere else,
keyed by ``cra_name`` so that every driver of a name (generic, SIMD, a
plug-in) gets the same rule:

* ``chacha20``: IV = le32 block counter ‖ 96-bit nonce: the counter is the
  IV's first 4 bytes (ChaCha state word 12).
* ``xchacha12`` / ``xchacha20``: IV = 24-byte nonce ‖ 8-byte stream
  position; state word 12 is the position's low half, bytes 24..27.

In both the kernel increments word 12 alone, modulo 2^32, with no carry into
word 13; a continued IV wraps the same way.  A ``cra_name`` missing here has
no known continuation: the tool then processes the input as one message.
"""

from __future__ import annotations

from typing import Optional

import attrs

#: ChaCha's keystream block: a chunk boundary must fall on a multiple of it.
CHACHA_BLOCK_SIZE = 64


@attrs.frozen
class CounterContinuation:
    """A 32-bit little-endian block counter at ``offset`` in the IV, wrapping mod 2^32."""

    offset: int
    block_size: int = CHACHA_BLOCK_SIZE

    def iv_at(self, iv: bytes, blocks: int) -> bytes:
        """The IV of the same message ``blocks`` keystream blocks further on."""
        end = self.offset + 4
        counter = (int.from_bytes(iv[self.offset:end], "little") + blocks) & 0xFFFFFFFF
        return bytes(iv[:self.offset]) + counter.to_bytes(4, "little") + bytes(iv[end:])


#: cra_name -> its continuation rule.
STREAM_CONTINUATIONS = {
    "chacha20": CounterContinuation(offset=0),
    "xchacha12": CounterContinuation(offset=24),
    "xchacha20": CounterContinuation(offset=24),
}


def continuation_for(tfm) -> Optional[CounterContinuation]:
    """The continuation rule of ``tfm``'s algorithm, or None when none is known."""
    return STREAM_CONTINUATIONS.get(tfm.alg.cra_name)
