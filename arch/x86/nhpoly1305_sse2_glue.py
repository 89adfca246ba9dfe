"""nhpoly1305-sse2 (arch/x86/crypto/nhpoly1305-sse2-glue.c): priority 200, needs SSE2."""

from __future__ import annotations

import crypto_api as capi
from crypto_api.arch.x86.cpufeature import boot_cpu_has

MODULE_ARCH = "x86_64"
MODULE_NAME = "nhpoly1305_sse2"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("nhpoly1305", "nhpoly1305-sse2")
ALGS = []


def module_init() -> None:
    capi.require_cpu(boot_cpu_has("sse2"), "nhpoly1305-sse2", "the CPU lacks SSE2")
    from crypto_api.arch.x86._nh_sse2 import ffi, lib
    from crypto_api.arch.x86.nhpoly1305_simd import make_alg
    ALGS[:] = [make_alg("nhpoly1305-sse2", 200, ffi.addressof(lib, "nh_sse2"))]
    capi.crypto_register_shash(ALGS[0])


def module_exit() -> None:
    capi.crypto_unregister_shash(ALGS.pop())
