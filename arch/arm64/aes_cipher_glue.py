"""aes-arm64: scalar table AES for arm64 (arch/arm64/crypto/aes-cipher-glue.c).

Module ``aes_arm64``, priority 200, alias ``aes`` only (the kernel's module
has no ``aes-arm64`` alias); always registers (no CPU feature needed).
setkey is the generic AES key expansion; encrypt/decrypt run the core
``aes_arm64`` (one block per call, no SIMD section).  The block routines
are exported, as the kernel's __aes_arm64_encrypt/decrypt are: v5.0's
aes-ce falls back to them when SIMD is not usable.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.algs import aes_generic
from crypto_api.algs._aes_generic import ffi as gffi
from crypto_api.algs._aes_generic import lib as glib
from crypto_api.arch.arm64 import neon_glue

MODULE_ARCH = "arm64"
MODULE_NAME = "aes_arm64"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("aes")
ALGS = []
_core = None


def rounds(aes) -> int:
    """10, 12 or 14 for a struct crypto_aes_ctx."""
    return 6 + aes.key_length // 4


def aes_arm64_encrypt(aes, dst, src) -> None:
    _core.aes_arm64_encrypt(aes.key_enc, dst, src, rounds(aes))


def aes_arm64_decrypt(aes, dst, src) -> None:
    _core.aes_arm64_decrypt(aes.key_dec, dst, src, rounds(aes))


def generic_schedule_alg(driver: str, priority: int) -> capi.CipherAlg:
    """The generic AES descriptor under ``driver`` (its setkey fills
    ctx.aes, a struct crypto_aes_ctx; its cra_exit wipes it)."""
    return aes_generic.aes_cipher_alg(driver, priority, gffi, glib, "struct crypto_aes_ctx *",
                                      "aes_expandkey_generic", "aes_encrypt_generic", "aes_decrypt_generic")


def make_alg(core, driver: str = "aes-arm64") -> capi.CipherAlg:
    """The scalar AES cipher ``driver`` (priority 200) over ``core`` (its
    aes_arm64_encrypt/decrypt; the arm machine's aes-arm shares it)."""
    base = generic_schedule_alg(driver, 200)
    enc, dec = core.aes_arm64_encrypt, core.aes_arm64_decrypt

    def setkey(tfm, key):
        base.setkey(tfm, key)
        neon_glue.drop_c_entry(tfm.ctx, "c_block")

    return neon_glue.arm64_variant(
        base, setkey=setkey,
        encrypt=lambda tfm, dst, src: enc(tfm.ctx.aes.key_enc, dst, src, rounds(tfm.ctx.aes)),
        decrypt=lambda tfm, dst, src: dec(tfm.ctx.aes.key_dec, dst, src, rounds(tfm.ctx.aes)))


def module_init() -> None:
    global _core
    _core = neon_glue.load_core("aes_arm64")
    ALGS[:] = [make_alg(_core)]
    capi.crypto_register_cipher(ALGS[0])


def module_exit() -> None:
    capi.crypto_unregister_cipher(ALGS.pop())
