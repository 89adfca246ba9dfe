"""Planted bug: XChaCha12 that is wrong for lengths no test vector has.

When cryptlen mod 64 is between 2 and 26 the last output byte is flipped.
The xchacha12 vectors have lengths 29, 64, 91, 127, 304, 375 and 1281
(residues 29, 0, 27, 63, 48, 55, 1): none is affected, so the fast tests pass;
about 25/64 of the fuzzer's random lengths are, so the full tests catch it.
"""

import crypto_api as capi
from crypto_api.algs import chacha_generic as cg
from crypto_api.algs._chacha_generic import ffi, lib

MODULE_NAME = "planted_length"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("xchacha12-planted-length")
BAD_RESIDUES = range(2, 27)


def crypt(req):
    ctx = capi.crypto_skcipher_ctx(capi.crypto_skcipher_reqtfm(req))
    state = cg.chacha_state(ctx, req.iv, True)
    walk = capi.skcipher_walk_virt(req, atomic=False)
    while walk.nbytes:
        last = walk.nbytes == walk.total
        n = walk.nbytes if last else walk.nbytes - walk.nbytes % walk.stride
        lib.chacha_crypt_generic(state, ffi.from_buffer(walk.dst), ffi.from_buffer(walk.src), n, ctx.nrounds)
        if last and req.cryptlen % 64 in BAD_RESIDUES:
            walk.dst[n - 1] ^= 0x80        # THE BUG
        capi.skcipher_walk_done(walk, walk.nbytes - n)


ALG = capi.SkcipherAlg(
    cra_name="xchacha12", cra_driver_name="xchacha12-planted-length", cra_priority=500,
    cra_blocksize=1, min_keysize=32, max_keysize=32, ivsize=32, chunksize=64,
    setkey=cg.chacha12_setkey, encrypt=crypt, decrypt=crypt, exit=cg.chacha_exit)


def module_init():
    capi.crypto_register_skcipher(ALG)


def module_exit():
    capi.crypto_unregister_skcipher(ALG)
