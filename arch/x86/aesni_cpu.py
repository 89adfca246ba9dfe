"""The x86 CPU checks the AES-NI glue makes (arch/x86/crypto/aesni-intel_glue.c's
module init): which VAES forms this CPU runs and which GCM core the kernels
with one GCM driver pair picked.  Shared by aesni_glue.py and
aesni_gcm_generations.py."""

from __future__ import annotations

from crypto_api.arch.x86.cpufeature import boot_cpu_has


def has_vaes_avx2() -> bool:
    # AVX first: the 6.10+ glue registers none of its AVX and VAES drivers without it
    return all(boot_cpu_has(f) for f in ("avx", "avx2", "vaes", "vpclmulqdq", "pclmulqdq", "xsave_ymm"))


def has_vaes_avx10() -> bool:
    # the kernel's checks, and AVX512F, which the C targets name
    return has_vaes_avx2() and all(boot_cpu_has(f) for f in ("avx512f", "avx512bw", "avx512vl",
                                                               "bmi2", "xsave_zmm"))


def gcm_isa() -> str:
    """The GCM core's form for this CPU (aesni_gcm_glue.ISA_NAMES) in the
    kernels with one GCM driver pair (up to 6.10, whose glue picked its code
    by CPU): the 512-bit one with the VAES avx10 drivers' CPU (not where
    256-bit vectors are preferred), the 256-bit VAES one, else AES-NI with
    PCLMULQDQ."""
    if has_vaes_avx10() and not boot_cpu_has("prefer_ymm"):
        return "avx512"
    return "vaes-avx2" if has_vaes_avx2() else "aesni"
