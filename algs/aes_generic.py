"""AES generic single-block cipher (crypto/aes_generic.c).

``aes-generic`` (priority 100): 16-, 24- or 32-byte keys, one 16-byte block
per call, on the portable C core.  :func:`aes_cipher_alg` builds the
descriptor for any AES C core with the same shape of entry points; the AES-NI
glue uses it too.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.algs._aes_generic import ffi, lib
from crypto_api.cinterface import BlockEntries, Kind, Offer
from crypto_api.errors import EINVAL, CryptoError
from crypto_api.fpu import GENERIC
from crypto_api.fpu import simd_choice as _simd_choice
from crypto_api.direct import digest_direct

MODULE_NAME = "aes_generic"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("aes", "aes-generic")

AES_BLOCK_SIZE = 16
AES_MIN_KEY_SIZE = 16
AES_MAX_KEY_SIZE = 32


def aes_cipher_alg(driver: str, priority: int, ffi, lib, ctx_type: str, expandkey: str,
                   encrypt: str, decrypt: str, module: str = None, simd: bool = False) -> capi.CipherAlg:
    """An ``aes`` cipher descriptor over a C core: ``expandkey(ctx, key, len)``
    returns 0 or -EINVAL, ``encrypt/decrypt(ctx, out, in)`` do one block.

    ``simd=True`` (AES-NI): each block runs inside kernel_fpu_begin/end, and
    the generic code (with its own key schedule) runs when
    crypto_simd_usable() is false, as the kernel's aesni glue does.
    """
    from_buffer = ffi.from_buffer
    expand_fn, enc_fn, dec_fn = getattr(lib, expandkey), getattr(lib, encrypt), getattr(lib, decrypt)
    enc_addr = ffi.addressof(lib, encrypt)
    dec_addr = ffi.addressof(lib, decrypt)

    def setkey(tfm, key):
        ctx = tfm.ctx
        c = getattr(ctx, "aes", None)
        if c is None:
            c = ctx.aes = ffi.new(ctx_type)
        else:
            lib.crypto_memzero(c, ffi.sizeof(c[0]))
        if expand_fn(c, from_buffer("uint8_t[]", key), len(key)):
            raise CryptoError(EINVAL, f"{driver}: key is {len(key)} bytes, expected 16, 24 or 32")
        if simd:
            ctx.aes_fallback = _generic_schedule(ctx, key)

    def block_entries(tfm, use_simd: bool) -> BlockEntries:
        """The BLOCK offer: this core's routines, or with ``simd`` (AES-NI)
        and no SIMD allowed the generic ones on the generic key schedule."""
        ctx = tfm.ctx
        if simd and not use_simd:
            return BlockEntries(encrypt=_GENERIC_ENC, decrypt=_GENERIC_DEC, key=ctx.aes_fallback)
        return BlockEntries(encrypt=enc_addr, decrypt=dec_addr, key=ctx.aes)

    def exit_(tfm):
        for name in ("aes", "aes_fallback"):
            c = getattr(tfm.ctx, name, None)
            if c is not None:
                lib.crypto_memzero(c, ffi.sizeof(c[0]))

    def one(fn, generic_fn, tfm, dst, src):
        d = from_buffer("uint8_t[]", dst, require_writable=True)
        if not simd:
            fn(tfm.ctx.aes, d, from_buffer("uint8_t[]", src))
        elif _simd_choice() != GENERIC:     # SIMD, or DECLINE: the section a trace records
            capi.kernel_fpu_begin()
            try:
                fn(tfm.ctx.aes, d, from_buffer("uint8_t[]", src))
                capi.fpu_account(AES_BLOCK_SIZE)
            finally:
                capi.kernel_fpu_end()
        else:
            generic_fn(tfm.ctx.aes_fallback, _gffi.from_buffer("uint8_t[]", dst, require_writable=True),
                       _gffi.from_buffer("uint8_t[]", src))

    def enc(tfm, dst, src):
        one(enc_fn, lib_generic.aes_encrypt_generic, tfm, dst, src)

    def dec(tfm, dst, src):
        one(dec_fn, lib_generic.aes_decrypt_generic, tfm, dst, src)

    def direct(tfm, encrypt):
        """encrypt_one/decrypt_one in one C call for a block in any
        C-contiguous buffer (exported while C reads it): the SIMD
        core when fpu.simd_choice() says SIMD (declining while a trace
        records, so the real section shows), else the generic one.  The C
        entry point (crypto_api.direct.digest_direct); None where it is not built."""
        main_e, gen_e = block_entries(tfm, True), block_entries(tfm, False)
        fn, generic_fn, fn_ctx, generic_ctx = _direct_ops(main_e, gen_e, encrypt)
        main_handle = _gffi.new("struct aes_block_call *", {"fn": fn, "ctx": fn_ctx})
        generic_handle = _gffi.new("struct aes_block_call *", {"fn": generic_fn, "ctx": generic_ctx}) \
            if simd else main_handle
        owners = (main_e.key, gen_e.key)    # what the contexts live in
        return digest_direct(_BLOCK_CALL, generic_handle, main_handle, AES_BLOCK_SIZE,
                             in_len=AES_BLOCK_SIZE, keep=owners)

    def _direct_ops(main, gen, encrypt):
        cast = _gffi.cast
        return (cast("aes_block_fn", main.encrypt if encrypt else main.decrypt),
                cast("aes_block_fn", gen.encrypt if encrypt else gen.decrypt),
                cast("void *", main.key), cast("void *", gen.key))

    return capi.CipherAlg(
        cra_name="aes", cra_driver_name=driver, cra_priority=priority, cra_module=module,
        cra_blocksize=AES_BLOCK_SIZE, min_keysize=AES_MIN_KEY_SIZE, max_keysize=AES_MAX_KEY_SIZE,
        setkey=setkey, encrypt=enc, decrypt=dec, cra_exit=exit_, direct=direct,
        c_entries=(Offer(Kind.BLOCK, block_entries),))


_gffi, lib_generic = ffi, lib
_BLOCK_CALL = ffi.addressof(lib, "aes_block_call")
_GENERIC_ENC = ffi.addressof(lib, "aes_encrypt_generic")
_GENERIC_DEC = ffi.addressof(lib, "aes_decrypt_generic")


def _generic_schedule(ctx, key: bytes):
    """The generic key schedule beside a SIMD one (the SIMD glue's fallback)."""
    c = getattr(ctx, "aes_fallback", None)
    if c is None:
        c = _gffi.new("struct crypto_aes_ctx *")
    else:
        lib_generic.crypto_memzero(c, _gffi.sizeof(c[0]))
    lib_generic.aes_expandkey_generic(c, _gffi.from_buffer("uint8_t[]", key), len(key))
    return c


ALG = aes_cipher_alg("aes-generic", 100, ffi, lib, "struct crypto_aes_ctx *",
                     "aes_expandkey_generic", "aes_encrypt_generic", "aes_decrypt_generic")


def module_init() -> None:
    capi.crypto_register_cipher(ALG)


def module_exit() -> None:
    capi.crypto_unregister_cipher(ALG)
