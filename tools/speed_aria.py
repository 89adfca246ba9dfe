"""ARIA in the speed tool: the native ``openssl speed -evp aria-256-ctr``
(or ``-ecb``) reference, and targets that pin the x86 S-box code.

``cryptography`` and ``pycryptodome`` have no ARIA, so the peer is the
native openssl (``--openssl``), with a 256-bit key as the targets use
(speed_targets keys every skcipher with its largest key size).

A driver name with an S-box suffix, ``ctr-aria-avx@aesni`` or
``ecb-aria-avx2@gfni``, measures that driver's one-call path (the one
``tfm.encrypt`` takes where no FPU section is observed) with the named
S-box code, whatever its module chose at init: both variants of the AVX
and AVX2 drivers in the same run (the AES-NI one runs on a GFNI CPU too).
``--driver ctr-aria-avx`` alone measures the module's own choice.
"""

from __future__ import annotations

from functools import partial
from typing import Callable, Dict, List

import crypto_api as capi
from crypto_api.errors import EINVAL, ENODEV, ENOENT, CryptoError

from .speed_targets import Skip, Target, pattern

#: openssl EVP cipher beside the ARIA algorithms, by priority.
_OPENSSL = (("ctr(aria)", "aria-256-ctr"), ("ecb(aria)", "aria-256-ecb"))
SBOXES = ("aesni", "gfni")


def openssl_choice(cra_names: List[str]) -> Dict[str, object]:
    """openssl_speed() arguments for the algorithms measured: ARIA's EVP
    cipher when an ARIA mode is among them, else nothing (its default)."""
    for name, evp in _OPENSSL:
        if name in cra_names:
            return {"evp": evp, "relates": {name: "same"}}
    return {}


def is_sbox_target(name: str) -> bool:
    base, _, sbox = name.partition("@")
    return sbox in SBOXES and base.startswith(("ecb-aria-", "ctr-aria-"))


class SboxTarget(Target):
    """``<mode>-aria-<impl>@<sbox>``: the driver's one-call path with that S-box code."""

    def __init__(self, name: str, pinned: bool = True, into: bool = False) -> None:
        from crypto_api.arch.x86 import aria_glue
        from crypto_api.arch.x86.cpufeature import boot_cpu_has
        base, _, sbox = name.partition("@")
        mode, impl = base.split("-aria-")
        level = {"avx": 1, "avx2": 2, "avx512": 3}.get(impl)
        if level is None:
            raise CryptoError(EINVAL, f"{name}: no ARIA driver {base}")
        if sbox == "aesni" and level == 3:
            raise CryptoError(EINVAL, f"{name}: the AVX-512 driver has GFNI S-boxes only")
        if sbox == "gfni" and not boot_cpu_has("gfni"):
            raise CryptoError(ENODEV, f"{name}: the CPU lacks GFNI")
        super().__init__(base, pinned=True, into=into)
        self.name = name
        self.driver = f"{base} ({sbox} S-boxes)"
        self._impl = aria_glue.AriaImpl(impl, self.priority, level, sbox == "gfni")
        self._inner = self._keyed_alg(base)
        self._inner.setkey(self.key)
        self._mode = mode

    @staticmethod
    def _keyed_alg(base: str):
        """The algorithm that holds the key schedule: the internal one under the SIMD
        wrapper (6.1-6.15), the driver itself where it is registered directly (6.16+)."""
        try:
            return capi.crypto_alloc_skcipher("__" + base, capi.CRYPTO_ALG_INTERNAL,
                                              capi.CRYPTO_ALG_INTERNAL)
        except CryptoError as e:
            if e.errno != ENOENT:
                raise
        return capi.crypto_alloc_skcipher(base)

    def op(self, opname: str, size: int, tfm=None) -> Callable[[], object]:
        from crypto_api.arch.x86 import aria_glue
        if self._mode == "ecb" and size % 16:
            raise Skip(f"{self.name}: ECB takes whole 16-byte blocks")
        encrypt = opname == "encrypt" or self._mode == "ctr"
        mode = 2 if self._mode == "ctr" else (1 if encrypt else 0)
        fast = aria_glue._direct(self._impl, self._inner, mode, 16 if self._mode == "ctr" else 0)
        if fast is None:
            raise Skip(f"{self.name}: no direct path (crypto_api._direct_call is not built)")
        data = pattern(size, seed=size)
        fn = partial(fast, data, self.iv if self._mode == "ctr" else None,
                     bytearray(size) if self.into else None)
        if fn() is None:
            raise Skip(f"{self.name}: the one-call path declined {size} bytes")
        return fn

    def new_tfm(self):
        raise CryptoError(EINVAL, f"{self.name}: --threads measures drivers, not S-box pins")

    def free(self) -> None:
        self._inner.free()
        super().free()
