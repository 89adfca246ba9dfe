"""The kernel-version table's rows for the arm machine's drivers.

No kernel counterpart: the facts of the kernel's arm crypto drivers per
version (the sources named in each row); crypto_api.kernels.table collects
these with the generic rows and the other machines'.
"""

from __future__ import annotations

from crypto_api.kernels.row import ARCHES, CHACHA, LIB6X, MODES, DeviceTable, Row, chacha_arch, drivers
from crypto_api.kernels.row import Rule

ARM = ("arm",)

#: arm's aes-ce glue (arch/arm/crypto/aes-ce-glue.c) as read, by range
CE50 = (f"arch/arm/crypto/aes-ce-glue.c @5.0 ({ARCHES} §2.1: internal __ecb/__cbc/__ctr/__xts(aes) plus "
        "SIMD wrappers); the 5.4 series' diffs show the pre-5.4 glue")
CE54 = ("'[GIT PULL] Crypto Update for 5.4' (Herbert Xu, 2019-09-16) lists 'arm/aes-ce - provide a "
        "synchronous version of ctr(aes)', '- implement ciphertext stealing for XTS', '- implement "
        "ciphertext stealing for CBC'; a 5.4-era aes-ce-glue.c (torvalds/linux blob, still with "
        "CRYPTO_TFM_RES_BAD_KEY_LEN) read: __cts-cbc-aes-ce and __xts-aes-ce walksize 32, ctr-aes-ce-sync 300 - 1")
CE616 = ("'crypto: arm/aes-ce - stop using the SIMD helper' (Ard Biesheuvel, posted 2025-04-02), listed in "
         "'[GIT PULL] Crypto Update for 6.16': the modes registered directly under the public names, "
         "ctr-aes-ce-sync removed")
CE_UNKNOWN = "6.17-6.19 not read in a tree (assumed as 6.16; 6.19's scoped_ksimd changes no name)"

#: This file's rows of the table.
ROWS = tuple(
    [Row("driver", ARM, "5.0", "7.0", "aes", "aes-arm", "aes-arm", 200, "aes_arm",
           f"arch/arm/crypto/aes-cipher-glue.c @5.0-6.19 ({ARCHES} §2.1)"),
       Row("driver", ARM, "5.0", "7.0", "nhpoly1305", "nhpoly1305-neon", "nhpoly1305-neon", 200,
           "nhpoly1305_neon", f"arch/arm/crypto/nhpoly1305-neon-glue.c @5.0-6.19 ({ARCHES} §2.1)")]
    + [Row("driver", ARM, since, "6.16", f"__{name}", f"__{stem}-aes-ce", f"__{stem}-aes-ce", 300, "aes_arm_ce",
           src, note="internal (CRYPTO_ALG_INTERNAL), under its SIMD wrapper")
       for stem, name, since, src in (("ecb", "ecb(aes)", "5.0", CE50), ("cbc", "cbc(aes)", "5.0", CE50),
                                      ("cts-cbc", "cts(cbc(aes))", "5.4", CE54), ("ctr", "ctr(aes)", "5.0", CE50),
                                      ("xts", "xts(aes)", "5.0", CE50))]
    + [Row("driver", ARM, since, None, name, f"{stem}-aes-ce", f"{stem}-aes-ce", 300, "aes_arm_ce",
           f"{src}; {CE616}", unknown=CE_UNKNOWN,
           note="up to 6.15 the SIMD wrapper (async, cryptd where SIMD is unusable) over __"
                f"{stem}-aes-ce; 6.16+ registered directly (sync)")
       for stem, name, since, src in (("ecb", "ecb(aes)", "5.0", CE50), ("cbc", "cbc(aes)", "5.0", CE50),
                                      ("cts-cbc", "cts(cbc(aes))", "5.4", CE54), ("ctr", "ctr(aes)", "5.0", CE50),
                                      ("xts", "xts(aes)", "5.0", CE50))]
    + [Row("driver", ARM, "5.4", "6.16", "ctr(aes)", "ctr-aes-ce-sync", "ctr-aes-ce-sync", 299, "aes_arm_ce",
           f"{CE54}; {CE616}",
           note="synchronous, not internal: NEON where SIMD is usable, else the AES library per block "
                "(here the generic AES C)")]
    + chacha_arch(ARM, "-neon", "chacha_neon", "-neon",
                   f"arch/arm/crypto/chacha-neon-glue.c @5.0-5.4, chacha-glue.c @5.5-6.15 ({ARCHES} §2.1)",
                   "arm", f"crypto/chacha.c @6.16-6.17 ({ARCHES} §2.1, §2.5)",
                   f"crypto/chacha.c @6.18-6.19 over lib/crypto/arm/chacha.h ({ARCHES} §2.1, §2.5)")
)

#: What the table does not cover on this machine (the fidelity page lists it).
NOT_MODELLED = (
    "drivers the kernel has and this project does not register: the *-arm scalar ChaCha (200, "
    "5.5-6.15), poly1305-arm and poly1305-neon (5.5-6.15), and aes-neonbs (ecb/cbc/ctr/xts-aes-neonbs, "
    "250, and 5.4-6.15's ctr-aes-neonbs-sync)",
    "aes-ce (aes_arm_ce): the kernel's 4-block interleave of aes-ce-core.S (5.4+) is not modelled: the "
    "core runs one block at a time, the same bytes; XTS leaves the next tweak in the request's IV as "
    "the kernel's walk does, which no test compares with a kernel",
    "5.5+: the NEON ChaCha priority 0 on Cortex-A5/A7, and 6.16+'s ChaCha library running only the "
    "scalar code there: the emulated Cortex-A7 runs the NEON code",
    "6.16+: the ChaCha library's scalar arm code (64 bytes or less, or NEON not usable): here the "
    "generic C, the same bytes",
)

#: The modules a booted system has loaded before any lookup (module_cpu_feature_match).
DEVICE_TABLES = (
    DeviceTable("aes_arm_ce", ARM, "5.0", None, ("aes",),
                f"arch/arm/crypto/aes-ce-glue.c: module_cpu_feature_match(AES, aes_init) ({ARCHES} §0.5); "
                "no MODULE_ALIAS_CRYPTO in the 5.4-era file read", unknown=CE_UNKNOWN),
)

#: The glue's rules on this machine that changed by version (crypto_api.version_rules).
RULES = (
    Rule("arm_aes_ce.sections", ARM, "5.0", "5.4", "request",
         "aes-ce modes: an atomic walk inside one kernel_neon_begin/end around the whole request",
         "'crypto: arm/aes-ce - yield the SIMD unit between scatterwalk steps' (posted 2019-08-21; its "
         "diff shows the earlier glue), in '[GIT PULL] Crypto Update for 5.4'"),
    Rule("arm_aes_ce.sections", ARM, "5.4", None, "step",
         "aes-ce modes: a walk that may sleep, one kernel_neon_begin/end per step; a CTR tail and the "
         "XTS/CTS stealing in sections of their own", f"{CE54}; the 6.16 diff keeps the walks",
         unknown=CE_UNKNOWN),
    Rule("arm_aes_ce.xts_stealing", ARM, "5.0", "5.4", "none",
         "xts-aes-ce: whole blocks only (a partial block fails the walk: EINVAL)", CE50),
    Rule("arm_aes_ce.xts_stealing", ARM, "5.4", None, "stealing",
         "xts-aes-ce: ciphertext stealing for lengths of 16 bytes or more; walksize 32", CE54,
         unknown=CE_UNKNOWN),
    Rule("arm_aes_ce.wrapping", ARM, "5.0", "6.16", "simd",
         "aes-ce modes as internal __ algorithms under SIMD wrappers (async, cryptd where SIMD is unusable)",
         f"{CE50}; {CE54}"),
    Rule("arm_aes_ce.wrapping", ARM, "6.16", None, "direct",
         "aes-ce modes registered directly: synchronous, not internal, no wrapper, no ctr-aes-ce-sync",
         CE616, unknown=CE_UNKNOWN),
    Rule("chacha.sections", ARM, "5.0", "5.5", "request",
         "chacha_neon: 64 bytes or less, or no SIMD when the request starts, run the generic code for the "
         "whole request; else one kernel_neon_begin/end per walk step, XChaCha's HChaCha in one of its own",
         f"arch/arm/crypto/chacha-neon-glue.c @5.0-5.4 ({ARCHES} §2.3)"),
    Rule("chacha.sections", ARM, "5.5", "6.16", "request_any",
         "chacha_neon: SIMD decided once per request, any length (no 64-byte shortcut); one "
         "kernel_neon_begin/end per walk step (stride 256); without SIMD the whole request runs the "
         "generic code",
         f"arch/arm/crypto/chacha-glue.c @5.5-6.15 ({ARCHES} §2.4)"),
    Rule("chacha.sections", ARM, "6.16", None, "library",
         "crypto/chacha.c over the arm ChaCha library: walk stride 64; per step, 64 bytes or less or NEON "
         "not usable run the scalar code, longer steps NEON pieces of at most 4096 bytes, each its own "
         "kernel_neon_begin/end; XChaCha's HChaCha NEON in a section of its own where NEON is usable",
         f"crypto/chacha.c, lib/crypto/arm/chacha.h (chacha_crypt_arch) @6.16-6.19 ({ARCHES} §2.4, §2.5)",
         unknown="6.16-6.17 from the pull requests and the moved file's mirror copy (no release tree read)"),
    Rule("chacha.registers", ARM, "6.16", None, "always",
         "the arch ChaCha drivers (*-arm, then *-lib) register on every CPU: arm's "
         "chacha_is_arch_optimized() is always true (the scalar code)",
         f"crypto/chacha.c, lib/crypto/arm/chacha.h @6.16-6.19 ({ARCHES} §2.1)"),
)
