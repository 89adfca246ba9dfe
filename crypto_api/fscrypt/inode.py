"""One encrypted inode's crypto state: the role of struct fscrypt_inode_info
(fs/crypto/fscrypt_private.h) as fscrypt_setup_encryption_info() fills it.

:class:`FscryptInode` takes a policy, the master key, the inode's nonce and,
where the policy needs them, the inode number and the filesystem UUID; it
derives the contents and filenames keys (crypto_api.fscrypt.keys), keys one
skcipher per mode from the registry, and gives the IV of any data unit.
"""

from __future__ import annotations

from typing import Optional

from ..errors import EINVAL, CryptoError
from ..skcipher import CryptoSkcipher, crypto_alloc_skcipher
from .ivs import check_ino, generate_iv
from .keys import FSCRYPT_FILE_NONCE_SIZE, fixed_bytes, derive_key, inode_hash
from .policy import FSCRYPT_POLICY_FLAG_IV_INO_LBLK_32, Mode, Policy


class FscryptInode:
    """The keys and IVs of one inode (a regular file's contents, a directory's names)."""

    def __init__(self, policy: Policy, master_key, nonce, ino: Optional[int] = None,
                 fs_uuid=None) -> None:
        self.policy = policy.check()
        self.nonce = fixed_bytes(nonce, FSCRYPT_FILE_NONCE_SIZE, "the nonce")
        check_ino(policy, ino)
        self.ino = ino
        self._master_key = bytearray(master_key)
        self._fs_uuid = fs_uuid
        self.hashed_ino = None
        if policy.flags & FSCRYPT_POLICY_FLAG_IV_INO_LBLK_32:
            self.hashed_ino = inode_hash(self._master_key, ino)
        self._tfms = {}

    def tfm(self, mode: Mode) -> CryptoSkcipher:
        """The mode's skcipher, keyed with this inode's key for it (allocated once)."""
        tfm = self._tfms.get(mode.number)
        if tfm is None:
            key = bytearray(derive_key(self.policy, self._master_key, mode, self.nonce,
                                       self._fs_uuid))
            tfm = crypto_alloc_skcipher(mode.cipher)
            try:
                tfm.setkey(key)
            except CryptoError:
                tfm.free()
                raise
            finally:
                key[:] = bytes(len(key))
            self._tfms[mode.number] = tfm
        return tfm

    def iv(self, mode: Mode, index: int) -> bytes:
        if not isinstance(index, int) or index < 0:
            raise CryptoError(EINVAL, f"fscrypt: data unit index {index!r} is not a "
                                      "non-negative number")
        return generate_iv(self.policy, mode, index, self.nonce, self.ino, self.hashed_ino)

    def close(self) -> None:
        for tfm in self._tfms.values():
            tfm.free()
        self._tfms.clear()
        self._master_key[:] = bytes(len(self._master_key))

    def __enter__(self) -> "FscryptInode":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
