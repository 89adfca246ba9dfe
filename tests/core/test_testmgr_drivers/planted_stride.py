"""Planted bug: XChaCha12 that ignores the stride rule of the skcipher walk.

Every walk step is processed whole, so a non-final step whose length is not a
multiple of 64 leaves the keystream out of step with the data.  One
contiguous buffer is a single step, so only the split configurations catch it.
"""

import crypto_api as capi
from crypto_api.algs import chacha_generic as cg
from crypto_api.algs._chacha_generic import ffi, lib

MODULE_NAME = "planted_stride"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("xchacha12-planted-stride")


def crypt(req):
    ctx = capi.crypto_skcipher_ctx(capi.crypto_skcipher_reqtfm(req))
    state = cg.chacha_state(ctx, req.iv, True)
    walk = capi.skcipher_walk_virt(req, atomic=False)
    while walk.nbytes:
        n = walk.nbytes                    # THE BUG: no rounding down to walk.stride
        lib.chacha_crypt_generic(state, ffi.from_buffer(walk.dst), ffi.from_buffer(walk.src), n, ctx.nrounds)
        capi.skcipher_walk_done(walk, walk.nbytes - n)


ALG = capi.SkcipherAlg(
    cra_name="xchacha12", cra_driver_name="xchacha12-planted-stride", cra_priority=500,
    cra_blocksize=1, min_keysize=32, max_keysize=32, ivsize=32, chunksize=64,
    setkey=cg.chacha12_setkey, encrypt=crypt, decrypt=crypt, exit=cg.chacha_exit)


def module_init():
    capi.crypto_register_skcipher(ALG)


def module_exit():
    capi.crypto_unregister_skcipher(ALG)
