"""Filenames: fs/crypto/fname.c.

A name (1 to 255 bytes, not ``.`` or ``..``) is zero-padded to a multiple
of the policy's padding and to at least 16 bytes, but never past 255
(fscrypt_fname_encrypted_size), then encrypted whole with the filenames
mode under the directory's key and the IV of index 0.  Decryption drops the
trailing zeros.

:func:`nokey_name` is what readdir shows without the key: the 8-byte
dirhash (two little-endian 32-bit words, zero when the filesystem gives
none), then the ciphertext, or for ciphertexts past 149 bytes its first 149
bytes and the SHA-256 of the rest, base64url-encoded without padding (RFC
4648 section 5).  That is the encoding of kernels 5.15 and later (the July
2021 change "fscrypt: align Base64 encoding with RFC 4648 base64url");
5.6 to 5.14 used a custom Base64 with '+' and ',' in another bit order,
which this module does not produce.
"""

from __future__ import annotations

import base64
import errno

from ..errors import EINVAL, ENAMETOOLONG, CryptoError
from ..shash import crypto_alloc_shash
from .inode import FscryptInode

NAME_MAX = 255
FSCRYPT_FNAME_MIN_MSG_LEN = 16
NOKEY_BYTES = 149                          # fscrypt_nokey_name.bytes
NOKEY_NAME_MAX = 8 + NOKEY_BYTES + 32      # with the SHA-256: 189 bytes, 252 encoded


def encrypted_size(inode: FscryptInode, length: int) -> int:
    """The stored length of a ``length``-byte name; ENAMETOOLONG past 255."""
    if length > NAME_MAX:
        raise CryptoError(ENAMETOOLONG, f"fscrypt: a {length}-byte name is longer than "
                                        f"NAME_MAX ({NAME_MAX})")
    padding = inode.policy.padding
    size = max(length, FSCRYPT_FNAME_MIN_MSG_LEN)
    return min(-(-size // padding) * padding, NAME_MAX)


def encrypt_name(inode: FscryptInode, name) -> bytes:
    """The ciphertext a directory (``inode``) stores for ``name``."""
    raw = name.encode() if isinstance(name, str) else bytes(name)
    if not raw or raw in (b".", b"..") or b"/" in raw or b"\0" in raw:
        raise CryptoError(EINVAL, f"fscrypt: {raw!r} is not a name fscrypt encrypts "
                                  "(empty, '.', '..', or holding '/' or NUL)")
    size = encrypted_size(inode, len(raw))
    mode = inode.policy.filenames
    return inode.tfm(mode).encrypt(raw + bytes(size - len(raw)), inode.iv(mode, 0))


def decrypt_name(inode: FscryptInode, ciphertext) -> bytes:
    """The name stored as ``ciphertext``; EUCLEAN for a length no name has."""
    data = bytes(ciphertext)
    if not FSCRYPT_FNAME_MIN_MSG_LEN <= len(data) <= NAME_MAX:
        raise CryptoError(errno.EUCLEAN, f"fscrypt: {len(data)} bytes cannot be an encrypted "
                                         f"name ({FSCRYPT_FNAME_MIN_MSG_LEN} to {NAME_MAX})")
    mode = inode.policy.filenames
    plain = inode.tfm(mode).decrypt(data, inode.iv(mode, 0))
    end = plain.find(b"\0")
    return plain if end < 0 else plain[:end]


def nokey_name(ciphertext, dirhash: int = 0, minor_hash: int = 0) -> str:
    """The no-key name readdir presents for ``ciphertext`` (kernel 5.15+ form)."""
    data = bytes(ciphertext)
    if not FSCRYPT_FNAME_MIN_MSG_LEN <= len(data) <= NAME_MAX:
        raise CryptoError(errno.EUCLEAN, f"fscrypt: {len(data)} bytes cannot be an encrypted "
                                         f"name ({FSCRYPT_FNAME_MIN_MSG_LEN} to {NAME_MAX})")
    for h in (dirhash, minor_hash):
        if not isinstance(h, int) or not 0 <= h <= 0xFFFFFFFF:
            raise CryptoError(EINVAL, f"fscrypt: dirhash {h!r} is not a 32-bit number")
    raw = dirhash.to_bytes(4, "little") + minor_hash.to_bytes(4, "little")
    if len(data) <= NOKEY_BYTES:
        raw += data
    else:
        with crypto_alloc_shash("sha256") as tfm:
            raw += data[:NOKEY_BYTES] + tfm.digest(data[NOKEY_BYTES:])
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")
