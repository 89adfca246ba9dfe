"""Independent references for the HCTR2 tests, written here from the specs
over ``cryptography``'s AES-ECB: POLYVAL through its relation to GHASH
(RFC 8452 Appendix A, GHASH's multiplication from NIST SP 800-38D), XCTR and
HCTR2 from the paper ("Length-preserving encryption with HCTR2", Crowley and
Biggers), for any tweak length."""

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

_R = 0xE1 << 120        # GCM's reduction constant, in GCM's bit order


def _ghash_mul(x: int, y: int) -> int:
    """X · Y in GCM's field (SP 800-38D Algorithm 1; bit 0 the leftmost bit)."""
    z, v = 0, y
    for i in range(127, -1, -1):
        if (x >> i) & 1:
            z ^= v
        v = (v >> 1) ^ (_R if v & 1 else 0)
    return z


def ghash(h: bytes, blocks: bytes) -> bytes:
    hv, y = int.from_bytes(h, "big"), 0
    for i in range(0, len(blocks), 16):
        y = _ghash_mul(y ^ int.from_bytes(blocks[i:i + 16], "big"), hv)
    return y.to_bytes(16, "big")


def _mul_x_ghash(block: bytes) -> bytes:
    v = int.from_bytes(block, "big")
    return ((v >> 1) ^ (_R if v & 1 else 0)).to_bytes(16, "big")


def polyval(h: bytes, data: bytes) -> bytes:
    """POLYVAL(H, X_1..X_n) = ByteReverse(GHASH(mulX_GHASH(ByteReverse(H)),
    ByteReverse(X_1), ...)) (RFC 8452 Appendix A); ``data`` whole blocks."""
    assert len(data) % 16 == 0
    rev = b"".join(data[i:i + 16][::-1] for i in range(0, len(data), 16))
    return ghash(_mul_x_ghash(h[::-1]), rev)[::-1]


def _ecb(key: bytes):
    c = Cipher(algorithms.AES(key), modes.ECB())
    return c.encryptor(), c.decryptor()


def _xor(a: bytes, b: bytes) -> bytes:
    return bytes(x ^ y for x, y in zip(a, b))


def xctr(key: bytes, iv: bytes, data: bytes) -> bytes:
    """XCTR_K(IV) ⊕ data: block i (from 1) of the keystream is E_K(IV ⊕ bin_le(i))."""
    enc, _ = _ecb(key)
    out = bytearray()
    for i in range(0, len(data), 16):
        ctr = (int.from_bytes(iv, "little") ^ (i // 16 + 1)).to_bytes(16, "little")
        out += _xor(data[i:i + 16], enc.update(ctr))
    return bytes(out)


def _pad_zero(x: bytes) -> bytes:
    return x + bytes(-len(x) % 16)


def hctr2_hash(h: bytes, tweak: bytes, x: bytes) -> bytes:
    """H_h(T, X): POLYVAL of bin(2|T| + 2 + [|X| mod 16 ≠ 0]) (|T| in bits),
    T zero-padded, X padded with 1 then zeros when not whole blocks."""
    first = (2 * 8 * len(tweak) + 2 + (1 if len(x) % 16 else 0)).to_bytes(16, "little")
    tail = x if len(x) % 16 == 0 else _pad_zero(x + b"\x01")
    return polyval(h, first + _pad_zero(tweak) + tail)


def hctr2(key: bytes, tweak: bytes, data: bytes, encrypt: bool = True) -> bytes:
    """HCTR2 encryption (or decryption) of ``data`` (at least 16 bytes)."""
    enc, dec = _ecb(key)
    h = enc.update(bytes(16))
    big_l = enc.update(b"\x01" + bytes(15))
    head, bulk = data[:16], data[16:]
    mm = _xor(head, hctr2_hash(h, tweak, bulk))
    uu = enc.update(mm) if encrypt else dec.update(mm)
    s = _xor(_xor(mm, uu), big_l)
    out_bulk = xctr(key, s, bulk)
    return _xor(uu, hctr2_hash(h, tweak, out_bulk)) + out_bulk
