"""Module ghash_clmulni_intel: ``ghash-clmulni`` (priority 400), GHASH on
PCLMULQDQ (arch/x86/crypto/ghash-clmulni-intel_glue.c, v5.0).

The block function is arch/x86/ghash_clmul.c; the key, the descriptor
state and the partial-block handling are the generic core's
(crypto_api.algs.ghash_generic.ghash_alg), so both drivers give the same
bytes.  Each update runs in one FPU section, and so does a final that has a
partial block to multiply in, when the FPU model allows; otherwise the
generic block function does the work.  v5.0 registers ``ghash-clmulni`` as
an asynchronous ahash over an internal shash (``__ghash-pclmulqdqni``) that
defers to cryptd when the FPU is not usable; this project has no ahash type,
so the driver is that internal shash under the public name with the
generic fallback, as the sha256 glue does.  It loads with the other
modules of the alias ``ghash`` (the kernel also loads it at boot from its
CPU device table, which the x86 machine here does not model); a CPU
without PCLMULQDQ: ENODEV.
"""

from __future__ import annotations

import platform

import crypto_api as capi
from crypto_api.arch.x86.cpufeature import boot_cpu_has

MODULE_ARCH = "x86_64"
MODULE_NAME = "ghash_clmulni_intel"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("ghash", "ghash-clmulni")
PRIORITY = 400
ALGS = []


def module_init() -> None:
    capi.require_cpu(platform.machine().lower() in ("x86_64", "amd64"), "ghash-clmulni",
                     "not an x86_64 machine")
    capi.require_cpu(boot_cpu_has("pclmulqdq") and boot_cpu_has("ssse3"), "ghash-clmulni",
                     "the CPU lacks PCLMULQDQ or SSSE3")
    from crypto_api.algs.ghash_generic import ghash_alg
    from crypto_api.arch.x86._ghash_clmul import ffi, lib
    ALGS[:] = [ghash_alg("ghash-clmulni", PRIORITY, ffi.addressof(lib, "ghash_blocks_clmul"),
                         simd=True, module=MODULE_NAME)]
    for alg in ALGS:
        capi.crypto_register_shash(alg)


def module_exit() -> None:
    while ALGS:
        capi.crypto_unregister_shash(ALGS.pop())
