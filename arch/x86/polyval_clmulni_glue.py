"""The x86 POLYVAL driver of arch/x86/crypto/polyval-clmulni_glue.c (module
polyval_clmulni, Linux 6.0 to 6.18): ``polyval-clmulni``, priority 200,
where the CPU has PCLMULQDQ (ENODEV, nothing registered, elsewhere).

The descriptor is algs/polyval_generic.py's over a CLMUL block function
(arch/x86/polyval_clmulni.c; 16 blocks per reduction with the key's
powers, on 512-bit VPCLMULQDQ where the CPU has it, beyond the kernel's
8 blocks of PCLMULQDQ): updates run in FPU sections of at most 4 KiB
when the FPU is usable, else through the generic block function, as the
kernel's glue falls back.  The key, state and results are the generic
driver's.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.arch.x86.cpufeature import boot_cpu_has

MODULE_ARCH = "x86_64"
MODULE_NAME = "polyval_clmulni"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("polyval", "polyval-clmulni")
POLYVAL_CLMULNI_PRIORITY = 200
ALGS = []


def blocks_function() -> str:
    """The block function for this CPU: VPCLMULQDQ on 512-bit registers
    where AVX-512 (BW, VL) and zmm state are usable and the CPU does not
    prefer ymm, else PCLMULQDQ (both 16 blocks per reduction)."""
    wide = all(boot_cpu_has(f) for f in ("vpclmulqdq", "avx512f", "avx512vl", "avx512bw", "xsave_zmm"))
    if wide and not boot_cpu_has("prefer_ymm"):
        return "polyval_blocks_vpclmul_avx512"
    return "polyval_blocks_clmulni"


def module_init() -> None:
    capi.require_cpu(boot_cpu_has("pclmulqdq"), "polyval-clmulni", "the CPU lacks PCLMULQDQ")
    from crypto_api.algs.polyval_generic import polyval_alg
    from crypto_api.arch.x86._polyval_clmulni import ffi, lib
    alg = polyval_alg("polyval-clmulni", POLYVAL_CLMULNI_PRIORITY,
                      blocks=ffi.addressof(lib, blocks_function()), simd=True, module=MODULE_NAME)
    capi.crypto_register_shash(alg)
    ALGS.append(alg)


def module_exit() -> None:
    while ALGS:
        capi.crypto_unregister_shash(ALGS.pop())
