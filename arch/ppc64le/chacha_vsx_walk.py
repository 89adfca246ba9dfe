"""The ChaCha walk shared by the ppc64le ChaCha glues (chacha-p10-glue.c's STREAM).

Per walk step (stride 64, walksize unset): each non-final step rounded down
to 64 bytes; when crypto_simd_usable(), one VSX section around the arch
``step(state, dst, src, n, nrounds)``, else the generic C on that step.  No
``cryptlen <= 64`` shortcut.  XChaCha's subkey is HChaCha in generic C,
outside any section (no VSX HChaCha exists).  The 32-bit block counter is
word 12; steps advance it, never carrying into word 13.
"""

from __future__ import annotations

from typing import Any, Callable

import crypto_api as capi
from crypto_api.simd_rule import ANY_LENGTH
from crypto_api.algs import chacha_generic as generic
from crypto_api.algs._chacha_generic import ffi as gffi
from crypto_api.algs._chacha_generic import lib as glib
from crypto_api.arch.ppc64le import vsx_glue


Step = Callable[[Any, Any, Any, int, int], None]


advance = generic.advance_counter      # word 12 += the blocks used, mod 2^32


def generic_c(state: Any, dst: Any, src: Any, n: int, nrounds: int) -> None:
    """The generic C ChaCha on ``n`` bytes (advances word 12 itself)."""
    glib.chacha_crypt_generic(state, gffi.from_buffer("uint8_t[]", dst, require_writable=True),
                              gffi.from_buffer("uint8_t[]", src), n, nrounds)


def stream(req: Any, xchacha: bool, step: Step) -> None:
    """Encrypt (= decrypt) ``req`` with ``step`` inside one VSX section per walk step."""
    ctx = req.tfm.ctx
    state = generic.arch_state(ctx, req.iv, xchacha, glib.hchacha_block_generic)
    try:
        walk = capi.skcipher_walk_virt(req, atomic=False)
        while walk.nbytes:
            n = walk.nbytes
            if n < walk.total:
                n -= n % walk.stride
            if vsx_glue.simd_usable():
                vsx_glue.vsx_call(step, state, walk.dst, walk.src, n, ctx.nrounds, nbytes=n)
            else:
                generic_c(state, walk.dst, walk.src, n, ctx.nrounds)
            capi.skcipher_walk_done(walk, walk.nbytes - n)
    finally:
        generic.wipe_state(state)


def chacha_algs(suffix: str, priority: int, module: str, step: Step) -> tuple:
    """chacha20/xchacha20/xchacha12 descriptors named ``<name>-<suffix>`` over ``step``."""

    def chacha(req):
        stream(req, False, step)

    def xchacha(req):
        stream(req, True, step)

    return tuple(generic.chacha_alg(name, f"{name}-{suffix}", priority, x, rounds, fn, module=module,
                                    c_stream=None, contiguous=None, direct=None, simd_rule=ANY_LENGTH)
                 for name, x, rounds, fn in (("chacha20", False, 20, chacha),
                                             ("xchacha20", True, 20, xchacha),
                                             ("xchacha12", True, 12, xchacha)))
