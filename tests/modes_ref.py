"""Independent references for the mode tests: AES modes from ``cryptography``
and an XTS (with ciphertext stealing, any AES key size) written here from
IEEE P1619 over cryptography's single-block AES."""

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes


def aes(key, mode, data, encrypt=True):
    c = Cipher(algorithms.AES(bytes(key)), mode)
    op = c.encryptor() if encrypt else c.decryptor()
    return op.update(bytes(data)) + op.finalize()


def _mul_x(t):
    v = int.from_bytes(t, "little")
    v = ((v << 1) & ((1 << 128) - 1)) ^ (0x87 if v >> 127 else 0)
    return v.to_bytes(16, "little")


def _xor(a, b):
    return bytes(x ^ y for x, y in zip(a, b))


def xts(key, tweak, data, encrypt=True):
    """IEEE P1619 XTS-AES for 32-, 48- or 64-byte keys, lengths >= 16."""
    half = len(key) // 2
    k1, k2 = bytes(key[:half]), bytes(key[half:])
    t = aes(k2, modes.ECB(), tweak)

    def blk(x, tw):
        return _xor(aes(k1, modes.ECB(), _xor(x, tw), encrypt), tw)

    m, r = divmod(len(data), 16)
    out = bytearray()
    tweaks = []
    for _ in range(m + 1):
        tweaks.append(t)
        t = _mul_x(t)
    last_full = m - 1 if r else m
    for i in range(last_full):
        out += blk(data[16 * i:16 * i + 16], tweaks[i])
    if r:
        a, b = (tweaks[m - 1], tweaks[m]) if encrypt else (tweaks[m], tweaks[m - 1])
        cc = blk(data[16 * (m - 1):16 * m], a)
        out += blk(bytes(data[16 * m:]) + cc[r:], b) + cc[:r]
    return bytes(out)
