"""fscrypt encryption policies: the modes by number, the flags, and the
kernel's rules for which combinations it accepts (fs/crypto/policy.c,
fs/crypto/keysetup.c's mode table; include/uapi/linux/fscrypt.h's numbers).

A :class:`Policy` is what ``FS_IOC_SET_ENCRYPTION_POLICY`` takes: a version
(1 or 2), a contents mode, a filenames mode and flags.  :meth:`Policy.parse`
reads the compact spelling the command line uses,
``VERSION:CONTENTS:FILENAMES[:FLAG,FLAG...]`` (``v2:1:4:pad32``), and
:meth:`Policy.check` refuses, with the kernel's EINVAL, every policy
``fscrypt_supported_policy()`` would refuse.
"""

from __future__ import annotations

from typing import Dict, Tuple

import attrs

from ..errors import EINVAL, CryptoError

# Flag bits of fscrypt_policy_v1/v2.flags.
FSCRYPT_POLICY_FLAGS_PAD_4 = 0x00
FSCRYPT_POLICY_FLAGS_PAD_8 = 0x01
FSCRYPT_POLICY_FLAGS_PAD_16 = 0x02
FSCRYPT_POLICY_FLAGS_PAD_32 = 0x03
FSCRYPT_POLICY_FLAGS_PAD_MASK = 0x03
FSCRYPT_POLICY_FLAG_DIRECT_KEY = 0x04
FSCRYPT_POLICY_FLAG_IV_INO_LBLK_64 = 0x08
FSCRYPT_POLICY_FLAG_IV_INO_LBLK_32 = 0x10

#: The flags that choose how the key is derived (at most one of them).
KEY_FLAGS = (FSCRYPT_POLICY_FLAG_DIRECT_KEY | FSCRYPT_POLICY_FLAG_IV_INO_LBLK_64
             | FSCRYPT_POLICY_FLAG_IV_INO_LBLK_32)
_V1_FLAGS = FSCRYPT_POLICY_FLAGS_PAD_MASK | FSCRYPT_POLICY_FLAG_DIRECT_KEY
_V2_FLAGS = FSCRYPT_POLICY_FLAGS_PAD_MASK | KEY_FLAGS

#: Flag names for :meth:`Policy.parse` and :meth:`Policy.describe`.
FLAG_NAMES: Dict[str, int] = {
    "direct_key": FSCRYPT_POLICY_FLAG_DIRECT_KEY,
    "iv_ino_lblk_64": FSCRYPT_POLICY_FLAG_IV_INO_LBLK_64,
    "iv_ino_lblk_32": FSCRYPT_POLICY_FLAG_IV_INO_LBLK_32,
}
PAD_NAMES: Dict[str, int] = {"pad4": 0, "pad8": 1, "pad16": 2, "pad32": 3}

#: The IV is a little-endian 64-bit index followed by the 16-byte nonce
#: (union fscrypt_iv): DIRECT_KEY needs a mode whose IV holds both.
DIRECT_KEY_MIN_IVSIZE = 8 + 16


@attrs.frozen
class Mode:
    """One fscrypt encryption mode: its number, the kernel's friendly name,
    the crypto API algorithm, the key size, the security strength (the least
    v2 master key size) and the IV size."""

    number: int
    name: str
    cipher: str
    keysize: int
    security_strength: int
    ivsize: int


#: The modes this userspace API can run (SM4-XTS 7 and SM4-CTS-CBC 8 need an
#: sm4 cipher, which is not registered here; 2 and 3 were never usable).
MODES: Dict[int, Mode] = {m.number: m for m in (
    Mode(1, "AES-256-XTS", "xts(aes)", 64, 32, 16),
    Mode(4, "AES-256-CTS-CBC", "cts(cbc(aes))", 32, 32, 16),
    Mode(5, "AES-128-CBC-ESSIV", "essiv(cbc(aes),sha256)", 16, 16, 16),
    Mode(6, "AES-128-CTS-CBC", "cts(cbc(aes))", 16, 16, 16),
    Mode(9, "Adiantum", "adiantum(xchacha12,aes)", 32, 32, 32),
    Mode(10, "AES-256-HCTR2", "hctr2(aes)", 32, 32, 32),
)}
_KNOWN_UNAVAILABLE = {7: "SM4-XTS", 8: "SM4-CTS-CBC"}

#: (contents, filenames) pairs a v1 policy may use; v2 adds AES-256-XTS with
#: AES-256-HCTR2 (fscrypt_valid_enc_modes_v1/_v2).
_V1_PAIRS: Tuple[Tuple[int, int], ...] = ((1, 4), (5, 6), (9, 9))
_V2_PAIRS: Tuple[Tuple[int, int], ...] = _V1_PAIRS + ((1, 10),)
_FILENAMES_ONLY = (4, 6, 10)


def mode(number: int) -> Mode:
    """The mode of that number; EINVAL naming it when there is none here."""
    found = MODES.get(number)
    if found is not None:
        return found
    if number in _KNOWN_UNAVAILABLE:
        raise CryptoError(EINVAL, f"fscrypt: mode {number} ({_KNOWN_UNAVAILABLE[number]}) needs "
                                  "sm4, which this API does not provide")
    raise CryptoError(EINVAL, f"fscrypt: unknown encryption mode number {number!r} "
                              f"(known: {', '.join(map(str, sorted(MODES)))})")


def _refuse(policy: "Policy", why: str) -> CryptoError:
    return CryptoError(EINVAL, f"fscrypt: policy {policy.describe()}: {why}")


@attrs.frozen
class Policy:
    """An fscrypt policy (struct fscrypt_policy_v1 / fscrypt_policy_v2)."""

    version: int
    contents_mode: int
    filenames_mode: int
    flags: int = 0

    @property
    def contents(self) -> Mode:
        return mode(self.contents_mode)

    @property
    def filenames(self) -> Mode:
        return mode(self.filenames_mode)

    @property
    def padding(self) -> int:
        """The filenames padding: 4, 8, 16 or 32 bytes."""
        return 4 << (self.flags & FSCRYPT_POLICY_FLAGS_PAD_MASK)

    @property
    def key_flag(self) -> int:
        """The key-derivation flag set (DIRECT_KEY or an IV_INO_LBLK one), or 0."""
        return self.flags & KEY_FLAGS

    def describe(self) -> str:
        """The compact spelling :meth:`parse` reads."""
        if not isinstance(self.flags, int):
            return f"v{self.version}:{self.contents_mode}:{self.filenames_mode}:{self.flags!r}"
        names = [f"pad{self.padding}"] + [n for n, bit in FLAG_NAMES.items() if self.flags & bit]
        if self.flags & ~_V2_FLAGS:
            names.append(hex(self.flags & ~_V2_FLAGS))
        return f"v{self.version}:{self.contents_mode}:{self.filenames_mode}:{','.join(names)}"

    @classmethod
    def parse(cls, spec: str) -> "Policy":
        """``VERSION:CONTENTS:FILENAMES[:FLAGS]``: version ``v1``/``v2`` (or 1/2),
        mode numbers, then flags separated by commas: ``pad4``..``pad32``,
        ``direct_key``, ``iv_ino_lblk_64``, ``iv_ino_lblk_32`` or a number.
        The result is checked (:meth:`check`)."""
        parts = str(spec).split(":")
        if len(parts) not in (3, 4):
            raise CryptoError(EINVAL, f"fscrypt: policy {spec!r}: expected "
                                      "VERSION:CONTENTS:FILENAMES[:FLAG,...], e.g. v2:1:4:pad32")
        try:
            version = int(parts[0][1:] if parts[0][:1] in "vV" else parts[0])
            contents, filenames = int(parts[1]), int(parts[2])
        except ValueError:
            raise CryptoError(EINVAL, f"fscrypt: policy {spec!r}: the version and the two "
                                      "mode numbers must be numbers") from None
        flags = 0
        for word in (parts[3].split(",") if len(parts) == 4 and parts[3] else []):
            word = word.strip().lower()
            if word in PAD_NAMES:
                flags = (flags & ~FSCRYPT_POLICY_FLAGS_PAD_MASK) | PAD_NAMES[word]
            elif word in FLAG_NAMES:
                flags |= FLAG_NAMES[word]
            else:
                try:
                    flags |= int(word, 0)
                except ValueError:
                    raise CryptoError(EINVAL, f"fscrypt: policy {spec!r}: unknown flag {word!r} "
                                              f"(known: {', '.join([*PAD_NAMES, *FLAG_NAMES])})"
                                      ) from None
        return cls(version, contents, filenames, flags).check()

    def check(self) -> "Policy":
        """Self, when the kernel would accept this policy; EINVAL naming what it refuses."""
        if self.version not in (1, 2):
            raise _refuse(self, f"version {self.version!r}: fscrypt has versions 1 and 2")
        contents, filenames = self.contents, self.filenames
        if not isinstance(self.flags, int) or self.flags < 0:
            raise _refuse(self, f"flags {self.flags!r} are not a flag set")
        allowed = _V1_FLAGS if self.version == 1 else _V2_FLAGS
        if self.flags & ~allowed:
            raise _refuse(self, f"flags {self.flags & ~allowed:#x} are not valid "
                                f"in a v{self.version} policy")
        if contents.number in _FILENAMES_ONLY:
            raise _refuse(self, f"{contents.name} encrypts filenames only, not contents")
        pairs = _V1_PAIRS if self.version == 1 else _V2_PAIRS
        if (contents.number, filenames.number) not in pairs:
            raise _refuse(self, f"contents {contents.name} with filenames {filenames.name} "
                                f"is not a valid v{self.version} combination (allowed: "
                                + ", ".join(f"{c}/{f}" for c, f in pairs) + ")")
        key_flags = [n for n, bit in FLAG_NAMES.items() if self.flags & bit]
        if len(key_flags) > 1:
            raise _refuse(self, f"{' and '.join(key_flags)} are mutually exclusive")
        if self.flags & FSCRYPT_POLICY_FLAG_DIRECT_KEY:
            if contents.number != filenames.number:
                raise _refuse(self, "direct_key needs the same contents and filenames mode")
            if contents.ivsize < DIRECT_KEY_MIN_IVSIZE:
                raise _refuse(self, f"direct_key needs a mode whose IV holds the nonce; "
                                    f"{contents.name}'s is {contents.ivsize} bytes")
        if self.flags & (FSCRYPT_POLICY_FLAG_IV_INO_LBLK_64 | FSCRYPT_POLICY_FLAG_IV_INO_LBLK_32):
            if contents.number != 1:
                raise _refuse(self, f"{key_flags[0]} is allowed only with AES-256-XTS contents, "
                                    f"not {contents.name}")
        return self
