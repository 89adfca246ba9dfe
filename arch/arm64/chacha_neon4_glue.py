"""chacha20/xchacha20/xchacha12 on the seed's design: libgcrypt's 4-block
interleaved AArch64 ChaCha (core ``chacha_neon4``, arch/arm64/chacha_neon4.c).

Not a kernel driver: a second ChaCha design registered beside the kernel's
``*-neon`` ones so the self-test manager checks both against the generic
code.  Module ``chacha_neon_4way`` (installable like a plug-in: it is one
``crypto_api.modules`` entry point), drivers ``chacha20-neon-4way``,
``xchacha20-neon-4way``, ``xchacha12-neon-4way`` at priority 200, below the
kernel's 300 so that "chacha20"/"xchacha12" keep resolving to the kernel's
design; aliases are the driver names only.  Needs ASIMD.

The glue follows the v5.0 arm64 rules with the seed's granularity: walksize
256 (four blocks); a request of 64 bytes or less, or one made while SIMD is
not usable, runs the generic code on the whole request; otherwise one NEON
section per walk step, inside which whole 256-byte groups go to the core in
one call and a shorter last piece is bounced through a zeroed 256-byte
buffer.  The glue advances the 32-bit block counter (word 12 only) by the
blocks each call used.  The seed has no HChaCha, so XChaCha's subkey comes
from the generic HChaCha, outside any section.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.algs import chacha_generic as generic
from crypto_api.algs._chacha_generic import lib as glib
from crypto_api.arch.arm64 import neon_glue
from crypto_api.fpu import GENERIC

MODULE_ARCH = "arm64"
MODULE_NAME = "chacha_neon_4way"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("chacha20-neon-4way", "xchacha20-neon-4way", "xchacha12-neon-4way")

PRIORITY = 200
GROUP = 4 * generic.CHACHA_BLOCK_SIZE          # the core's unit: four blocks
WALKSIZE = GROUP
_core = None


def neon4_step(state, dst, src, n: int, nrounds: int) -> None:
    """``n`` bytes of a walk step (inside its NEON section)."""
    generic.grouped_step(_core.chacha_neon4_xor, GROUP, state, dst, src, n, nrounds)


def _hchacha_generic(state, subkey, nrounds: int) -> None:
    glib.hchacha_block_generic(state, subkey, nrounds)


def _stream(req, xchacha: bool) -> None:
    generic.stream_steps(req, xchacha, _hchacha_generic,
                         lambda state, dst, src, n, nrounds: neon_glue.neon_call(
                             neon4_step, state, dst, src, n, nrounds, nbytes=n))


def chacha_neon4(req) -> None:
    if req.tfm.alg.simd_rule.choice(req.cryptlen) == GENERIC:     # 64 bytes or less, or no SIMD
        generic.crypto_chacha_crypt(req)
        return
    _stream(req, False)


def xchacha_neon4(req) -> None:
    if req.tfm.alg.simd_rule.choice(req.cryptlen) == GENERIC:
        generic.crypto_xchacha_crypt(req)
        return
    _stream(req, True)


def _alg(cra_name: str, xchacha: bool, nrounds: int, encrypt) -> capi.SkcipherAlg:
    return generic.chacha_alg(cra_name, cra_name + "-neon-4way", PRIORITY, xchacha, nrounds, encrypt,
                              c_stream=None, contiguous=None, direct=None, walksize=WALKSIZE)


ALGS = (
    _alg("chacha20", False, 20, chacha_neon4),
    _alg("xchacha20", True, 20, xchacha_neon4),
    _alg("xchacha12", True, 12, xchacha_neon4),
)


def module_init() -> None:
    global _core
    neon_glue.require_feature("asimd", MODULE_NAME, "ASIMD")
    _core = neon_glue.load_core("chacha_neon4")
    capi.crypto_register_skciphers(ALGS)


def module_exit() -> None:
    capi.crypto_unregister_skciphers(ALGS)
