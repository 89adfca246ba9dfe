"""aes-ce: AES with the ARMv8 Crypto Extensions (arch/arm64/crypto/aes-ce-glue.c, v5.0).

Module ``aes_ce_cipher``, priority 250, no crypto- aliases: the kernel
loads it at boot through module_cpu_feature_match(AES) (here
``MODULE_CPU_FEATURE``: the first module request loads it when the CPU has
the feature), and its init fails with ENODEV (nothing registered) on a CPU
without the AES feature.  As in
v5.0 it uses aes-arm64's exported routines, so loading it loads
``aes_arm64`` (``aes-arm64``) too.

setkey rejects lengths other than 16/24/32 with EINVAL, then expands the
key with AESE/AESIMC (core ``aes_ce``) inside one NEON section, without
asking whether SIMD is usable.  encrypt/decrypt: one NEON section per
16-byte block when SIMD is usable, else aes-arm64's scalar routine on the
same key schedule (both use the generic layout).
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.algs._aes_generic import ffi as gffi
from crypto_api.algs._aes_generic import lib as glib
from crypto_api.arch.arm64 import aes_cipher_glue as scalar
from crypto_api.arch.arm64 import neon_glue
from crypto_api.errors import EINVAL, CryptoError

MODULE_ARCH = "arm64"
MODULE_NAME = "aes_ce_cipher"
MODULE_ALIASES = ()                       # none: loaded at boot by CPU feature
MODULE_CPU_FEATURE = "aes"                # module_cpu_feature_match(AES, ...)
AES_BLOCK_SIZE = 16
ALGS = []
_core = None


def ce_aes_expandkey(ctx, key, driver: str) -> None:
    """The exported key expansion (aes-ce-glue.c's ce_aes_expandkey, which
    the kernel's aes-ce-blk modes use too): EINVAL unless 16/24/32 bytes,
    else ``ctx.aes`` (a struct crypto_aes_ctx) filled in one NEON section."""
    if len(key) not in (16, 24, 32):
        raise CryptoError(EINVAL, f"{driver}: key is {len(key)} bytes, expected 16, 24 or 32")
    aes = getattr(ctx, "aes", None)
    if aes is None:
        aes = ctx.aes = gffi.new("struct crypto_aes_ctx *")
    else:
        glib.crypto_memzero(aes, gffi.sizeof(aes[0]))
    neon_glue.neon_call(_core.aes_ce_expandkey, aes.key_enc, aes.key_dec, key, len(key))
    aes.key_length = len(key)


def make_alg() -> capi.CipherAlg:
    base = scalar.generic_schedule_alg("aes-ce", 250)
    enc, dec = _core.aes_ce_encrypt, _core.aes_ce_decrypt

    def setkey(tfm, key):
        ce_aes_expandkey(tfm.ctx, key, "aes-ce")

    def encrypt(tfm, dst, src):
        aes = tfm.ctx.aes
        if neon_glue.simd_usable():
            neon_glue.neon_call(enc, aes.key_enc, dst, src, scalar.rounds(aes), nbytes=AES_BLOCK_SIZE)
        else:
            scalar.aes_arm64_encrypt(aes, dst, src)

    def decrypt(tfm, dst, src):
        aes = tfm.ctx.aes
        if neon_glue.simd_usable():
            neon_glue.neon_call(dec, aes.key_dec, dst, src, scalar.rounds(aes), nbytes=AES_BLOCK_SIZE)
        else:
            scalar.aes_arm64_decrypt(aes, dst, src)

    return neon_glue.arm64_variant(base, setkey=setkey, encrypt=encrypt, decrypt=decrypt)


def module_init() -> None:
    global _core
    neon_glue.require_feature("aes", MODULE_NAME, "the AES crypto extension")
    _core = neon_glue.load_core("aes_ce")
    neon_glue.ensure_module(scalar.MODULE_NAME)
    ALGS[:] = [make_alg()]
    capi.crypto_register_cipher(ALGS[0])


def module_exit() -> None:
    capi.crypto_unregister_cipher(ALGS.pop())
