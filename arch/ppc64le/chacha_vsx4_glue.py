"""chacha20/xchacha20/xchacha12 on the seed's design: the POWER8 VSX
4-block ChaCha with VPERMXOR rotates (Go x/crypto's chaCha20_ctr32_vsx;
core ``chacha_vsx4``, arch/ppc64le/chacha_vsx4.c).

Not a kernel driver: a second ChaCha design registered so POWER8/POWER9
get a SIMD ChaCha the self-test manager checks against the generic code.
Module ``chacha_vsx_4way`` (aliases: the driver names only), drivers
``chacha20-vsx-4way``, ``xchacha20-vsx-4way``, ``xchacha12-vsx-4way`` at
priority 50, below every kernel driver of these names (the generic 100 on
POWER8/9, ``*-p10`` 300 on POWER10), so "chacha20" and Adiantum resolve as
the kernel's do; it is reached by its driver names (e.g.
``adiantum(xchacha12-vsx-4way,aes)``).  Needs
the vector-crypto feature (VPERMXOR).  The walk is the p10 glue's (one VSX
section per walk step); inside it whole 256-byte groups go to the core and
a shorter last piece is bounced through a zeroed 256-byte buffer (the
seed's core works in four-block units).
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.algs import chacha_generic as generic
from crypto_api.arch.ppc64le import chacha_vsx_walk as cwalk
from crypto_api.arch.ppc64le import vsx_glue

MODULE_ARCH = "ppc64le"
MODULE_NAME = "chacha_vsx_4way"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("chacha20-vsx-4way", "xchacha20-vsx-4way", "xchacha12-vsx-4way")
PRIORITY = 50
GROUP = 256
ALGS: list = []
_core = None


def vsx4_step(state, dst, src, n: int, nrounds: int) -> None:
    generic.grouped_step(_core.chacha_vsx4_xor, GROUP, state, dst, src, n, nrounds)


def module_init() -> None:
    global _core
    vsx_glue.require_feature("vcrypto", MODULE_NAME, "the POWER8 vector-crypto feature (VPERMXOR)")
    _core = vsx_glue.load_core("chacha_vsx4")
    ALGS[:] = cwalk.chacha_algs("vsx-4way", PRIORITY, MODULE_NAME, vsx4_step)
    capi.crypto_register_skciphers(ALGS)


def module_exit() -> None:
    capi.crypto_unregister_skciphers(ALGS)
    ALGS.clear()
