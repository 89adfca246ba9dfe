"""aes-aesni and the AES-NI mode drivers (arch/x86/crypto/aesni-intel_glue.c).

Module ``aesni_intel``; needs the AES-NI CPU feature (else ENODEV, nothing
registered).  v5.0's order: the ``aes-aesni`` cipher (priority 300; each
block in its own FPU section, the generic code when crypto_simd_usable() is
false; the descriptor is crypto_api.algs.aes_generic.aes_cipher_alg over
arch/x86/aesni.c), then the internal skciphers ``__ecb/__cbc/__ctr/__xts-
aes-aesni`` (400, XTS 401; aesni_modes_glue.py), then one SIMD wrapper each
(``ecb-aes-aesni`` ... ``xts-aes-aesni``, CRYPTO_ALG_ASYNC over cryptd,
crypto_api.simd); 6.16+ (rule ``aesni.modes_wrapping``) registers the public
``ecb-aes-aesni`` ... directly instead, synchronous, with no wrapper.  Beyond v5.0, wrapped the same way, with the names and
CPU checks of the kernels before 6.16 (aesni-intel_glue.c register_avx_algs): AVX gives
``xts-/ctr-aes-aesni-avx`` (500, on the AES-NI routines); VAES, VPCLMULQDQ, PCLMULQDQ and
AVX2 with the OS saving ymm state give ``xts-/ctr-aes-vaes-avx2`` (600);
AVX512BW, AVX512VL and BMI2 with zmm state as well give ``-vaes-avx10_256``
(700) and ``-vaes-avx10_512`` (800, or 1 on CPUs with prefer_ymm, which
downclock with 512-bit registers).  5.12 added ``cts-cbc-aes-aesni`` (400,
aesni_cts.py).  6.0 added ``xctr-aes-aesni`` (400, HCTR2's counter mode),
registered where AVX is usable; the glue with XCTR per generation (6.17 read)
has ``xctr-aes-aesni-avx`` (500), ``-vaes-avx2`` (600) and
``-vaes-avx10_512`` (800, the kernel's ``-vaes-avx512``) instead, each beside
its XTS and CTR twins.  Then the GCM AEADs where
the CPU also has PCLMULQDQ, the followed kernel's generations in its form
(v5.0's internal ``__driver-*`` under a hand-made wrapper; 5.4-6.15's
SIMD-wrapped internal algorithms; 6.16+'s direct registration):
aesni_gcm_generations.py over aesni_gcm_glue.py and aesni_gcm_wrapper.py.
"""

from __future__ import annotations

import attrs

import crypto_api as capi
from crypto_api.arch.x86.aesni_cpu import gcm_isa, has_vaes_avx2, has_vaes_avx10  # noqa: F401 (used by the glue and its tests)
from crypto_api.arch.x86.cpufeature import boot_cpu_has
from crypto_api.version_rules import rule

MODULE_ARCH = "x86_64"
MODULE_NAME = "aesni_intel"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO(
    "aes", "aes-aesni", "ecb(aes)", "cbc(aes)", "ctr(aes)", "xts(aes)",
    "ecb-aes-aesni", "cbc-aes-aesni", "ctr-aes-aesni", "xts-aes-aesni",
    "xts-aes-vaes-avx2", "ctr-aes-vaes-avx2", "xts-aes-vaes-avx10_256", "ctr-aes-vaes-avx10_256",
    "xts-aes-vaes-avx10_512", "ctr-aes-vaes-avx10_512", "xctr(aes)", "xctr-aes-aesni",
    "xts-aes-aesni-avx", "ctr-aes-aesni-avx", "xctr-aes-aesni-avx", "xctr-aes-vaes-avx2",
    "xctr-aes-vaes-avx10_512", "cts(cbc(aes))", "cts-cbc-aes-aesni",
    "gcm(aes)", "rfc4106(gcm(aes))", "generic-gcm-aesni", "rfc4106-gcm-aesni",
    *(f"{p}-{s}" for p in ("generic-gcm", "rfc4106-gcm")
      for s in ("aesni-avx", "vaes-avx2", "vaes-avx10_256", "vaes-avx10_512")))
ALGS = []
SKCIPHERS = []          # the mode skciphers: internal (up to 6.15) or, 6.16+, the public ones
WRAPPERS = []           # their SIMD wrappers (none 6.16+)
GCM = []                # the GCM AEADs in registration order (aesni_gcm_generations.py)


def avx_modes(m) -> list:
    """``__xts/__ctr-aes-aesni-avx`` (500) where AVX is usable (the 6.10+ glue's check),
    with ``xctr-aes-aesni-avx`` where the followed kernel has the XCTR generations."""
    if not boot_cpu_has("avx"):
        return []
    return [m.XTS_AVX, m.CTR_AVX] + ([m.XCTR_AVX] if xctr_generations() else [])


def vaes_modes(m) -> list:
    """The VAES internal modes this CPU gets, in the kernel's order."""
    if not has_vaes_avx2():
        return []
    gens = xctr_generations()
    modes = [m.XTS_VAES, m.CTR_VAES] + ([m.XCTR_VAES] if gens else [])
    if has_vaes_avx10():
        wide = [m.XTS_AVX10_512, m.CTR_AVX10_512] + ([m.XCTR_AVX10_512] if gens else [])
        if boot_cpu_has("prefer_ymm"):
            wide = [attrs.evolve(mode, priority=1) for mode in wide]
        modes += [m.XTS_AVX10_256, m.CTR_AVX10_256] + wide
    return modes


def xctr_generations() -> bool:
    """True where the followed kernel has an XCTR driver per generation (rule
    ``aesni.xctr_generations``: "one" before, "generations" in the 6.17 glue
    read; the composite registers both forms)."""
    return rule("aesni.xctr_generations", "both") != "one"


def xctr_modes(m) -> list:
    """6.0 registers ``__xctr-aes-aesni`` only where AVX is usable (its XCTR
    code has no SSE form); the kernels with the generations have none."""
    if rule("aesni.xctr_generations", "both") == "generations":
        return []
    return [m.XCTR] if boot_cpu_has("avx") and boot_cpu_has("xsave_ymm") else []


def register_gcm() -> None:
    """The followed kernel's AES-NI GCM AEADs (aesni_gcm_generations.py)."""
    from crypto_api.arch.x86 import aesni_gcm_generations
    aesni_gcm_generations.register(GCM)


def unregister_gcm() -> None:
    capi.crypto_unregister_aeads(list(reversed(GCM)))
    GCM.clear()


def module_init() -> None:
    capi.require_cpu(boot_cpu_has("aes"), "aes-aesni", "the CPU lacks AES-NI")
    from crypto_api.algs.aes_generic import aes_cipher_alg
    from crypto_api.arch.x86 import aesni_modes_glue as m
    from crypto_api.arch.x86.aesni_cts import CTS
    from crypto_api.arch.x86._aesni import ffi, lib
    from crypto_api.simd import simd_register_skciphers_compat, simd_unregister_skciphers
    ALGS[:] = [aes_cipher_alg("aes-aesni", 300, ffi, lib, "struct aesni_ctx *",
                              "aesni_setkey", "aesni_encrypt", "aesni_decrypt", simd=True)]
    capi.crypto_register_cipher(ALGS[0])
    modes = [m.ECB, m.CBC, CTS, m.CTR, m.XTS] + avx_modes(m) + vaes_modes(m) + xctr_modes(m)
    direct = rule("aesni.modes_wrapping", "simd") == "direct"
    skciphers = [(m.public_alg if direct else m.internal_alg)(mode) for mode in modes]
    try:
        if direct:
            capi.crypto_register_skciphers(skciphers)
            WRAPPERS[:] = []
        else:
            WRAPPERS[:] = simd_register_skciphers_compat(skciphers)
    except BaseException:
        capi.crypto_unregister_cipher(ALGS.pop())
        raise
    try:
        register_gcm()
    except BaseException:
        unregister_gcm()
        simd_unregister_skciphers(skciphers, WRAPPERS)
        WRAPPERS.clear()
        capi.crypto_unregister_cipher(ALGS.pop())
        raise
    SKCIPHERS[:] = skciphers


def module_exit() -> None:
    from crypto_api.simd import simd_unregister_skciphers
    unregister_gcm()
    simd_unregister_skciphers(SKCIPHERS, WRAPPERS)
    SKCIPHERS.clear()
    WRAPPERS.clear()
    capi.crypto_unregister_cipher(ALGS.pop())
