"""nhpoly1305-avx2 (arch/x86/crypto/nhpoly1305-avx2-glue.c): priority 300, needs AVX2 and OS YMM state."""

from __future__ import annotations

import crypto_api as capi
from crypto_api.arch.x86.cpufeature import boot_cpu_has

MODULE_ARCH = "x86_64"
MODULE_NAME = "nhpoly1305_avx2"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("nhpoly1305", "nhpoly1305-avx2")
ALGS = []


def module_init() -> None:
    capi.require_cpu(boot_cpu_has("avx2") and boot_cpu_has("xsave_ymm"),
                     "nhpoly1305-avx2", "the CPU lacks AVX2 or the OS does not save YMM state")
    from crypto_api.arch.x86._nh_avx2 import ffi, lib
    from crypto_api.arch.x86.nhpoly1305_simd import make_alg
    ALGS[:] = [make_alg("nhpoly1305-avx2", 300, ffi.addressof(lib, "nh_avx2"))]
    capi.crypto_register_shash(ALGS[0])


def module_exit() -> None:
    capi.crypto_unregister_shash(ALGS.pop())
