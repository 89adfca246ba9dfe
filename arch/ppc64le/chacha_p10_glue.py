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

From 6.16 the module registers crypto/chacha.c's drivers over the powerpc
ChaCha library instead (``*-powerpc`` in 6.16-6.17 on POWER10 only,
``*-lib`` from 6.18 on every CPU; walksize 64): per walk step, 64 bytes or
less, no POWER10 or no SIMD run the generic code, a longer step P10_DO
pieces of at most 4 KiB, each its own VSX section; HChaCha is always the
generic one (crypto_api.algs.chacha_library).
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.algs import chacha_library
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


#: the powerpc ChaCha library (have_p10: the core loaded on a POWER10); no VSX HChaCha
LIBRARY = chacha_library.ArchLibrary(present=lambda: _core is not None, begin=capi.enable_kernel_vsx,
                                     end=capi.disable_kernel_vsx, blocks=p10_do)


def module_init() -> None:
    global _core
    p10 = current_machine().has("arch_3_1")
    if chacha_library.library_followed():
        chosen = chacha_library.library_algs("-p10", PRIORITY, lambda: LIBRARY, MODULE_NAME)
        if not chacha_library.library_registers(p10):
            return               # 6.16-6.17 without POWER10: the generic drivers serve
    elif not p10:
        return                   # 6.9+: loads, registers nothing, the generic code serves
    else:
        chosen = cwalk.chacha_algs("p10", PRIORITY, MODULE_NAME, p10_do)
    _core = vsx_glue.load_core("chacha_p10") if p10 else None
    ALGS[:] = chosen
    capi.crypto_register_skciphers(ALGS)


def module_exit() -> None:
    global _core
    if ALGS:
        capi.crypto_unregister_skciphers(ALGS)
        ALGS.clear()
    _core = None
