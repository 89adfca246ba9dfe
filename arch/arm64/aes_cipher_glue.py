"""aes-arm64: scalar table AES for arm64 (arch/arm64/crypto/aes-cipher-glue.c).

Module ``aes_arm64``, priority 200, alias ``aes`` only (the kernel's module
has no ``aes-arm64`` alias); always registers (no CPU feature needed).
setkey is the generic AES key expansion; encrypt/decrypt run the core
``aes_arm64`` (one block per call, no SIMD section).  The block routines
are exported, as the kernel's __aes_arm64_encrypt/decrypt are: v5.0's
aes-ce falls back to them (and to :func:`generic_schedule_alg`) when SIMD
is not usable.  The descriptor is the one the arm machine's aes-arm shares
(crypto_api.arch.common.aes_table).
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.arch.arm64 import neon_glue
from crypto_api.arch.common.aes_table import generic_schedule_alg, make_alg, rounds  # noqa: F401

MODULE_ARCH = "arm64"
MODULE_NAME = "aes_arm64"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("aes")
ALGS = []
_core = None


def aes_arm64_encrypt(aes, dst, src) -> None:
    _core.aes_arm64_encrypt(aes.key_enc, dst, src, rounds(aes))


def aes_arm64_decrypt(aes, dst, src) -> None:
    _core.aes_arm64_decrypt(aes.key_dec, dst, src, rounds(aes))


def module_init() -> None:
    global _core
    _core = neon_glue.load_core("aes_arm64")
    ALGS[:] = [make_alg(_core, "aes-arm64")]
    capi.crypto_register_cipher(ALGS[0])


def module_exit() -> None:
    capi.crypto_unregister_cipher(ALGS.pop())
