"""fscrypt key derivation: fs/crypto/keysetup.c (v2, HKDF-SHA512),
keysetup_v1.c (v1, AES-128-ECB) and hkdf.c's info layout.

v2: the master key (16 to 64 bytes, at least the mode's security strength)
is HKDF-extracted with SHA-512 and no salt (the RFC's rule: a missing salt
is one hash length of zeros, which is what HMAC makes of an empty key);
every subkey is HKDF-expanded with the info ``"fscrypt\\0"``, a context
byte and the context's own bytes (:data:`HKDF_CONTEXT`): the key identifier
(16 bytes), the per-file key (from the nonce), the DIRECT_KEY key (from the
mode number), the IV_INO_LBLK_64/32 keys (mode number and filesystem UUID),
the inode-hash SipHash key.  v1: the per-file key is the master key's first
``keysize`` bytes encrypted with AES-128-ECB keyed by the nonce; DIRECT_KEY
uses those bytes as they are.  All through the registry's algorithms
(``hmac(sha512)``, ``ecb(aes)``).
"""

from __future__ import annotations

from ..errors import EINVAL, CryptoError
from ..hkdf import hkdf_expand, hkdf_extract
from ..shash import crypto_alloc_shash
from ..skcipher import crypto_alloc_skcipher
from .policy import (FSCRYPT_POLICY_FLAG_DIRECT_KEY, FSCRYPT_POLICY_FLAG_IV_INO_LBLK_32,
                     FSCRYPT_POLICY_FLAG_IV_INO_LBLK_64, Mode, Policy)
from .siphash import siphash_1u64

FSCRYPT_MIN_KEY_SIZE = 16
FSCRYPT_MAX_KEY_SIZE = 64
FSCRYPT_FILE_NONCE_SIZE = 16
FSCRYPT_KEY_IDENTIFIER_SIZE = 16
UUID_SIZE = 16
_HASH_LEN = 64              # SHA-512

#: HKDF context bytes (fs/crypto/fscrypt_private.h).
HKDF_CONTEXT = {
    "key_identifier": 1,
    "per_file_enc_key": 2,
    "direct_key": 3,
    "iv_ino_lblk_64_key": 4,
    "dirhash_key": 5,
    "iv_ino_lblk_32_key": 6,
    "inode_hash_key": 7,
}
_INFO_PREFIX = b"fscrypt\0"


def fixed_bytes(value, size: int, what: str) -> bytes:
    try:
        data = bytes(value)
    except TypeError:
        raise CryptoError(EINVAL, f"fscrypt: {what} must be bytes") from None
    if len(data) != size:
        raise CryptoError(EINVAL, f"fscrypt: {what} is {len(data)} bytes; it must be {size}")
    return data


def check_master_key(policy: Policy, master_key, mode: Mode) -> bytes:
    """The master key as bytes, when its size suits ``policy`` and ``mode``;
    EINVAL naming the sizes otherwise (v1: at least the mode's key size, as
    the v1 KDF needs; v2: at least the mode's security strength; both at
    most 64 bytes, v2 at least 16)."""
    key = bytes(master_key)
    least = mode.keysize if policy.version == 1 else max(mode.security_strength,
                                                         FSCRYPT_MIN_KEY_SIZE)
    if not least <= len(key) <= FSCRYPT_MAX_KEY_SIZE:
        raise CryptoError(EINVAL, f"fscrypt: the master key is {len(key)} bytes; "
                                  f"{mode.name} in a v{policy.version} policy needs "
                                  f"{least} to {FSCRYPT_MAX_KEY_SIZE}")
    return key


class HkdfKey:
    """A v2 master key, extracted once: ``expand(context, info, length)``."""

    def __init__(self, master_key) -> None:
        key = bytes(master_key)
        if not FSCRYPT_MIN_KEY_SIZE <= len(key) <= FSCRYPT_MAX_KEY_SIZE:
            raise CryptoError(EINVAL, f"fscrypt: a v2 master key is {FSCRYPT_MIN_KEY_SIZE} to "
                                      f"{FSCRYPT_MAX_KEY_SIZE} bytes, not {len(key)}")
        self._tfm = crypto_alloc_shash("hmac(sha512)")
        prk = bytearray(hkdf_extract(self._tfm, key, bytes(_HASH_LEN)))
        try:
            self._tfm.setkey(prk)
        finally:
            prk[:] = bytes(len(prk))

    def expand(self, context: str, info: bytes, length: int) -> bytes:
        return hkdf_expand(self._tfm, _INFO_PREFIX + bytes([HKDF_CONTEXT[context]]) + info,
                           length)

    def close(self) -> None:
        self._tfm.free()

    def __enter__(self) -> "HkdfKey":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def key_identifier(master_key) -> bytes:
    """The 16-byte identifier of a v2 master key (what FS_IOC_ADD_ENCRYPTION_KEY returns)."""
    with HkdfKey(master_key) as hk:
        return hk.expand("key_identifier", b"", FSCRYPT_KEY_IDENTIFIER_SIZE)


def inode_hash(master_key, ino: int) -> int:
    """IV_INO_LBLK_32's hashed inode number: SipHash-2-4 of the inode number
    under a key HKDF-derived from the master key, cut to 32 bits."""
    with HkdfKey(master_key) as hk:
        return siphash_1u64(hk.expand("inode_hash_key", b"", 16), ino) & 0xFFFFFFFF


def _aes_ecb_v1(master_key: bytes, nonce: bytes, length: int) -> bytes:
    with crypto_alloc_skcipher("ecb(aes)") as tfm:
        tfm.setkey(nonce)
        return tfm.encrypt(master_key[:length])


def derive_key(policy: Policy, master_key, mode: Mode, nonce, fs_uuid=None) -> bytes:
    """The key an inode's contents (``mode`` = the contents mode) or names
    (the filenames mode) are encrypted with, as the kernel derives it."""
    key = check_master_key(policy, master_key, mode)
    nonce = fixed_bytes(nonce, FSCRYPT_FILE_NONCE_SIZE, "the nonce")
    if policy.version == 1:
        if policy.flags & FSCRYPT_POLICY_FLAG_DIRECT_KEY:
            return key[:mode.keysize]
        return _aes_ecb_v1(key, nonce, mode.keysize)
    flag = policy.key_flag
    with HkdfKey(key) as hk:
        if flag == FSCRYPT_POLICY_FLAG_DIRECT_KEY:
            return hk.expand("direct_key", bytes([mode.number]), mode.keysize)
        if flag in (FSCRYPT_POLICY_FLAG_IV_INO_LBLK_64, FSCRYPT_POLICY_FLAG_IV_INO_LBLK_32):
            if fs_uuid is None:
                raise CryptoError(EINVAL, f"fscrypt: policy {policy.describe()}: the "
                                          "IV_INO_LBLK keys need the filesystem UUID")
            uuid = fixed_bytes(fs_uuid, UUID_SIZE, "the filesystem UUID")
            context = ("iv_ino_lblk_64_key" if flag == FSCRYPT_POLICY_FLAG_IV_INO_LBLK_64
                       else "iv_ino_lblk_32_key")
            return hk.expand(context, bytes([mode.number]) + uuid, mode.keysize)
        return hk.expand("per_file_enc_key", nonce, mode.keysize)
