"""Planted bug for the arm64 self-tests: xchacha12 on the NEON core that
hands every walk step to chacha_doneon whole, without rounding a non-final
step down to the 320-byte stride.  v5.0's doneon advances the counter by 5
per 320 bytes even for a short piece, so a non-final step of another length
leaves the keystream out of step.  ``PLANTED_ROUND=1`` rounds, as the real
glue does (the control).  An arm64 plug-in: it loads only on an arm64 machine."""

import os

import crypto_api as capi
from crypto_api.algs import chacha_generic as cg
from crypto_api.machine import backend

MODULE_ARCH = "arm64"
MODULE_NAME = "planted_neon_stride"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("xchacha12-planted-neon")
ROUND = os.environ.get("PLANTED_ROUND") == "1"
core = None


def crypt(req):
    ctx = req.tfm.ctx
    state = cg.chacha_state(ctx, req.iv, True)
    walk = capi.skcipher_walk_virt(req, atomic=False)
    while walk.nbytes:
        n = walk.nbytes
        if ROUND and n < walk.total:
            n -= n % walk.stride
        capi.kernel_neon_begin()
        try:
            core.chacha_doneon(state, walk.dst[:n], walk.src[:n], n, ctx.nrounds)
        finally:
            capi.kernel_neon_end()
        capi.skcipher_walk_done(walk, walk.nbytes - n)


ALG = cg.chacha_alg("xchacha12", "xchacha12-planted-neon", 500, True, 12, crypt, c_stream=None,
                    contiguous=None, direct=None, walksize=320)


def module_init():
    global core
    core = backend.load("arm64", "chacha_neon")
    capi.crypto_register_skcipher(ALG)


def module_exit():
    capi.crypto_unregister_skcipher(ALG)
