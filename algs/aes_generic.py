"""AES generic single-block cipher (crypto/aes_generic.c).

``aes-generic`` (priority 100): 16-, 24- or 32-byte keys, one 16-byte block
per call, on the portable C core.
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
_from_buffer = ffi.from_buffer


def aes_setkey(tfm, key: bytes) -> None:
    ctx = tfm.ctx
    c = getattr(ctx, "aes", None)
    if c is None:
        c = ctx.aes = ffi.new("struct crypto_aes_ctx *")
    else:
        lib.crypto_memzero(c, ffi.sizeof(c[0]))
    if lib.aes_expandkey_generic(c, key, len(key)):
        raise CryptoError(EINVAL, f"aes-generic: key is {len(key)} bytes, expected 16, 24 or 32")
    ctx.c_block = lambda: (_ENC, _DEC, address(ffi, c))


_ENC = function_address(ffi, lib, "aes_encrypt_generic")
_DEC = function_address(ffi, lib, "aes_decrypt_generic")


def aes_exit(tfm) -> None:
    c = getattr(tfm.ctx, "aes", None)
    if c is not None:
        lib.crypto_memzero(c, ffi.sizeof(c[0]))


def aes_encrypt(tfm, dst, src) -> None:
    lib.aes_encrypt_generic(tfm.ctx.aes, _from_buffer("uint8_t[]", dst, require_writable=True),
                            _from_buffer("uint8_t[]", src))


def aes_decrypt(tfm, dst, src) -> None:
    lib.aes_decrypt_generic(tfm.ctx.aes, _from_buffer("uint8_t[]", dst, require_writable=True),
                            _from_buffer("uint8_t[]", src))


ALG = capi.CipherAlg(
    cra_name="aes", cra_driver_name="aes-generic", cra_priority=100,
    cra_blocksize=AES_BLOCK_SIZE, min_keysize=AES_MIN_KEY_SIZE, max_keysize=AES_MAX_KEY_SIZE,
    setkey=aes_setkey, encrypt=aes_encrypt, decrypt=aes_decrypt, cra_exit=aes_exit)


def module_init() -> None:
    capi.crypto_register_cipher(ALG)


def module_exit() -> None:
    capi.crypto_unregister_cipher(ALG)
