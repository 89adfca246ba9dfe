"""SHA-1 (crypto/sha1_generic.c): the shash ``sha1-generic`` (priority 100,
block size 64) over the portable C core (algs/sha1_generic.c).
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.algs._sha1 import ffi, lib
from crypto_api.algs.md_shash import md_shash_alg

MODULE_NAME = "sha1_generic"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("sha1", "sha1-generic")

SHA1_BLOCK_SIZE = 64
SHA1_DIGEST_SIZE = 20

ALG = md_shash_alg(name="sha1", driver="sha1-generic", priority=100, ffi=ffi,
                   state_type="struct sha1_state", blocksize=SHA1_BLOCK_SIZE,
                   digestsize=SHA1_DIGEST_SIZE, init=lib.sha1_init, update=lib.sha1_update,
                   final=lib.sha1_final)


def module_init() -> None:
    capi.crypto_register_shash(ALG)


def module_exit() -> None:
    capi.crypto_unregister_shash(ALG)
