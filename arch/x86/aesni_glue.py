"""aes-aesni: the AES single-block cipher with AES-NI (arch/x86/crypto/aesni-intel_glue.c).

Priority 300; module ``aesni_intel``; needs the AES-NI CPU feature.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.arch.x86.cpufeature import IS_X86, boot_cpu_has
from crypto_api.cinterface import address, function_address
from crypto_api.errors import EINVAL, CryptoError

MODULE_NAME = "aesni_intel"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("aes", "aes-aesni")
ALGS = []


def _make_alg() -> capi.CipherAlg:
    from crypto_api.arch.x86._aesni import ffi, lib
    from_buffer = ffi.from_buffer
    enc_addr = function_address(ffi, lib, "aesni_encrypt")
    dec_addr = function_address(ffi, lib, "aesni_decrypt")

    def setkey(tfm, key):
        ctx = tfm.ctx
        c = getattr(ctx, "aes", None)
        if c is None:
            c = ctx.aes = ffi.new("struct aesni_ctx *")
        else:
            lib.crypto_memzero(c, ffi.sizeof(c[0]))
        if lib.aesni_setkey(c, key, len(key)):
            raise CryptoError(EINVAL, f"aes-aesni: key is {len(key)} bytes, expected 16, 24 or 32")
        ctx.c_block = lambda: (enc_addr, dec_addr, address(ffi, c))

    def exit_(tfm):
        c = getattr(tfm.ctx, "aes", None)
        if c is not None:
            lib.crypto_memzero(c, ffi.sizeof(c[0]))

    def encrypt(tfm, dst, src):
        lib.aesni_encrypt(tfm.ctx.aes, from_buffer("uint8_t[]", dst, require_writable=True),
                          from_buffer("uint8_t[]", src))

    def decrypt(tfm, dst, src):
        lib.aesni_decrypt(tfm.ctx.aes, from_buffer("uint8_t[]", dst, require_writable=True),
                          from_buffer("uint8_t[]", src))

    return capi.CipherAlg(
        cra_name="aes", cra_driver_name="aes-aesni", cra_priority=300, cra_blocksize=16,
        min_keysize=16, max_keysize=32, setkey=setkey, encrypt=encrypt, decrypt=decrypt,
        cra_exit=exit_)


def module_init() -> None:
    capi.require_cpu(IS_X86 and boot_cpu_has("aes"), "aes-aesni", "the CPU lacks AES-NI")
    ALGS[:] = [_make_alg()]
    capi.crypto_register_cipher(ALGS[0])


def module_exit() -> None:
    capi.crypto_unregister_cipher(ALGS.pop())
