"""The x86 SHA-224/SHA-256 drivers of arch/x86/crypto/sha256_ssse3_glue.c
(module sha256_ssse3), each registered where the CPU has what it needs, in
the kernel's order:

====================  ========  ============================================
driver                priority  CPU check
====================  ========  ============================================
sha256/224-ssse3      150       SSSE3
sha256/224-avx        160       AVX with the OS saving ymm state
sha256/224-avx2       170       the AVX check, AVX2 and BMI2
sha256/224-ni         250       the SHA extensions (and SSSE3, its loads)
====================  ========  ============================================

so that ``sha256`` (and essiv's hash) is the best one.  The -ssse3/-avx/-avx2
block functions are one body built three ways (arch/x86/sha256_simd.c), -ni is
arch/x86/sha256_ni.c.  Each update runs inside an FPU section when the FPU is
usable, else through the generic block function (as the kernel's glue falls
back).  A CPU with none of them: ENODEV, nothing registered.  The CPU
checks of -ssse3/-avx/-avx2 are arch/x86/sha_variants.py's, shared with the
SHA-512 glue.
"""

from __future__ import annotations

from typing import Callable, List, Tuple

import crypto_api as capi
from crypto_api.arch.x86.cpufeature import boot_cpu_has
from crypto_api.arch.x86.sha_variants import SSSE3_AVX_AVX2

MODULE_ARCH = "x86_64"
MODULE_NAME = "sha256_ssse3"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO(
    "sha256", "sha224", "sha256-ssse3", "sha224-ssse3", "sha256-avx", "sha224-avx",
    "sha256-avx2", "sha224-avx2", "sha256-ni", "sha224-ni")
SHA256_NI_PRIORITY = 250
ALGS = []


# (suffix, priority, CPU check, block function name in _sha256_ni)
VARIANTS: List[Tuple[str, int, Callable[[], bool], str]] = [
    (suffix, prio, check, f"sha256_{suffix}_blocks") for suffix, prio, check in SSSE3_AVX_AVX2
] + [("ni", SHA256_NI_PRIORITY, lambda: boot_cpu_has("sha") and boot_cpu_has("ssse3"), "sha256_blocks_ni")]


def usable_variants() -> List[Tuple[str, int, str]]:
    """(suffix, priority, block function) of the drivers this CPU gets."""
    return [(suffix, prio, fn) for suffix, prio, check, fn in VARIANTS if check()]


def module_init() -> None:
    usable = usable_variants()
    capi.require_cpu(bool(usable), "sha256-ssse3", "the CPU lacks SSSE3, AVX, AVX2 and SHA-NI")
    from crypto_api.algs.sha256_generic import sha256_alg
    from crypto_api.arch.x86._sha256_ni import ffi, lib
    algs = []
    for suffix, prio, fn in usable:
        blocks = ffi.addressof(lib, fn)
        algs += [sha256_alg(name, f"{name}-{suffix}", prio, blocks, simd=True, module=MODULE_NAME)
                 for name in ("sha256", "sha224")]
    try:
        for a in algs:
            capi.crypto_register_shash(a)
            ALGS.append(a)
    except BaseException:
        module_exit()
        raise


def module_exit() -> None:
    while ALGS:
        capi.crypto_unregister_shash(ALGS.pop())
