"""xchacha12-mine: an out-of-tree XChaCha12 driver for crypto_api, with a C core.

A complete plug-in: the descriptor, setkey, the skcipher walk with the stride
rule, module_init/module_exit, and the aliases through which
``request_module("crypto-xchacha12")`` (or ``crypto-xchacha12-mine``) finds
this module once the package is installed (entry point group
``crypto_api.modules`` in pyproject.toml).  Registration runs the self-test
manager on it; it is used only if it passes.
"""

from __future__ import annotations

import crypto_api as capi

from ._core import ffi, lib

MODULE_NAME = "xchacha12_mine"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("xchacha12", "xchacha12-mine")

KEY_SIZE = 32
IV_SIZE = 32              # XChaCha: 24-byte nonce, then the 64-bit block position
CHACHA_BLOCK_SIZE = 64
ROUNDS = 12
PRIORITY = 250            # above xchacha12-generic (100), below xchacha12-simd (300)


def xchacha12_mine_setkey(tfm, key: bytes) -> None:
    """Keep the key in the per-tfm context (the frontend has checked its length)."""
    ctx = capi.crypto_skcipher_ctx(tfm)
    if getattr(ctx, "key", None) is None:
        ctx.key = ffi.new("uint8_t[32]")
    ffi.memmove(ctx.key, key, KEY_SIZE)


def xchacha12_mine_exit(tfm) -> None:
    """Wipe the key when the tfm is freed."""
    key = getattr(capi.crypto_skcipher_ctx(tfm), "key", None)
    if key is not None:
        lib.mine_wipe(key, KEY_SIZE)


def xchacha12_mine_crypt(req) -> None:
    """Encrypt or decrypt (the same XOR) ``req`` step by step along the walk."""
    tfm = capi.crypto_skcipher_reqtfm(req)
    ctx = capi.crypto_skcipher_ctx(tfm)
    state = ffi.new("struct mine_state *")
    lib.mine_xchacha_init(state, ctx.key, ffi.from_buffer(req.iv), ROUNDS)
    walk = capi.skcipher_walk_virt(req, atomic=False)
    while walk.nbytes:
        n = walk.nbytes
        if n < walk.total:                  # not the last step: whole blocks only,
            n -= n % walk.stride            # the rest comes back in the next step
        lib.mine_chacha_crypt(state, ffi.from_buffer(walk.dst), ffi.from_buffer(walk.src), n)
        capi.skcipher_walk_done(walk, walk.nbytes - n)
    lib.mine_wipe(state, ffi.sizeof("struct mine_state"))


ALG = capi.SkcipherAlg(
    cra_name="xchacha12",                   # the algorithm: what users ask for
    cra_driver_name="xchacha12-mine",       # this implementation: unique
    cra_priority=PRIORITY,
    cra_blocksize=1,                        # a stream cipher: any length
    min_keysize=KEY_SIZE,                   # the frontend refuses other key lengths (EINVAL)
    max_keysize=KEY_SIZE,
    ivsize=IV_SIZE,
    chunksize=CHACHA_BLOCK_SIZE,            # the walk's stride: 64-byte ChaCha blocks
    setkey=xchacha12_mine_setkey,           # setkey(tfm, key)
    encrypt=xchacha12_mine_crypt,           # encrypt(req), decrypt(req)
    decrypt=xchacha12_mine_crypt,
    exit=xchacha12_mine_exit,               # wipe the key when a tfm is freed
)


def module_init() -> None:
    capi.crypto_register_skcipher(ALG)      # the self-tests run here


def module_exit() -> None:
    capi.crypto_unregister_skcipher(ALG)
