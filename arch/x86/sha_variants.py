"""The drivers that the kernel's x86 SHA-256 and SHA-512 glue both register
(arch/x86/crypto/sha256_ssse3_glue.c and sha512_ssse3_glue.c, 5.x): the
suffix, the priority and the CPU check of each, in the glue's order.

=======  ========  ==============================================
suffix   priority  CPU check
=======  ========  ==============================================
ssse3    150       SSSE3
avx      160       AVX with the OS saving the ymm state
avx2     170       the AVX check, AVX2 and BMI2
=======  ========  ==============================================
"""

from __future__ import annotations

from typing import Callable, Tuple

from crypto_api.arch.x86.cpufeature import boot_cpu_has


def avx_usable() -> bool:
    """The glue's avx_usable(): AVX, and the ymm state in XCR0."""
    return boot_cpu_has("avx") and boot_cpu_has("xsave_ymm")


def avx2_usable() -> bool:
    """The glue's avx2_usable(): the AVX check, AVX2 and BMI2 (RORX)."""
    return avx_usable() and boot_cpu_has("avx2") and boot_cpu_has("bmi2")


#: (suffix, priority, CPU check) of each driver both modules register.
SSSE3_AVX_AVX2: Tuple[Tuple[str, int, Callable[[], bool]], ...] = (
    ("ssse3", 150, lambda: boot_cpu_has("ssse3")),
    ("avx", 160, avx_usable),
    ("avx2", 170, avx2_usable),
)
