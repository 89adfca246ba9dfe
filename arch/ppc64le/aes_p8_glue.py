"""p8_aes: AES with the POWER8 vector-crypto instructions (drivers/crypto/vmx/aes.c;
arch/powerpc/crypto/aes.c from 6.8), registered by module ``vmx_crypto``
(arch/ppc64le/vmx.py).

Driver ``p8_aes``, priority 1000, flags CIPHER | NEED_FALLBACK, blocksize
16, keys 16/24/32.

tfm init allocates the fallback: the best "aes" without NEED_FALLBACK
(aes-generic here).  setkey expands the key in one VSX section (the
kernel also disables page faults there) and keys the fallback too.  Each
block: the fallback cipher when crypto_simd_usable() is false (5.2+; v5.0
asked in_interrupt()), else one VSX section around the one block.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.arch.ppc64le import vsx_glue
from crypto_api.errors import EINVAL, CryptoError

MODULE_NAME = "vmx_crypto"
AES_BLOCK_SIZE = 16
SCHEDULE_SIZE = 15 * AES_BLOCK_SIZE
_core = None


def set_core(core) -> None:
    """The ``aes_p8`` core, loaded by vmx.py's module_init."""
    global _core
    _core = core


def p8_aes_init(tfm) -> None:
    tfm.ctx.fallback = capi.crypto_alloc_cipher("aes", 0, capi.CRYPTO_ALG_NEED_FALLBACK)


def p8_aes_exit(tfm) -> None:
    ctx = tfm.ctx
    rk = getattr(ctx, "rk", None)
    if rk is not None:
        rk[:] = bytes(len(rk))
    fb = getattr(ctx, "fallback", None)
    if fb is not None:
        capi.crypto_free_cipher(fb)
        ctx.fallback = None


def p8_aes_setkey(tfm, key) -> None:
    if len(key) not in (16, 24, 32):
        raise CryptoError(EINVAL, f"p8_aes: key is {len(key)} bytes, expected 16, 24 or 32")
    ctx = tfm.ctx
    rk = bytearray(SCHEDULE_SIZE)
    rounds = vsx_glue.vsx_call(_core.aes_p8_expandkey, key, len(key), rk)
    capi.crypto_cipher_setkey(ctx.fallback, key)
    old = getattr(ctx, "rk", None)
    if old is not None:
        old[:] = bytes(len(old))
    ctx.rk, ctx.rounds = rk, rounds


def _block(tfm, dst, src, core_fn, fallback_fn) -> None:
    ctx = tfm.ctx
    if not vsx_glue.simd_usable():
        fallback_fn(ctx.fallback, dst, src)
        return
    vsx_glue.vsx_call(core_fn, ctx.rk, ctx.rounds, dst, src, nbytes=AES_BLOCK_SIZE)


def p8_aes_encrypt(tfm, dst, src) -> None:
    _block(tfm, dst, src, _core.aes_p8_encrypt, capi.crypto_cipher_encrypt_one)


def p8_aes_decrypt(tfm, dst, src) -> None:
    _block(tfm, dst, src, _core.aes_p8_decrypt, capi.crypto_cipher_decrypt_one)


def make_alg() -> capi.CipherAlg:
    return capi.CipherAlg(
        cra_name="aes", cra_driver_name="p8_aes", cra_priority=1000,
        cra_flags=capi.CRYPTO_ALG_NEED_FALLBACK, cra_blocksize=AES_BLOCK_SIZE,
        cra_module=MODULE_NAME, cra_init=p8_aes_init, cra_exit=p8_aes_exit,
        min_keysize=16, max_keysize=32,
        setkey=p8_aes_setkey, encrypt=p8_aes_encrypt, decrypt=p8_aes_decrypt)
