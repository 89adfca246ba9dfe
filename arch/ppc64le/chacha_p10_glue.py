"""chacha20-p10, xchacha20-p10, xchacha12-p10 (arch/powerpc/crypto/chacha-p10-glue.c, 6.5-6.15).

Module ``chacha_p10_crypto``, priority 300, walksize unset (64), aliases
the three names and the three ``*-p10``.  Init as 6.9+ (and 6.8.y): a
plain module_init that registers nothing (and succeeds) unless the CPU
reports ISA 3.1 (HWCAP2 ``arch_3_1``).

Each walk step with SIMD usable is one VSX section (chacha_vsx_walk) doing
P10_DO: the multiple of 256 bytes through core ``chacha_p10``'s
chacha_p10le_8x (8 blocks per iteration, then 4; built -mcpu=power10 as an
object of its own), word 12 advanced by the glue, then the generic C on a
shorter remainder, still inside the section.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.arch.ppc64le import chacha_vsx_walk as cwalk
from crypto_api.arch.ppc64le import vsx_glue
from crypto_api.machine import current_machine

MODULE_ARCH = "ppc64le"
MODULE_NAME = "chacha_p10_crypto"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("chacha20", "xchacha20", "xchacha12",
                                          "chacha20-p10", "xchacha20-p10", "xchacha12-p10")
PRIORITY = 300
GROUP = 256
ALGS: list = []
_core = None


def p10_do(state, dst, src, n: int, nrounds: int) -> None:
    """P10_DO: the caller holds the VSX section."""
    whole = n - n % GROUP
    if whole:
        _core.chacha_p10le_8x(state, dst[:whole], src[:whole], whole, nrounds)
        cwalk.advance(state, whole)
    if n > whole:
        cwalk.generic_c(state, dst[whole:n], src[whole:n], n - whole, nrounds)


def module_init() -> None:
    global _core
    if not current_machine().has("arch_3_1"):
        return                   # 6.9+: loads, registers nothing, the generic code serves
    _core = vsx_glue.load_core("chacha_p10")
    ALGS[:] = cwalk.chacha_algs("p10", PRIORITY, MODULE_NAME, p10_do)
    capi.crypto_register_skciphers(ALGS)


def module_exit() -> None:
    if ALGS:
        capi.crypto_unregister_skciphers(ALGS)
        ALGS.clear()
