"""The kernel-version table's rows for the ppc64le machine's drivers.

No kernel counterpart: the facts of the kernel's ppc64le crypto drivers per
version (the sources named in each row); crypto_api.kernels.table collects
these with the generic rows and the other machines'.
"""

from __future__ import annotations

from crypto_api.kernels.row import ARCHES, CHACHA, LIB6X, MODES, DeviceTable, Row, Rule, chacha_arch, drivers

PPC = ("ppc64le",)

#: This file's rows of the table.
ROWS = tuple(
    [Row("driver", PPC, "5.0", None, "aes", "p8_aes", "p8_aes", 1000, "vmx_crypto",
           f"drivers/crypto/vmx/aes.c (arch/powerpc/crypto from 6.8-6.13) ({ARCHES} §3.1)"),
       Row("driver", PPC, "6.5", "6.16", "poly1305", "poly1305-p10", "poly1305-p10", 300, "poly1305_p10_crypto",
           f"arch/powerpc/crypto/poly1305-p10-glue.c @6.5-6.15 ({ARCHES} §3.3)")]
    + chacha_arch(PPC, "-p10", "chacha_p10_crypto", "-p10",
                   f"arch/powerpc/crypto/chacha-p10-glue.c @6.5-6.15 ({ARCHES} §3.2)",
                   "powerpc", f"crypto/chacha.c @6.16-6.17 ({ARCHES} §3.5)",
                   f"crypto/chacha.c @6.18-6.19 over lib/crypto/powerpc/chacha.h ({ARCHES} §3.5)", since="6.5")
    + drivers(CHACHA, "-vsx-4way", "-vsx-4way", machines=PPC, since="5.0", until=None, priority=50,
               module="chacha_vsx_4way", source="no kernel counterpart (arch/ppc64le/chacha_vsx4_glue.py)",
               status="project", note="the seed's POWER8 design, below every kernel ChaCha (50)")
)

#: The modules a booted system has loaded before any lookup (udev's coldplug
#: of the CPU device table that module_cpu_feature_match adds); this project's
#: modules say the same with MODULE_CPU_FEATURE, coldplugged in every mode.
DEVICE_TABLES = (
    DeviceTable("vmx_crypto", PPC, "5.0", None, ("vcrypto",),
                f"drivers/crypto/vmx/vmx.c: module_cpu_feature_match(PPC_MODULE_FEATURE_VEC_CRYPTO) ({ARCHES} §3.1)"),
    DeviceTable("poly1305_p10_crypto", PPC, "6.5", "6.16", ("arch_3_1",),
                f"arch/powerpc/crypto/poly1305-p10-glue.c: module_cpu_feature_match(PPC_MODULE_FEATURE_P10) ({ARCHES} §3.3)"),
    DeviceTable("chacha_p10_crypto", PPC, "6.5", "6.9", ("arch_3_1",),
                f"arch/powerpc/crypto/chacha-p10-glue.c @6.5-6.8: module_cpu_feature_match(PPC_MODULE_FEATURE_P10); "
                f"plain module_init from 6.9 ({ARCHES} §3.2)",
                unknown="whether 6.6.y took the March 2024 fix (the table says 6.6 has the device table); "
                        "the lookup of chacha20 loads it by its alias anyway"),
)

#: What the table does not cover on this machine (the fidelity page lists it).
NOT_MODELLED = (
    "drivers the kernel has and this project does not register: p8_aes_cbc, p8_aes_ctr, "
    "p8_aes_xts, p8_ghash",
)

#: The glue's rules on this machine that changed by version (crypto_api.version_rules).
RULES = (
    Rule("chacha.sections", PPC, "6.16", None, "library",
         "crypto/chacha.c over the powerpc ChaCha library: walk stride 64; per step, 64 bytes or less, no "
         "POWER10 or no SIMD run the generic code, longer steps P10_DO pieces of at most 4096 bytes, each "
         "its own VSX section; HChaCha always the generic code",
         f"crypto/chacha.c, lib/crypto/powerpc/chacha.h (chacha_crypt_arch) @6.16-6.19 ({ARCHES} §3.2, §3.5)",
         unknown="6.16-6.17 from the pull requests (no release tree read)"),
)
