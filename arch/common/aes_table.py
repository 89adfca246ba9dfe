"""The scalar table AES cipher's glue, shared by arm64's aes-arm64 and arm's aes-arm.

arch/arm64/crypto/aes-cipher-glue.c and arch/arm/crypto/aes-cipher-glue.c:
setkey is the generic AES key expansion (a struct crypto_aes_ctx in
ctx.aes); encrypt/decrypt run the core's aes_arm64_encrypt/decrypt
(arch/common/aes_arm64.c built for the machine) one block per call, in no
SIMD section.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.algs import aes_generic
from crypto_api.algs._aes_generic import ffi as gffi
from crypto_api.algs._aes_generic import lib as glib
from crypto_api.arch.common import glue


def rounds(aes) -> int:
    """10, 12 or 14 for a struct crypto_aes_ctx."""
    return 6 + aes.key_length // 4


def generic_schedule_alg(driver: str, priority: int) -> capi.CipherAlg:
    """The generic AES descriptor under ``driver`` (its setkey fills
    ctx.aes, a struct crypto_aes_ctx; its cra_exit wipes it)."""
    return aes_generic.aes_cipher_alg(driver, priority, gffi, glib, "struct crypto_aes_ctx *",
                                      "aes_expandkey_generic", "aes_encrypt_generic", "aes_decrypt_generic")


def make_alg(core, driver: str) -> capi.CipherAlg:
    """The scalar AES cipher ``driver`` (priority 200) over ``core`` (its
    aes_arm64_encrypt/decrypt)."""
    base = generic_schedule_alg(driver, 200)
    enc, dec = core.aes_arm64_encrypt, core.aes_arm64_decrypt
    return glue.request_path_variant(
        base,
        encrypt=lambda tfm, dst, src: enc(tfm.ctx.aes.key_enc, dst, src, rounds(tfm.ctx.aes)),
        decrypt=lambda tfm, dst, src: dec(tfm.ctx.aes.key_dec, dst, src, rounds(tfm.ctx.aes)))
