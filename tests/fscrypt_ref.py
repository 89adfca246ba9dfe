"""An independent fscrypt model for the tests of crypto_api.fscrypt.

Written from the semantics of xfstests' src/fscrypt-crypt-util.c (the tool
xfstests checks real ext4/f2fs ciphertext with) and fscrypt.rst, with
``cryptography`` doing HKDF-SHA512, AES-ECB/CBC/XTS: nothing of
crypto_api.fscrypt is used here but the SipHash (tested on its own against
the SipHash paper's vector) and, for Adiantum and HCTR2, which
``cryptography`` lacks, the registry's generic drivers named by hand.

``reference_key`` derives a mode's key, ``reference_iv`` builds the IV of a
data unit, ``reference_crypt`` encrypts one message with a mode number's
algorithm; ``reference_contents`` and ``reference_name`` put them together.
"""

import hashlib

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

import crypto_api as capi
from crypto_api.fscrypt.siphash import siphash_1u64
from kernel_names import instance

KEYSIZE = {1: 64, 4: 32, 5: 16, 6: 16, 9: 32, 10: 32}
IVSIZE = {1: 16, 4: 16, 5: 16, 6: 16, 9: 32, 10: 32}
#: by this project's driver names (kernel_names.instance: the followed kernel's)
GENERIC = {9: "adiantum(xchacha12-generic,aes-generic,nhpoly1305-generic)",
           10: "hctr2_base(xctr(aes-generic),polyval-generic)"}


def hkdf_sha512(master, context, extra, length):
    """HKDF-SHA512, no salt, info "fscrypt\\0" + context byte + extra."""
    info = b"fscrypt\x00" + bytes([context]) + extra
    return HKDF(algorithm=hashes.SHA512(), length=length, salt=None, info=info).derive(master)


def _aes_ecb(key, data, decrypt=False):
    c = Cipher(algorithms.AES(key), modes.ECB())
    op = c.decryptor() if decrypt else c.encryptor()
    return op.update(data) + op.finalize()


def reference_key(version, flags, mode_num, master, nonce=None, uuid=None):
    size = KEYSIZE[mode_num]
    if version == 1:
        if flags & 0x04:
            return master[:size]
        return _aes_ecb(nonce, master[:size])
    if flags & 0x04:
        return hkdf_sha512(master, 3, bytes([mode_num]), size)
    if flags & 0x08:
        return hkdf_sha512(master, 4, bytes([mode_num]) + uuid, size)
    if flags & 0x10:
        return hkdf_sha512(master, 6, bytes([mode_num]) + uuid, size)
    return hkdf_sha512(master, 2, nonce, size)


def reference_hashed_ino(master, ino):
    return siphash_1u64(hkdf_sha512(master, 7, b"", 16), ino) & 0xFFFFFFFF


def reference_iv(flags, mode_num, index, nonce=None, ino=None, hashed_ino=None):
    if flags & 0x08:
        head = index.to_bytes(4, "little") + ino.to_bytes(4, "little")
    elif flags & 0x10:
        head = ((hashed_ino + index) % (1 << 32)).to_bytes(4, "little")
    elif flags & 0x04:
        head = index.to_bytes(8, "little") + nonce
    else:
        head = index.to_bytes(8, "little")
    return head + bytes(IVSIZE[mode_num] - len(head))


def _cbc(key, iv, data):
    e = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()
    return e.update(data) + e.finalize()


def _cts_cbc(key, iv, data):
    """CBC with ciphertext stealing, the CS3 layout: last two blocks swapped."""
    n = len(data)
    assert n >= 16
    if n == 16:
        return _cbc(key, iv, data)
    full = _cbc(key, iv, data + bytes(-n % 16))
    tail = n - 16 * ((n - 1) // 16)             # 1..16 bytes in the last block
    head, c_prev, c_last = full[:-32], full[-32:-16], full[-16:]
    return head + c_last + c_prev[:tail]


def reference_crypt(mode_num, key, iv, data):
    """One message encrypted as the mode's algorithm does."""
    if mode_num == 1:
        e = Cipher(algorithms.AES(key), modes.XTS(iv)).encryptor()
        return e.update(data) + e.finalize()
    if mode_num == 5:
        essiv_iv = _aes_ecb(hashlib.sha256(key).digest(), iv)
        return _cbc(key, essiv_iv, data)
    if mode_num in (4, 6):
        return _cts_cbc(key, iv, data)
    with capi.crypto_alloc_skcipher(instance(GENERIC[mode_num])) as tfm:
        tfm.setkey(key)
        return tfm.encrypt(data, iv)


def reference_contents(version, contents, flags, master, nonce, data, du=4096, ino=None, uuid=None):
    key = reference_key(version, flags, contents, master, nonce, uuid)
    hashed = reference_hashed_ino(master, ino) if flags & 0x10 else None
    out = b""
    for i, off in enumerate(range(0, len(data), du)):
        unit = data[off:off + du]
        unit += bytes(du - len(unit))
        out += reference_crypt(contents, key, reference_iv(flags, contents, i, nonce, ino, hashed), unit)
    return out


def reference_name(version, filenames, flags, master, nonce, name, ino=None, uuid=None):
    padding = 4 << (flags & 3)
    size = min(-(-max(len(name), 16) // padding) * padding, 255)
    key = reference_key(version, flags, filenames, master, nonce, uuid)
    hashed = reference_hashed_ino(master, ino) if flags & 0x10 else None
    iv = reference_iv(flags, filenames, 0, nonce, ino, hashed)
    return reference_crypt(filenames, key, iv, name + bytes(size - len(name)))
