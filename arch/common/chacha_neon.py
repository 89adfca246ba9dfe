"""The v5.0 ChaCha NEON request path that the arm64 and arm ``chacha_neon`` modules share.

arch/arm64/crypto/chacha-neon-glue.c and arch/arm/crypto/chacha-neon-glue.c
(v5.0) follow the same rules (reference §2.3): a request of 64 bytes or
less, or one made while SIMD is not usable (may_use_simd() false, or the
self-test manager's nosimd), runs the generic code on the whole request with
the same tfm; otherwise the walk is not atomic and each step runs in a NEON
section of its own (kernel_neon_begin/end), non-final steps rounded down to
the walk stride (the driver's walksize: five blocks on arm64, four on arm).
XChaCha derives its subkey with the NEON HChaCha in a section of its own,
before the walk.  The core is each machine's own (``chacha_doneon``,
``hchacha_block_neon``); the modules pass it in.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.algs import chacha_generic as generic
from crypto_api.fpu import GENERIC



def neon_stream(core, req, xchacha: bool) -> None:
    """The v5.0 NEON walk: XChaCha's HChaCha in a NEON section of its own,
    then one section per walk step running ``core.chacha_doneon`` (non-final
    steps rounded down to the walk stride, the driver's walksize)."""
    ctx = req.tfm.ctx

    def hchacha(state, subkey, nrounds: int) -> None:
        capi.kernel_neon_begin()
        try:
            core.hchacha_block_neon(state, subkey, nrounds)
        finally:
            capi.kernel_neon_end()

    state = generic.arch_state(ctx, req.iv, xchacha, hchacha if xchacha else None)
    doneon = core.chacha_doneon
    nrounds = ctx.nrounds
    try:
        walk = capi.skcipher_walk_virt(req, atomic=False)
        while walk.nbytes:
            n = walk.nbytes
            if n < walk.total:
                n -= n % walk.stride
            capi.kernel_neon_begin()
            try:
                doneon(state, walk.dst[:n], walk.src[:n], n, nrounds)
                capi.fpu_account(n)
            finally:
                capi.kernel_neon_end()
            capi.skcipher_walk_done(walk, walk.nbytes - n)
    finally:
        generic.wipe_state(state)


def v5_requests(get_core):
    """The v5.0 encrypt callbacks (chacha, xchacha) over the core ``get_core()``
    gives: a request of 64 bytes or less, or one made while SIMD is not
    usable, runs the generic code on the whole request (same tfm); the rest
    :func:`neon_stream`."""

    def chacha(req) -> None:
        if req.tfm.alg.simd_rule.choice(req.cryptlen) == GENERIC:   # 64 bytes or less, or no SIMD
            generic.crypto_chacha_crypt(req)
            return
        neon_stream(get_core(), req, False)

    def xchacha(req) -> None:
        if req.tfm.alg.simd_rule.choice(req.cryptlen) == GENERIC:
            generic.crypto_xchacha_crypt(req)
            return
        neon_stream(get_core(), req, True)

    return chacha, xchacha


def neon_algs(walksize: int, encrypts) -> tuple:
    """The three ``*-neon`` descriptors (priority 300) with ``walksize``."""
    chacha, xchacha = encrypts
    # the core is not callable from C in this process: every path is the request path
    return tuple(generic.chacha_alg(cra, cra + "-neon", 300, x, rounds, fn, c_stream=None,
                                    contiguous=None, direct=None, walksize=walksize)
                 for cra, x, rounds, fn in (("chacha20", False, 20, chacha),
                                            ("xchacha20", True, 20, xchacha),
                                            ("xchacha12", True, 12, xchacha)))
