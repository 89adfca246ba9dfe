"""sha256-ni and sha224-ni (arch/x86/crypto/sha256_ssse3_glue.c, module
sha256_ssse3): priority 250, on the SHA extensions; the kernel module's
SSSE3/AVX/AVX2 assembler variants (150/160/170) are not built here.  Each
update runs inside an FPU section when the FPU is usable, else through the
generic block function (as the kernel's glue falls back)."""

from __future__ import annotations

import crypto_api as capi
from crypto_api.arch.x86.cpufeature import boot_cpu_has

MODULE_ARCH = "x86_64"
MODULE_NAME = "sha256_ssse3"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("sha256", "sha224", "sha256-ni", "sha224-ni")
SHA256_NI_PRIORITY = 250
ALGS = []


def module_init() -> None:
    capi.require_cpu(boot_cpu_has("sha") and boot_cpu_has("ssse3"),
                     "sha256-ni", "the CPU lacks the SHA extensions")
    from crypto_api.algs.sha256_generic import sha256_alg
    from crypto_api.arch.x86._sha256_ni import ffi, lib
    blocks = ffi.addressof(lib, "sha256_blocks_ni")
    ALGS[:] = [sha256_alg("sha224", "sha224-ni", SHA256_NI_PRIORITY, blocks, simd=True, module=MODULE_NAME),
               sha256_alg("sha256", "sha256-ni", SHA256_NI_PRIORITY, blocks, simd=True, module=MODULE_NAME)]
    for a in ALGS:
        capi.crypto_register_shash(a)


def module_exit() -> None:
    while ALGS:
        capi.crypto_unregister_shash(ALGS.pop())
