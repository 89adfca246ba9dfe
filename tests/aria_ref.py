"""A plain-Python ARIA (RFC 5794) written from the RFC's equations, for the
tests: the S-boxes are computed from their algebraic definitions (SB1 the
AES S-box, SB2 = B·x^247 ⊕ 0xE2), not copied tables, so the C cores are
checked against an independent model."""

from __future__ import annotations

from typing import List


def _gmul(a: int, b: int) -> int:
    r = 0
    while b:
        if b & 1:
            r ^= a
        a <<= 1
        if a & 0x100:
            a ^= 0x11B
        b >>= 1
    return r


def _gpow(a: int, e: int) -> int:
    r = 1
    while e:
        if e & 1:
            r = _gmul(r, a)
        a = _gmul(a, a)
        e >>= 1
    return r


def _rotl8(x: int, n: int) -> int:
    return ((x << n) | (x >> (8 - n))) & 0xFF


def _apply(cols: List[int], x: int) -> int:
    r = 0
    for j in range(8):
        if x >> j & 1:
            r ^= cols[j]
    return r


def _sb1(x: int) -> int:
    b = _gpow(x, 254)
    return b ^ _rotl8(b, 1) ^ _rotl8(b, 2) ^ _rotl8(b, 3) ^ _rotl8(b, 4) ^ 0x63


# The columns of the matrix B of SB2 (RFC 5794 §2.4.2), column j = B·e_j.
_B_COLS = [0xAC, 0xC5, 0x12, 0xCF, 0x5B, 0x5F, 0x85, 0xEE]

SB1 = [_sb1(x) for x in range(256)]
SB2 = [_apply(_B_COLS, _gpow(x, 247)) ^ 0xE2 for x in range(256)]
X1 = [0] * 256
X2 = [0] * 256
for _x in range(256):
    X1[SB1[_x]] = _x
    X2[SB2[_x]] = _x

# Diffusion layer A: output byte i is the XOR of these input bytes.
A_ROWS = (
    (3, 4, 6, 8, 9, 13, 14), (2, 5, 7, 8, 9, 12, 15), (1, 4, 6, 10, 11, 12, 15),
    (0, 5, 7, 10, 11, 13, 14), (0, 2, 5, 8, 11, 14, 15), (1, 3, 4, 9, 10, 14, 15),
    (0, 2, 7, 9, 10, 12, 13), (1, 3, 6, 8, 11, 12, 13), (0, 1, 4, 7, 10, 13, 15),
    (0, 1, 5, 6, 11, 12, 14), (2, 3, 5, 6, 8, 13, 15), (2, 3, 4, 7, 9, 12, 14),
    (1, 2, 6, 7, 9, 11, 12), (0, 3, 6, 7, 8, 10, 13), (0, 3, 4, 5, 9, 11, 14),
    (1, 2, 4, 5, 8, 10, 15),
)

C = (0x517CC1B727220A94FE13ABE8FA9A6EE0, 0x6DB14ACC9E21C820FF28B1D5EF5DE2B0,
     0xDB92371D2126E9700324977504E8C90E)

_SL1 = (SB1, SB2, X1, X2)
_SL2 = (X1, X2, SB1, SB2)
_M128 = (1 << 128) - 1


def _diffuse(x: bytes) -> bytes:
    return bytes(x[r[0]] ^ x[r[1]] ^ x[r[2]] ^ x[r[3]] ^ x[r[4]] ^ x[r[5]] ^ x[r[6]] for r in A_ROWS)


def _sub(x: bytes, layer) -> bytes:
    return bytes(layer[i % 4][b] for i, b in enumerate(x))


def _xor(a: bytes, b: bytes) -> bytes:
    return bytes(p ^ q for p, q in zip(a, b))


def _f(d: bytes, rk: bytes, odd: bool) -> bytes:
    return _diffuse(_sub(_xor(d, rk), _SL1 if odd else _SL2))


def _b(n: int) -> bytes:
    return n.to_bytes(16, "big")


def _ror(n: int, r: int) -> int:
    return ((n >> r) | (n << (128 - r))) & _M128


def round_keys(key: bytes) -> List[bytes]:
    """The encryption round keys ek1..ek(R+1)."""
    if len(key) not in (16, 24, 32):
        raise ValueError("ARIA key must be 16, 24 or 32 bytes")
    first = (len(key) - 16) // 8
    ck = [C[(first + i) % 3] for i in range(3)]
    kl = key[:16]
    kr = key[16:].ljust(16, b"\0")
    w0 = kl
    w1 = _xor(_f(w0, _b(ck[0]), True), kr)
    w2 = _xor(_f(w1, _b(ck[1]), False), w0)
    w3 = _xor(_f(w2, _b(ck[2]), True), w1)
    w = [int.from_bytes(x, "big") for x in (w0, w1, w2, w3)]
    rounds = (len(key) + 32) // 4
    eks = []
    for n in (19, 31, 67, 97, 109):
        for a, b in ((0, 1), (1, 2), (2, 3), (3, 0)):
            eks.append(_b(w[a] ^ _ror(w[b], n)))
    return eks[:rounds + 1]


def _crypt(keys: List[bytes], block: bytes) -> bytes:
    r = len(keys) - 1
    x = bytes(block)
    for i in range(r - 1):
        x = _f(x, keys[i], i % 2 == 0)
    return _xor(_sub(_xor(x, keys[r - 1]), _SL2), keys[r])


def encrypt_block(key: bytes, block: bytes) -> bytes:
    return _crypt(round_keys(key), block)


def decrypt_block(key: bytes, block: bytes) -> bytes:
    ek = round_keys(key)
    r = len(ek) - 1
    dk = [ek[r]] + [_diffuse(ek[r - i]) for i in range(1, r)] + [ek[0]]
    return _crypt(dk, block)


def ctr(key: bytes, iv: bytes, data: bytes) -> bytes:
    """CTR with the counter a 128-bit big-endian integer (wrapping at 2^128)."""
    ek = round_keys(key)
    c = int.from_bytes(iv, "big")
    out = bytearray()
    for i in range(0, len(data), 16):
        ks = _crypt(ek, _b(c))
        c = (c + 1) & _M128
        out += _xor(data[i:i + 16], ks)
    return bytes(out)


def ecb(key: bytes, data: bytes, encrypt: bool = True) -> bytes:
    f = encrypt_block if encrypt else decrypt_block
    return b"".join(f(key, data[i:i + 16]) for i in range(0, len(data), 16))
