"""Planted bug: XChaCha12 with one output byte wrong (the test vectors catch it).

A plug-in driver for tests/core/test_testmgr_planted.py, loaded with insmod;
priority 500 beats every real xchacha12 driver if it were ever tested good.
"""

import crypto_api as capi
from crypto_api.algs import chacha_generic as cg
from crypto_api.algs._chacha_generic import ffi, lib

MODULE_NAME = "planted_onebyte"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("xchacha12-planted-onebyte")


def crypt(req):
    ctx = capi.crypto_skcipher_ctx(capi.crypto_skcipher_reqtfm(req))
    state = cg.chacha_state(ctx, req.iv, True)
    walk = capi.skcipher_walk_virt(req, atomic=False)
    first = True
    while walk.nbytes:
        n = walk.nbytes if walk.nbytes == walk.total else walk.nbytes - walk.nbytes % walk.stride
        lib.chacha_crypt_generic(state, ffi.from_buffer(walk.dst), ffi.from_buffer(walk.src), n, ctx.nrounds)
        if first and n:
            walk.dst[0] ^= 0x01            # THE BUG: the first byte of every message is off by one bit
            first = False
        capi.skcipher_walk_done(walk, walk.nbytes - n)


ALG = capi.SkcipherAlg(
    cra_name="xchacha12", cra_driver_name="xchacha12-planted-onebyte", cra_priority=500,
    cra_blocksize=1, min_keysize=32, max_keysize=32, ivsize=32, chunksize=64,
    setkey=cg.chacha12_setkey, encrypt=crypt, decrypt=crypt, exit=cg.chacha_exit)


def module_init():
    capi.crypto_register_skcipher(ALG)


def module_exit():
    capi.crypto_unregister_skcipher(ALG)
