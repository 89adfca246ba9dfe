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

Those are 5.0-5.4's rules (``chacha.sections`` = "request" in the
kernel-version table, crypto_api.version_rules; the composite's).  From 5.5
arm64's glue ("step") has no 64-byte shortcut and decides SIMD at each step
(a step made while SIMD is unusable, and an HChaCha, run the generic code
there), and arm's ("request_any") decides once per request with no 64-byte
shortcut.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.algs import chacha_generic as generic
from crypto_api.fpu import GENERIC
from crypto_api.version_rules import rule


SECTIONS_RULE = "chacha.sections"
_from_buffer = generic.ffi.from_buffer


def neon_stream(core, req, xchacha: bool, per_step: bool = False) -> None:
    """The NEON walk: XChaCha's HChaCha in a NEON section of its own,
    then one section per walk step running ``core.chacha_doneon`` (non-final
    steps rounded down to the walk stride, the driver's walksize).
    ``per_step`` (arm64 5.5+): SIMD asked again for the HChaCha and each
    step; where it is unusable, that piece runs the generic code."""
    ctx = req.tfm.ctx

    def hchacha(state, subkey, nrounds: int) -> None:
        if per_step and capi.simd_choice() == GENERIC:
            generic.generic_hchacha(state, subkey, nrounds)
            return
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
            if per_step and capi.simd_choice() == GENERIC:
                generic.generic_crypt(state, _from_buffer("uint8_t[]", walk.dst),
                                      _from_buffer("uint8_t[]", walk.src), n, nrounds)
                capi.skcipher_walk_done(walk, walk.nbytes - n)
                continue
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
    """The encrypt callbacks (chacha, xchacha) over the core ``get_core()``
    gives, by the chosen kernel's ``chacha.sections``: "request" (v5.0-5.4):
    a request of 64 bytes or less, or one made while SIMD is not usable, runs
    the generic code on the whole request (same tfm), the rest
    :func:`neon_stream`; "request_any" (arm 5.5+): SIMD decided once, any
    length; "step" (arm64 5.5+): every request through the walk, SIMD decided
    per step."""

    def run(req, xchacha: bool) -> None:
        policy = rule(SECTIONS_RULE, "request")
        if policy == "request":
            use_generic = req.tfm.alg.simd_rule.choice(req.cryptlen) == GENERIC   # 64 bytes or less, or no SIMD
        else:
            use_generic = policy == "request_any" and capi.simd_choice() == GENERIC
        if use_generic:
            (generic.crypto_xchacha_crypt if xchacha else generic.crypto_chacha_crypt)(req)
            return
        neon_stream(get_core(), req, xchacha, per_step=policy == "step")

    return (lambda req: run(req, False)), (lambda req: run(req, True))


def neon_algs(walksize: int, encrypts) -> tuple:
    """The three ``*-neon`` descriptors (priority 300) with ``walksize``."""
    chacha, xchacha = encrypts
    # the core is not callable from C in this process: every path is the request path
    return tuple(generic.chacha_alg(cra, cra + "-neon", 300, x, rounds, fn, c_stream=None,
                                    contiguous=None, direct=None, walksize=walksize)
                 for cra, x, rounds, fn in (("chacha20", False, 20, chacha),
                                            ("xchacha20", True, 20, xchacha),
                                            ("xchacha12", True, 12, xchacha)))
