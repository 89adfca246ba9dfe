"""AES generic single-block cipher (crypto/aes_generic.c).

``aes-generic`` (priority 100): 16-, 24- or 32-byte keys, one 16-byte block
per call, on the portable C core.  :func:`aes_cipher_alg` builds the
descriptor for any AES C core with the same shape of entry points; the AES-NI
glue uses it too.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.algs._aes_generic import ffi, lib
from crypto_api.cinterface import address, function_address
from crypto_api.errors import EINVAL, CryptoError

MODULE_NAME = "aes_generic"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("aes", "aes-generic")

AES_BLOCK_SIZE = 16
AES_MIN_KEY_SIZE = 16
AES_MAX_KEY_SIZE = 32


def aes_cipher_alg(driver: str, priority: int, ffi, lib, ctx_type: str, expandkey: str,
                   encrypt: str, decrypt: str, module: str = None) -> capi.CipherAlg:
    """An ``aes`` cipher descriptor over a C core: ``expandkey(ctx, key, len)``
    returns 0 or -EINVAL, ``encrypt/decrypt(ctx, out, in)`` do one block."""
    from_buffer = ffi.from_buffer
    expand_fn, enc_fn, dec_fn = getattr(lib, expandkey), getattr(lib, encrypt), getattr(lib, decrypt)
    enc_addr = function_address(ffi, lib, encrypt)
    dec_addr = function_address(ffi, lib, decrypt)

    def setkey(tfm, key):
        ctx = tfm.ctx
        c = getattr(ctx, "aes", None)
        if c is None:
            c = ctx.aes = ffi.new(ctx_type)
        else:
            lib.crypto_memzero(c, ffi.sizeof(c[0]))
        if expand_fn(c, key, len(key)):
            raise CryptoError(EINVAL, f"{driver}: key is {len(key)} bytes, expected 16, 24 or 32")
        ctx.c_block = lambda: (enc_addr, dec_addr, address(ffi, c))

    def exit_(tfm):
        c = getattr(tfm.ctx, "aes", None)
        if c is not None:
            lib.crypto_memzero(c, ffi.sizeof(c[0]))

    def enc(tfm, dst, src):
        enc_fn(tfm.ctx.aes, from_buffer("uint8_t[]", dst, require_writable=True), from_buffer("uint8_t[]", src))

    def dec(tfm, dst, src):
        dec_fn(tfm.ctx.aes, from_buffer("uint8_t[]", dst, require_writable=True), from_buffer("uint8_t[]", src))

    return capi.CipherAlg(
        cra_name="aes", cra_driver_name=driver, cra_priority=priority, cra_module=module,
        cra_blocksize=AES_BLOCK_SIZE, min_keysize=AES_MIN_KEY_SIZE, max_keysize=AES_MAX_KEY_SIZE,
        setkey=setkey, encrypt=enc, decrypt=dec, cra_exit=exit_)


ALG = aes_cipher_alg("aes-generic", 100, ffi, lib, "struct crypto_aes_ctx *",
                     "aes_expandkey_generic", "aes_encrypt_generic", "aes_decrypt_generic")


def module_init() -> None:
    capi.crypto_register_cipher(ALG)


def module_exit() -> None:
    capi.crypto_unregister_cipher(ALG)
