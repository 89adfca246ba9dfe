"""A plug-in XChaCha12 written for the rules of 5.x-6.15 kernels: its tfm init
allocates its fallback by the generic driver's name of those kernels,
``xchacha12-generic``, which 6.18 registers as ``xchacha12-lib``.

test_plugin_across_versions.py loads it under several kernel versions: it
passes its self-test where that name exists and fails it (its init cannot
allocate the fallback) where it does not.  Otherwise a correct XChaCha12.
"""

import crypto_api as capi
from crypto_api.algs import chacha_generic as cg
from crypto_api.algs._chacha_generic import ffi, lib

MODULE_NAME = "plugin_fallback_by_name"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("xchacha12-fallback-by-name")
FALLBACK = "xchacha12-generic"


def init(tfm):
    tfm.ctx.fallback = capi.crypto_alloc_skcipher(FALLBACK)


def exit_(tfm):
    fallback = getattr(tfm.ctx, "fallback", None)
    if fallback is not None:
        fallback.free()
    cg.chacha_exit(tfm)


def crypt(req):
    ctx = capi.crypto_skcipher_ctx(capi.crypto_skcipher_reqtfm(req))
    state = cg.chacha_state(ctx, req.iv, True)
    walk = capi.skcipher_walk_virt(req, atomic=False)
    while walk.nbytes:
        n = walk.nbytes if walk.nbytes == walk.total else walk.nbytes - walk.nbytes % walk.stride
        lib.chacha_crypt_generic(state, ffi.from_buffer(walk.dst), ffi.from_buffer(walk.src), n, ctx.nrounds)
        capi.skcipher_walk_done(walk, walk.nbytes - n)


ALG = capi.SkcipherAlg(
    cra_name="xchacha12", cra_driver_name="xchacha12-fallback-by-name", cra_priority=500,
    cra_blocksize=1, min_keysize=32, max_keysize=32, ivsize=32, chunksize=64,
    setkey=cg.chacha12_setkey, encrypt=crypt, decrypt=crypt, init=init, exit=exit_)


def module_init():
    capi.crypto_register_skcipher(ALG)


def module_exit():
    capi.crypto_unregister_skcipher(ALG)
