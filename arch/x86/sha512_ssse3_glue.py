"""The x86 SHA-384/SHA-512 drivers of arch/x86/crypto/sha512_ssse3_glue.c
(module sha512_ssse3, Linux 5.0-6.16), each registered where the CPU has
what it needs, in the kernel's order:

====================  ========  ============================================
driver                priority  CPU check (arch/x86/sha_variants.py)
====================  ========  ============================================
sha512/384-ssse3      150       SSSE3
sha512/384-avx        160       AVX with the OS saving ymm state
sha512/384-avx2       170       the AVX check, AVX2 and BMI2
====================  ========  ============================================

so that ``sha512``, ``sha384`` and ``hmac(sha512)`` get the best one.  The
block functions: arch/x86/sha512_simd.c (-ssse3 and -avx, a 128-bit message
schedule built twice) and arch/x86/sha512_avx2.c (two blocks per 256-bit
schedule).  The descriptor is the generic one (struct sha512_state), so
either path may continue the other's state.  ``tfm.digest`` of a
contiguous buffer is one C call (sha512_digest_call, the same rule).

The glue's FPU rule: an update that does not complete a block, or any call
where SIMD is not usable, is the generic code with no FPU section; any
other update, and each final/finup, is one kernel_fpu_begin/end section
(algs/simd_blocks.py).  A CPU with none of the three: ENODEV, nothing
registered (the x86_match_cpu refusal of the 6.2+ glue; before it, the
module loaded with nothing registered, which no lookup tells apart).
"""

from __future__ import annotations

from typing import List, Tuple

import crypto_api as capi
from crypto_api.algs import sha512_generic as generic
from crypto_api.algs.simd_blocks import block_runner
from crypto_api.arch.x86.sha_variants import SSSE3_AVX_AVX2

MODULE_ARCH = "x86_64"
MODULE_NAME = "sha512_ssse3"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO(
    "sha512", "sha512-ssse3", "sha512-avx", "sha512-avx2",
    "sha384", "sha384-ssse3", "sha384-avx", "sha384-avx2")
ALGS = []


def usable_variants() -> List[Tuple[str, int]]:
    """(suffix, priority) of the drivers this CPU gets."""
    return [(suffix, prio) for suffix, prio, check in SSSE3_AVX_AVX2 if check()]


def sha512_x86_alg(name: str, suffix: str, priority: int, blocks) -> capi.ShashAlg:
    """``<name>-<suffix>`` (name ``sha512`` or ``sha384``) over the x86 block
    function ``blocks`` (a cffi pointer of the sha512_blocks_fn type), a
    section per update/final where the FPU may be used (the glue's rule)."""
    return generic.sha512_alg(name, f"{name}-{suffix}", priority, blocks,
                              block_runner(True, blocks, generic.GENERIC_BLOCKS), module=MODULE_NAME)


def module_init() -> None:
    usable = usable_variants()
    capi.require_cpu(bool(usable), "sha512-ssse3", "the CPU lacks SSSE3, AVX and AVX2")
    from crypto_api.arch.x86._sha512_x86 import ffi as x86_ffi, lib as x86_lib
    algs = [sha512_x86_alg(name, suffix, prio, x86_ffi.addressof(x86_lib, f"sha512_{suffix}_blocks"))
            for suffix, prio in usable for name in ("sha512", "sha384")]
    capi.crypto_register_shashes(algs)          # all or none, as the glue's crypto_register_shashes
    ALGS[:] = algs


def module_exit() -> None:
    capi.crypto_unregister_shashes(ALGS)
    ALGS.clear()
