"""Planted bug: a "SIMD" XChaCha12 whose fallback path is wrong.

With SIMD usable the walk runs inside kernel_fpu_begin/end (correct); when
crypto_simd_usable() is false the fallback sets the state up with 20 rounds
instead of 12.  Only a configuration with nosimd reaches the fallback.
"""

import crypto_api as capi
from crypto_api.algs import chacha_generic as cg
from crypto_api.algs._chacha_generic import ffi, lib

MODULE_NAME = "planted_nosimd"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("xchacha12-planted-nosimd")


def _walk(req, state, nrounds, atomic):
    walk = capi.skcipher_walk_virt(req, atomic=atomic)
    while walk.nbytes:
        n = walk.nbytes if walk.nbytes == walk.total else walk.nbytes - walk.nbytes % walk.stride
        lib.chacha_crypt_generic(state, ffi.from_buffer(walk.dst), ffi.from_buffer(walk.src), n, nrounds)
        capi.fpu_account(n)
        capi.skcipher_walk_done(walk, walk.nbytes - n)


def crypt(req):
    ctx = capi.crypto_skcipher_ctx(capi.crypto_skcipher_reqtfm(req))
    if capi.crypto_simd_usable():
        state = cg.chacha_state(ctx, req.iv, True)
        capi.kernel_fpu_begin()
        try:
            _walk(req, state, ctx.nrounds, atomic=True)
        finally:
            capi.kernel_fpu_end()
    else:
        ctx.nrounds = 20                   # THE BUG: the fallback forgets this is XChaCha12
        try:
            _walk(req, cg.chacha_state(ctx, req.iv, True), 20, atomic=False)
        finally:
            ctx.nrounds = 12


ALG = capi.SkcipherAlg(
    cra_name="xchacha12", cra_driver_name="xchacha12-planted-nosimd", cra_priority=500,
    cra_blocksize=1, min_keysize=32, max_keysize=32, ivsize=32, chunksize=64,
    setkey=cg.chacha12_setkey, encrypt=crypt, decrypt=crypt, exit=cg.chacha_exit)


def module_init():
    capi.crypto_register_skcipher(ALG)


def module_exit():
    capi.crypto_unregister_skcipher(ALG)
