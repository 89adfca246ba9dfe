"""The XCTR skcipher of arch/arm64/crypto/aes-glue.c, shared by its two builds.

aes-glue.c is compiled twice: as aes-ce-blk (``MODE`` "ce", priority 300,
arch/arm64/aes_ce_blk_glue.py) and as aes-neon-blk (``MODE`` "neon", 200,
arch/arm64/aes_neon_blk_glue.py); both register ``xctr(aes)`` /
``xctr-aes-<MODE>`` from one descriptor and one request function, which
live here: block size 1, IV and chunk size 16, keys of 16/24/32 bytes.

encrypt = decrypt: a walk that is not atomic, each step in a NEON section
of its own, never asking whether SIMD is usable (the glue has no fallback):
a step shorter than the rest of the request is rounded down to whole
blocks, the last one runs as it is (a piece of less than a block
included).  The core numbers blocks from the bytes done so far in the
request; the IV is left as it was.
"""

from __future__ import annotations

from typing import Any, Callable

import crypto_api as capi
from crypto_api.algs._aes_generic import ffi as gffi
from crypto_api.algs._aes_generic import lib as glib
from crypto_api.arch.arm64 import neon_glue
from crypto_api.arch.common.aes_table import rounds

AES_BLOCK_SIZE = 16


def xctr_walk(req: Any, core_fn: Callable) -> None:
    """The request through ``core_fn(key_enc, dst, src, n, iv, byte_ctr, rounds)``."""
    aes = req.tfm.ctx.aes
    nr = rounds(aes)
    iv = bytes(memoryview(req.iv)[:AES_BLOCK_SIZE])
    byte_ctr = 0
    walk = capi.skcipher_walk_virt(req, atomic=False)
    while walk.nbytes:
        n = walk.nbytes
        if AES_BLOCK_SIZE <= n < walk.total:
            n -= n % AES_BLOCK_SIZE
        neon_glue.neon_call(core_fn, aes.key_enc, walk.dst[:n], walk.src[:n], n, iv, byte_ctr, nr, nbytes=n)
        byte_ctr += n
        capi.skcipher_walk_done(walk, walk.nbytes - n)


def aes_ctx(ctx: Any) -> Any:
    """``ctx.aes`` (a struct crypto_aes_ctx), allocated or wiped for a new key."""
    aes = getattr(ctx, "aes", None)
    if aes is None:
        aes = ctx.aes = gffi.new("struct crypto_aes_ctx *")
    else:
        glib.crypto_memzero(aes, gffi.sizeof(aes[0]))
    return aes


def _exit(tfm: Any) -> None:
    aes = getattr(tfm.ctx, "aes", None)
    if aes is not None:
        glib.crypto_memzero(aes, gffi.sizeof(aes[0]))


def make_xctr_alg(mode: str, priority: int, setkey: Callable, core_fn: Callable) -> capi.SkcipherAlg:
    """``xctr-aes-<mode>``: ``setkey(tfm, key)`` fills ctx.aes, ``core_fn`` is the XCTR core."""
    def crypt(req):
        xctr_walk(req, core_fn)

    return capi.SkcipherAlg(
        cra_name="xctr(aes)", cra_driver_name=f"xctr-aes-{mode}", cra_priority=priority, cra_blocksize=1,
        min_keysize=16, max_keysize=32, ivsize=AES_BLOCK_SIZE, chunksize=AES_BLOCK_SIZE,
        setkey=setkey, encrypt=crypt, decrypt=crypt, exit=_exit)
