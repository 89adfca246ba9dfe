"""fscrypt IVs: fs/crypto/crypto.c's fscrypt_generate_iv().

The IV is the mode's IV size of zeros with, at its start, the data unit
index as a little-endian 64-bit number.  IV_INO_LBLK_64 puts the inode
number in the high 32 bits of that number (index and inode number each at
most 32 bits); IV_INO_LBLK_32 replaces the number with (hashed inode number
+ index) mod 2^32; DIRECT_KEY puts the file's 16-byte nonce after the
number.  Names use index 0 with the directory's inode.
"""

from __future__ import annotations

from typing import Optional

from ..errors import EINVAL, CryptoError
from .policy import (FSCRYPT_POLICY_FLAG_DIRECT_KEY, FSCRYPT_POLICY_FLAG_IV_INO_LBLK_32,
                     FSCRYPT_POLICY_FLAG_IV_INO_LBLK_64, Mode, Policy)

U32_MAX = 0xFFFFFFFF


def check_ino(policy: Policy, ino: Optional[int]) -> None:
    """IV_INO_LBLK_* policies need the inode number: 1 to 2^32-1 (the kernel's limit)."""
    if not policy.flags & (FSCRYPT_POLICY_FLAG_IV_INO_LBLK_64 | FSCRYPT_POLICY_FLAG_IV_INO_LBLK_32):
        return
    if ino is None or not isinstance(ino, int) or not 0 < ino <= U32_MAX:
        raise CryptoError(EINVAL, f"fscrypt: policy {policy.describe()}: needs the inode "
                                  f"number, 1 to {U32_MAX}; got {ino!r}")


def generate_iv(policy: Policy, mode: Mode, index: int, nonce: bytes,
                ino: Optional[int] = None, hashed_ino: Optional[int] = None) -> bytes:
    """The IV of data unit ``index`` (0 for a name) of an inode."""
    iv = bytearray(mode.ivsize)
    flag = policy.key_flag
    if flag & (FSCRYPT_POLICY_FLAG_IV_INO_LBLK_64 | FSCRYPT_POLICY_FLAG_IV_INO_LBLK_32):
        if index > U32_MAX:
            raise CryptoError(EINVAL, f"fscrypt: policy {policy.describe()}: data unit "
                                      f"{index} is past the 32-bit index these IVs hold")
        check_ino(policy, ino)
        if flag == FSCRYPT_POLICY_FLAG_IV_INO_LBLK_64:
            index |= ino << 32
        else:
            index = (hashed_ino + index) & U32_MAX
    elif flag == FSCRYPT_POLICY_FLAG_DIRECT_KEY:
        iv[8:24] = nonce
    iv[:8] = index.to_bytes(8, "little")
    return bytes(iv)
