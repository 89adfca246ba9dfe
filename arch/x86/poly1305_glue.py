"""Module poly1305_x86_64: ``poly1305-simd`` (priority 300) and ``poly1305-x86_64`` (200).

v5.0's module of this name (arch/x86/crypto/poly1305_glue.c) registers
``poly1305-simd``, the SSE2/AVX2 radix-2^26 code (arch/x86/poly1305_simd_glue.py),
and fails with ENODEV on a CPU without SSE2.  Where the CPU has AVX-512F and
AVX512_IFMA (and the OS saves ZMM state) poly1305-simd also runs a project
addition beyond the kernel: 16-block steps in radix 2^44 (arch/x86/poly1305_ifma.c).  Beyond v5.0 it also registers
``poly1305-x86_64``: the v5.0 ``poly1305`` shash convention (no setkey; the
first 32 bytes hashed are r ‖ s) on the 64-bit-limb core of
arch/x86/poly1305_x86_64.c, through the generic descriptor code
(crypto_api.algs.poly1305_generic.poly1305_alg).  Its priority stays below
poly1305-simd's so that ``poly1305`` resolves to poly1305-simd as in v5.0,
and ``rfc7539(chacha20,poly1305)`` to ``rfc7539(chacha20-simd,poly1305-simd)``.
"""

from __future__ import annotations

import platform

import crypto_api as capi
from crypto_api.arch.x86.cpufeature import boot_cpu_has

MODULE_ARCH = "x86_64"
MODULE_NAME = "poly1305_x86_64"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("poly1305", "poly1305-simd", "poly1305-x86_64")
ALGS = []


class impl:
    """The widest poly1305-simd block code chosen at module init."""

    name = ""


def module_init() -> None:
    capi.require_cpu(platform.machine().lower() in ("x86_64", "amd64"), "poly1305-simd",
                     "not an x86_64 machine")
    capi.require_cpu(boot_cpu_has("sse2"), "poly1305-simd", "the CPU lacks SSE2")
    from crypto_api.algs.poly1305_generic import poly1305_alg
    from crypto_api.arch.x86 import poly1305_simd_glue as simd
    from crypto_api.arch.x86._poly1305_x86_64 import ffi, lib
    use_avx2 = boot_cpu_has("avx") and boot_cpu_has("avx2") and boot_cpu_has("xsave_ymm")
    use_ifma = use_avx2 and all(boot_cpu_has(f) for f in ("avx512f", "avx512ifma", "xsave_zmm"))
    impl.name = "avx512ifma" if use_ifma else "avx2" if use_avx2 else "sse2"
    isa = simd.ISA_IFMA if use_ifma else simd.ISA_AVX2 if use_avx2 else simd.ISA_SSE2
    ALGS[:] = [simd.make_alg(isa),
               poly1305_alg("poly1305-x86_64", 200, ffi.addressof(lib, "poly1305_x86_64_ops"))]
    for alg in ALGS:
        capi.crypto_register_shash(alg)


def module_exit() -> None:
    while ALGS:
        capi.crypto_unregister_shash(ALGS.pop())
