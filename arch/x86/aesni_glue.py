"""aes-aesni and the AES-NI mode drivers (arch/x86/crypto/aesni-intel_glue.c).

Module ``aesni_intel``; needs the AES-NI CPU feature (else ENODEV, nothing
registered).  v5.0's order: the ``aes-aesni`` cipher (priority 300; each
block in its own FPU section, the generic code when crypto_simd_usable() is
false; the descriptor is crypto_api.algs.aes_generic.aes_cipher_alg over
arch/x86/aesni.c), then the internal skciphers ``__ecb/__cbc/__ctr/__xts-
aes-aesni`` (400, XTS 401; aesni_modes_glue.py), then one SIMD wrapper each
(``ecb-aes-aesni`` ... ``xts-aes-aesni``, CRYPTO_ALG_ASYNC over cryptd,
crypto_api.simd).  Beyond v5.0, a CPU with VAES and AVX2 (and the OS saving
ymm state) also gets ``xts-aes-vaes-avx2`` and ``ctr-aes-vaes-avx2`` (600,
as the later kernels name them), wrapped the same way.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.arch.x86.cpufeature import boot_cpu_has

MODULE_ARCH = "x86_64"
MODULE_NAME = "aesni_intel"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO(
    "aes", "aes-aesni", "ecb(aes)", "cbc(aes)", "ctr(aes)", "xts(aes)",
    "ecb-aes-aesni", "cbc-aes-aesni", "ctr-aes-aesni", "xts-aes-aesni",
    "xts-aes-vaes-avx2", "ctr-aes-vaes-avx2")
ALGS = []
SKCIPHERS = []          # the internal algorithms
WRAPPERS = []           # their SIMD wrappers


def has_vaes_avx2() -> bool:
    return boot_cpu_has("vaes") and boot_cpu_has("avx2") and boot_cpu_has("xsave_ymm")


def module_init() -> None:
    capi.require_cpu(boot_cpu_has("aes"), "aes-aesni", "the CPU lacks AES-NI")
    from crypto_api.algs.aes_generic import aes_cipher_alg
    from crypto_api.arch.x86 import aesni_modes_glue as m
    from crypto_api.arch.x86._aesni import ffi, lib
    from crypto_api.simd import simd_register_skciphers_compat
    ALGS[:] = [aes_cipher_alg("aes-aesni", 300, ffi, lib, "struct aesni_ctx *",
                              "aesni_setkey", "aesni_encrypt", "aesni_decrypt", simd=True)]
    capi.crypto_register_cipher(ALGS[0])
    modes = [m.ECB, m.CBC, m.CTR, m.XTS] + ([m.XTS_VAES, m.CTR_VAES] if has_vaes_avx2() else [])
    internal = [m.internal_alg(mode) for mode in modes]
    try:
        WRAPPERS[:] = simd_register_skciphers_compat(internal)
    except BaseException:
        capi.crypto_unregister_cipher(ALGS.pop())
        raise
    SKCIPHERS[:] = internal


def module_exit() -> None:
    from crypto_api.simd import simd_unregister_skciphers
    simd_unregister_skciphers(SKCIPHERS, WRAPPERS)
    SKCIPHERS.clear()
    WRAPPERS.clear()
    capi.crypto_unregister_cipher(ALGS.pop())
