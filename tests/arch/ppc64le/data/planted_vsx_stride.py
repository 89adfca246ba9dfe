"""Planted bug for the ppc64le self-tests: xchacha12 on the seed-design VSX
core whose walk hands every step to the core whole, without rounding a
non-final step down to the 64-byte stride: a step ending inside a block
advances the counter past it, so the next step's keystream is out of step.
``PLANTED_ROUND=1`` rounds, as the real glue does (the control).  A ppc64le
plug-in: it loads only on a ppc64le machine."""

import os

import crypto_api as capi
from crypto_api.algs import chacha_generic as cg
from crypto_api.algs._chacha_generic import lib as glib
from crypto_api.arch.ppc64le import chacha_vsx4_glue as vsx4

MODULE_ARCH = "ppc64le"
MODULE_NAME = "planted_vsx_stride"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("xchacha12-planted-vsx")
ROUND = os.environ.get("PLANTED_ROUND") == "1"


def crypt(req):
    ctx = req.tfm.ctx
    state = cg.arch_state(ctx, req.iv, True, glib.hchacha_block_generic)
    walk = capi.skcipher_walk_virt(req, atomic=False)
    while walk.nbytes:
        n = walk.nbytes
        if ROUND and n < walk.total:
            n -= n % walk.stride
        capi.enable_kernel_vsx()
        try:
            vsx4.vsx4_step(state, walk.dst, walk.src, n, ctx.nrounds)
        finally:
            capi.disable_kernel_vsx()
        capi.skcipher_walk_done(walk, walk.nbytes - n)


ALG = cg.chacha_alg("xchacha12", "xchacha12-planted-vsx", 10, True, 12, crypt, module=MODULE_NAME,
                    c_stream=None, contiguous=None, direct=None)


def module_init():
    capi.request_module("crypto-xchacha12-vsx-4way")      # the real module: its core
    capi.crypto_register_skcipher(ALG)


def module_exit():
    capi.crypto_unregister_skcipher(ALG)
