"""What the speed tool measures on crypto_api: a name resolved to a transform.

A name is allocated as a skcipher, else an AEAD, else a shash, else a
single-block cipher (the first type that has it), through the public API as
any user would.
Each operation is one public call: ``tfm.encrypt(data, iv)`` /
``tfm.decrypt(data, iv)`` for a skcipher (with ``into``:
``tfm.encrypt(data, iv, out=buf)`` into one preallocated buffer, as openssl
speed, tcrypt and bench-slope reuse theirs), ``tfm.digest(data)`` for a shash
and ``tfm.encrypt_one(block)`` / ``tfm.decrypt_one(block)`` for a cipher,
which is measured at its block size only (one block per call, whatever the
sizes asked for).  An AEAD does ``tfm.encrypt(data, iv, assoc)`` with
:data:`AEAD_ASSOC_LEN` bytes of associated data (as an ESP header), and
``tfm.decrypt(ct_tag, iv, assoc)`` of what that encryption gave (a size N
decrypts N bytes of text plus the tag, verified each call).

A ``--driver`` name pins the implementation: it must resolve to that driver
(or, for a template instance named with driver names, to an instance built
on them), and an algorithm name given as ``--driver`` is refused.

A size the algorithm refuses is skipped with the algorithm's own reason:
Adiantum takes at least 16 bytes, and the v5.0 ``poly1305`` shash takes its
one-time key r‖s from the first 32 bytes hashed, so a ``poly1305`` size N
hashes N bytes of which the first 32 are that key (sizes below 32 skipped),
as tcrypt's Poly1305 speed templates count the key in the block length.
"""

from __future__ import annotations

import re
from functools import partial
from typing import Callable, List, Optional, Tuple

import crypto_api as capi
from crypto_api import modules
from crypto_api.errors import EINVAL, ENOENT, CryptoError

#: The default set of ``speed``: Adiantum, its parts and chacha20.
DEFAULT_ALGS = ("adiantum(xchacha12,aes)", "adiantum(xchacha20,aes)", "xchacha12", "xchacha20",
                "chacha20", "nhpoly1305", "poly1305", "aes")

#: Key lengths tried, in order, on a keyed shash (which declares no key size).
SHASH_KEY_SIZES = {"nhpoly1305": 1088}
SHASH_KEY_PROBE = (32, 16, 64, 1088, 24, 48)
#: Key lengths tried, in order, on an AEAD (rfc7539: 32, rfc7539esp: 32 + 4-byte salt).
AEAD_KEY_PROBE = (32, 36, 16, 24, 20, 28)
#: Associated data per AEAD message (an ESP header's SPI and sequence number).
AEAD_ASSOC_LEN = 8


class Skip(Exception):
    """This size cannot be measured on this target (the reason is the message)."""


def pattern(n: int, seed: int = 0) -> bytes:
    """``n`` bytes of a fixed, non-constant pattern (contents do not change speed)."""
    base = bytes((i * 167 + 13 + seed) & 0xFF for i in range(256))
    return (base * (n // 256 + 1))[:n]


#: Type -> allocator, in the order a name is tried.
_ALLOCATORS = {"skcipher": capi.crypto_alloc_skcipher, "aead": capi.crypto_alloc_aead,
               "shash": capi.crypto_alloc_shash, "cipher": capi.crypto_alloc_cipher}


def _alloc_any(name: str):
    """(tfm, type) for the first of skcipher, aead, shash, cipher that has ``name``."""
    first = None
    for kind, alloc in _ALLOCATORS.items():
        try:
            return alloc(name), kind
        except CryptoError as e:
            # an unknown name is ENOENT; a template instance of another type EINVAL
            if e.errno == EINVAL and "not the type" in e.message:
                first = first or e
                continue
            if e.errno != ENOENT:
                raise
    if first is not None:
        raise first
    raise CryptoError(ENOENT, f"{name}: no skcipher, aead, shash or cipher of that name "
                              "(`crypto-api list` shows what is registered)")


class Target:
    """One crypto_api transform under test (``kind`` "ours")."""

    kind = "ours"

    def __init__(self, name: str, pinned: bool = False, into: bool = False) -> None:
        self.name = name
        self.pinned = pinned
        self.tfm, self.type = _alloc_any(name)
        alg = self.tfm.alg
        self.driver = self.tfm.driver_name
        emu = modules.emulated_drivers()
        self.emulated = any(part in emu for part in re.split(r"[(),]", self.driver))
        self.cra_name = alg.cra_name
        self.priority = alg.cra_priority
        try:
            if pinned and name == self.cra_name and name != self.driver:
                raise CryptoError(EINVAL, f"--driver {name}: that is an algorithm name (it resolves "
                                          f"to {self.driver}); give a driver name such as {self.driver}")
            self.key = self._key(self.tfm)
        except BaseException:
            self.tfm.free()
            raise
        self.into = into and self.type == "skcipher"
        self.ops: Tuple[str, ...] = ("digest",) if self.type == "shash" else ("encrypt", "decrypt")
        self.iv = pattern(getattr(self.tfm, "ivsize", 0), seed=7)

    @property
    def id(self) -> str:
        return self.name

    @property
    def block_only(self) -> bool:
        return self.type == "cipher"

    def describe(self) -> dict:
        return {"id": self.id, "kind": self.kind, "name": self.name, "driver": self.driver,
                "cra_name": self.cra_name, "type": self.type, "priority": self.priority,
                "pinned": self.pinned, "ops": list(self.ops), "into": self.into,
                "emulated": self.emulated}

    def _key(self, tfm) -> Optional[bytes]:
        if self.type in ("skcipher", "cipher"):
            key = pattern(tfm.max_keysize, seed=1)
            tfm.setkey(key)
            return key
        if self.type == "shash" and tfm.alg.setkey is None:
            return None
        if self.type == "aead":
            sizes = AEAD_KEY_PROBE
        elif self.cra_name in SHASH_KEY_SIZES:
            sizes = (SHASH_KEY_SIZES[self.cra_name],)
        else:
            sizes = SHASH_KEY_PROBE
        last = None
        for n in sizes:
            key = pattern(n, seed=1)
            try:
                tfm.setkey(key)
                return key
            except CryptoError as e:
                if e.errno != EINVAL:
                    raise
                last = e
        raise CryptoError(EINVAL, f"{self.driver}: no key length among {list(sizes)} accepted ({last})")

    def sizes(self, sizes: List[int]) -> List[int]:
        """The sizes this target is measured at (a cipher: its block size only)."""
        return [self.tfm.blocksize] if self.block_only else list(sizes)

    def new_tfm(self):
        """Another transform of the same driver, keyed the same (one per thread)."""
        tfm = _ALLOCATORS[self.type](self.driver)
        if self.key is not None:
            tfm.setkey(self.key)
        return tfm

    def op(self, opname: str, size: int, tfm=None) -> Callable[[], object]:
        """A no-argument callable doing one ``opname`` of ``size`` bytes (tried once)."""
        tfm = self.tfm if tfm is None else tfm
        data = pattern(size, seed=size)
        if self.type == "skcipher":
            call = tfm.encrypt if opname == "encrypt" else tfm.decrypt
            fn = partial(call, data, self.iv, bytearray(size)) if self.into else partial(call, data, self.iv)
        elif self.type == "aead":
            assoc = pattern(AEAD_ASSOC_LEN, seed=5)
            if opname == "decrypt":
                try:
                    data = tfm.encrypt(data, self.iv, assoc)
                except CryptoError as e:
                    raise Skip(e.message) from None
            fn = partial(tfm.encrypt if opname == "encrypt" else tfm.decrypt, data, self.iv, assoc)
        elif self.type == "shash":
            fn = partial(tfm.digest, data)
        else:
            fn = partial(tfm.encrypt_one if opname == "encrypt" else tfm.decrypt_one, data)
        try:
            fn()
        except CryptoError as e:
            raise Skip(e.message) from None
        return fn

    def free(self) -> None:
        self.tfm.free()


def drivers_of(name: str) -> List[str]:
    """Every registered, not internal driver whose cra_name is ``name`` (its
    modules loaded first), highest priority first."""
    capi.load_all()
    found = [a for a in capi.registry.snapshot()
             if a.cra_name == name and not a.is_larval and not a.cra_flags & capi.CRYPTO_ALG_INTERNAL]
    return [a.cra_driver_name for a in sorted(found, key=lambda a: -a.cra_priority)]
