"""poly1305-x86_64: Poly1305 with 64-bit limbs and 128-bit products (priority 200).

The v5.0 ``poly1305`` shash convention (no setkey; the first 32 bytes hashed
are r ‖ s) on the 64-bit-limb core of arch/x86/poly1305_x86_64.c, through the
generic descriptor code (crypto_api.algs.poly1305_generic.poly1305_alg).
It takes the place of arch/x86/crypto/poly1305_glue.c, whose v5.0 driver is
the SSE2/AVX2 ``poly1305-simd``.
"""

from __future__ import annotations

import platform

import crypto_api as capi

MODULE_ARCH = "x86_64"
MODULE_NAME = "poly1305_x86_64"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("poly1305", "poly1305-x86_64")
ALGS = []


def module_init() -> None:
    capi.require_cpu(platform.machine().lower() in ("x86_64", "amd64"), "poly1305-x86_64",
                     "not an x86_64 machine")
    from crypto_api.algs.poly1305_generic import poly1305_alg
    from crypto_api.arch.x86._poly1305_x86_64 import ffi, lib
    ALGS[:] = [poly1305_alg("poly1305-x86_64", 200, ffi.addressof(lib, "poly1305_x86_64_ops"))]
    capi.crypto_register_shash(ALGS[0])


def module_exit() -> None:
    capi.crypto_unregister_shash(ALGS.pop())
