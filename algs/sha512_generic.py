"""SHA-384 and SHA-512 (crypto/sha512_generic.c): the shashes
``sha384-generic`` and ``sha512-generic`` (priority 100, block size 128)
over the portable C core (algs/sha512_generic.c).  :func:`final_nbytes`
serves the SIMD drivers' FPU accounting (x86 sha512_ssse3, arm64 sha512_ce).
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.algs._sha512 import ffi, lib
from crypto_api.algs.md_shash import md_shash_alg

MODULE_NAME = "sha512_generic"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("sha384", "sha384-generic", "sha512", "sha512-generic")

SHA512_BLOCK_SIZE = 128
SHA512_DIGEST_SIZE = 64
SHA384_DIGEST_SIZE = 48


def final_nbytes(state, more: int = 0) -> int:
    """The bytes the final padding compresses once ``more`` bytes are added
    to the ``struct sha512_state`` ``state``: one block, or two when fewer
    than 17 bytes are left in the last one (the 0x80 and the 16-byte length)."""
    partial = (state.count[0] + more) % SHA512_BLOCK_SIZE
    return SHA512_BLOCK_SIZE * (2 if partial >= SHA512_BLOCK_SIZE - 16 else 1)


def _alg(name: str, init, digestsize: int) -> capi.ShashAlg:
    return md_shash_alg(name=name, driver=name + "-generic", priority=100, ffi=ffi,
                        state_type="struct sha512_state", blocksize=SHA512_BLOCK_SIZE,
                        digestsize=digestsize, init=init, update=lib.sha512_update,
                        final=lambda st, out: lib.sha512_final(st, out, digestsize))


ALGS = (_alg("sha512", lib.sha512_init, SHA512_DIGEST_SIZE),
        _alg("sha384", lib.sha384_init, SHA384_DIGEST_SIZE))


def module_init() -> None:
    for a in ALGS:
        capi.crypto_register_shash(a)


def module_exit() -> None:
    for a in reversed(ALGS):
        capi.crypto_unregister_shash(a)
