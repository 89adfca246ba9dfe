"""Planted bug: XChaCha12 whose contiguous entry point flips a byte (only the
self-test that declines the one-call path sees it).

A plug-in driver for tests/core/test_testmgr_planted.py, loaded with insmod.
Its request path (every scatterlist configuration) and its one-call fast
path (``direct``: bytes and memoryviews through ``tfm.encrypt``) are the
generic driver's and right; ``encrypt_contiguous``, which ``tfm.encrypt`` runs
when the direct path declines (a bytearray IV, an FPU trace), is wrong.
"""

import crypto_api as capi
from crypto_api.algs import chacha_generic as cg

MODULE_NAME = "planted_contiguous"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("xchacha12-planted-contiguous")


def contiguous(tfm, src, dst, n, iv) -> bool:
    cg.chacha_contiguous(tfm, src, dst, n, iv)
    if n:
        dst[n - 1] ^= 0x80                 # THE BUG: the last byte's top bit
    return True


ALG = cg.chacha_alg("xchacha12", "xchacha12-planted-contiguous", 500, True, 12, cg.crypto_xchacha_crypt,
                    contiguous=contiguous)


def module_init():
    capi.crypto_register_skcipher(ALG)


def module_exit():
    capi.crypto_unregister_skcipher(ALG)
