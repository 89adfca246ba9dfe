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


def cts_cbc(key, iv, data, encrypt=True):
    """CBC-CS3 (NIST SP 800-38A addendum; RFC 3962) over cryptography's AES-CBC
    and single-block AES, lengths >= 16: the last block zero-padded, the last
    two ciphertext blocks swapped, the final one cut to the tail's length."""
    data = bytes(data)
    n = len(data)
    if n == 16:
        return aes(key, modes.CBC(bytes(iv)), data, encrypt)
    m = (n - 1) // 16 * 16
    last = n - m
    if encrypt:
        c = aes(key, modes.CBC(bytes(iv)), data[:m] + data[m:].ljust(16, b"\0"))
        return c[:m - 16] + c[m:] + c[m - 16:m - 16 + last]
    tail = data[m:]
    d = aes(key, modes.ECB(), data[m - 16:m], False)      # pad(P_n) xor C_{n-1}
    head = aes(key, modes.CBC(bytes(iv)), data[:m - 16] + tail + d[last:], False)
    return head + _xor(d[:last], tail)
