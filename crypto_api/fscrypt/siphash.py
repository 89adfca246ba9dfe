"""SipHash-2-4 (Aumasson and Bernstein, 2012) with a 128-bit key and 64-bit
output: the role of lib/siphash.c's siphash_1u64(), which fscrypt uses to
hash inode numbers for IV_INO_LBLK_32.  Not a crypto API algorithm in the
kernel, so it is plain code here, written from the paper.
"""

from __future__ import annotations

_MASK = (1 << 64) - 1


def _rotl(x: int, b: int) -> int:
    return ((x << b) | (x >> (64 - b))) & _MASK


def _rounds(v: list, n: int) -> None:
    v0, v1, v2, v3 = v
    for _ in range(n):
        v0 = (v0 + v1) & _MASK
        v1 = _rotl(v1, 13) ^ v0
        v0 = _rotl(v0, 32)
        v2 = (v2 + v3) & _MASK
        v3 = _rotl(v3, 16) ^ v2
        v0 = (v0 + v3) & _MASK
        v3 = _rotl(v3, 21) ^ v0
        v2 = (v2 + v1) & _MASK
        v1 = _rotl(v1, 17) ^ v2
        v2 = _rotl(v2, 32)
    v[:] = [v0, v1, v2, v3]


def siphash24(key: bytes, message: bytes) -> int:
    """SipHash-2-4 of ``message`` under the 16-byte ``key``, as an integer
    (the paper's output bytes are its little-endian encoding)."""
    if len(key) != 16:
        raise ValueError("siphash: the key is 16 bytes")
    k0 = int.from_bytes(key[:8], "little")
    k1 = int.from_bytes(key[8:], "little")
    v = [k0 ^ 0x736F6D6570736575, k1 ^ 0x646F72616E646F6D,
         k0 ^ 0x6C7967656E657261, k1 ^ 0x7465646279746573]
    tail = len(message) % 8
    body = len(message) - tail
    last = bytes(message[body:]) + bytes(7 - tail) + bytes([len(message) & 0xFF])
    for off in range(0, body + 8, 8):
        chunk = message[off:off + 8] if off < body else last
        m = int.from_bytes(chunk, "little")
        v[3] ^= m
        _rounds(v, 2)
        v[0] ^= m
    v[2] ^= 0xFF
    _rounds(v, 4)
    return v[0] ^ v[1] ^ v[2] ^ v[3]


def siphash_1u64(key: bytes, value: int) -> int:
    """SipHash-2-4 of one 64-bit number in little-endian byte order."""
    return siphash24(key, (value & _MASK).to_bytes(8, "little"))
