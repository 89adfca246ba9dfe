"""fscrypt offline: the on-disk encryption of ext4, f2fs and ubifs files and
names, computed in userspace from a policy, the master key and an inode's
nonce (and inode number, filesystem UUID where the policy uses them).

Mirrors fs/crypto/ (policy.c, keysetup.c, keysetup_v1.c, crypto.c, fname.c)
with the semantics of xfstests' src/fscrypt-crypt-util.c; every cipher and
hash comes from the registry.  Modules: :mod:`.policy` (modes, flags, the
kernel's rules), :mod:`.keys` (HKDF-SHA512 and v1 AES-ECB derivations, the
key identifier), :mod:`.ivs`, :mod:`.inode` (one inode's keys and IVs),
:mod:`.contents`, :mod:`.names`, :mod:`.siphash`.
"""

from .contents import (DEFAULT_DATA_UNIT_SIZE, check_data_unit_size, check_size, crypt_units,
                       decrypt_contents, encrypt_contents)
from .inode import FscryptInode
from .keys import derive_key, inode_hash, key_identifier
from .names import decrypt_name, encrypt_name, encrypted_size, nokey_name
from .policy import MODES, Mode, Policy, mode

__all__ = [
    "DEFAULT_DATA_UNIT_SIZE", "FscryptInode", "MODES", "Mode", "Policy", "check_data_unit_size",
    "check_size", "crypt_units", "decrypt_contents",
    "decrypt_name", "derive_key", "encrypt_contents", "encrypt_name", "encrypted_size",
    "inode_hash", "key_identifier", "mode", "nokey_name",
]
