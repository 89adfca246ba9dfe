"""The kernel-version table's rows for the arm64 machine's drivers.

No kernel counterpart: the facts of the kernel's arm64 crypto drivers per
version (the sources named in each row); crypto_api.kernels.table collects
these with the generic rows and the other machines'.
"""

from __future__ import annotations

from crypto_api.kernels.row import ARCHES, CHACHA, LIB6X, MODES, DeviceTable, Row, chacha_arch, drivers
from crypto_api.kernels.row import Rule

ARM64 = ("arm64",)

#: The sources of the aes-glue.c mode rows (arch/arm64/aes_blk_modes.py).
BLK50 = "arch/arm64/crypto/aes-glue.c @5.0 (YueweiJin/runninglinuxkernel_5.0 read: aes_algs[], aes_init)"
BLK511 = ("arch/arm64/crypto/aes-glue.c of a 5.11-5.13 tree read through the code index (it includes "
          "crypto/sha2.h, 5.11+, and still creates the SIMD wrappers): XTS with stealing, walksize 32; "
          "__essiv-cbc-aes-sha256-<MODE> at PRIO + 1")
BLK_DIRECT = ("'crypto: arm64/aes-ce - stop using SIMD helper for skciphers' (Ard Biesheuvel, v6 posted "
              "2021-05-26, lore 20210526100729.12939-4-ardb): every mode registered directly, the "
              "synchronous ctr-aes-<MODE> fallback removed; 6.x trees read through the code index have the "
              "plain names beside xctr-aes-<MODE>")
BLK_DIRECT_UNKNOWN = ("the release that dropped the SIMD wrappers: 5.14 inferred from the posting date "
                      "(after the 5.13 fpsimd change it builds on); no 5.14 or 5.15 tree read")
BLK_STEAL_UNKNOWN = ("the release of XTS ciphertext stealing and of the ESSIV driver in aes-glue.c: 5.4 "
                     "inferred (the essiv template is 5.4's; the patches were posted in August-September "
                     "2019; present in the 5.11+ tree read, absent from v5.0); no 5.4 tree read")
#: (cra_name, driver stem, first release, priority over the build's) of each mode
BLK_MODES = (("ecb(aes)", "ecb-aes", "5.0", 0), ("cbc(aes)", "cbc-aes", "5.0", 0),
             ("ctr(aes)", "ctr-aes", "5.0", 0), ("xts(aes)", "xts-aes", "5.0", 0),
             ("cts(cbc(aes))", "cts-cbc-aes", "5.0", 0),
             ("essiv(cbc(aes),sha256)", "essiv-cbc-aes-sha256", "5.4", 1))

#: This file's rows of the table.
ROWS = tuple(
    [Row("driver", ARM64, "5.0", "7.0", "aes", "aes-arm64", "aes-arm64", 200, "aes_arm64",
           f"arch/arm64/crypto/aes-cipher-glue.c @5.0-6.19 ({ARCHES} §1.1)"),
       Row("driver", ARM64, "5.0", "7.0", "aes", "aes-ce", "aes-ce", 250, "aes_ce_cipher",
           f"arch/arm64/crypto/aes-ce-glue.c @5.0-6.19 ({ARCHES} §1.1)")]
    + chacha_arch(ARM64, "-neon", "chacha_neon", "-neon",
                   f"arch/arm64/crypto/chacha-neon-glue.c @5.0-6.15 ({ARCHES} §1.1)",
                   "arm64", f"crypto/chacha.c @6.16-6.17 ({ARCHES} §1.1)",
                   f"crypto/chacha.c @6.18-6.19 over lib/crypto/arm64/chacha.h ({ARCHES} §1.1, §1.7)")
    + drivers(CHACHA, "-neon-4way", "-neon-4way", machines=ARM64, since="5.0", until=None, priority=200,
               module="chacha_neon_4way", source="no kernel counterpart (arch/arm64/chacha_neon4_glue.py)",
               status="project", note="the seed's 4-block design, below the kernel's 300")
    + [Row("driver", ARM64, "5.0", "7.0", "nhpoly1305", "nhpoly1305-neon", "nhpoly1305-neon", 200,
           "nhpoly1305_neon", f"arch/arm64/crypto/nhpoly1305-neon-glue.c @5.0-6.19 ({ARCHES} §1.1)"),
       Row("driver", ARM64, "5.5", "6.16", "poly1305", "poly1305-neon", "poly1305-neon", 200, "poly1305_neon",
           f"arch/arm64/crypto/poly1305-glue.c @5.5-6.15 ({ARCHES} §1.1, §1.10)")]
    + [Row("driver", ARM64, "5.0", None, f"{pre}(chacha20,poly1305)", f"{pre}-chacha20poly1305-neon",
           f"{pre}-chacha20poly1305-neon", 400, "chacha20poly1305_neon",
           "no kernel counterpart (arch/arm64/chacha20poly1305_glue.py)", status="project",
           note="one-pass AEAD above the template instance, on purpose")
       for pre in ("rfc7539", "rfc7539esp")]
    + [Row("driver", ARM64, "6.0", "6.19", "polyval", "polyval-ce", "polyval-ce", 200, "polyval_ce",
           f"arch/arm64/crypto/polyval-ce-glue.c @6.0-6.18 ({LIB6X} §1.2)"),
       Row("driver", ARM64, "6.19", None, "polyval", "polyval-ce", "polyval-ce", 200, "polyval_ce",
           f"6.19 moved POLYVAL to a library (lib/crypto/arm64/polyval.h) ({LIB6X} §1.1)", status="kept",
           note="this project's hctr2 spawns a polyval shash in every version"),
       Row("driver", ARM64, "6.0", None, "xctr(aes)", "xctr-aes-ce", "xctr-aes-ce", 300, "aes_ce_blk",
           f"arch/arm64/crypto/aes-glue.c (MODE ce, PRIO 300), 6.0+ ({LIB6X} §1.2)",
           note="the module's cmac/xcbc/cbcmac shashes are not modelled"),
       Row("driver", ARM64, "6.0", None, "xctr(aes)", "xctr-aes-neon", "xctr-aes-neon", 200, "aes_neon_blk",
           f"arch/arm64/crypto/aes-glue.c (MODE neon, PRIO 200), 6.0+ ({LIB6X} §1.2); the NEON build "
           "registers it (and its ecb/cbc/ctr/xts) only under '#if defined(USE_V8_CRYPTO_EXTENSIONS) || "
           "!IS_ENABLED(CONFIG_CRYPTO_AES_ARM64_BS)' (read in a 6.x tree), with the xctr(aes) alias",
           note="the kernel configuration without aes-neonbs, which this machine does not model; "
                "the module's cmac/xcbc/cbcmac shashes are not modelled")]
    + [Row("driver", ARM64, since, "5.14", f"__{cra}", f"__{stem}-{impl}", f"__{stem}-{impl}", prio + delta,
           module, BLK50 if since == "5.0" else BLK511, unknown=BLK_DIRECT_UNKNOWN + (
               "; " + BLK_STEAL_UNKNOWN if since != "5.0" else ""),
           note="the internal algorithm under crypto/simd.c's wrapper")
       for impl, prio, module in (("ce", 300, "aes_ce_blk"), ("neon", 200, "aes_neon_blk"))
       for cra, stem, since, delta in BLK_MODES]
    + [Row("driver", ARM64, since, None, cra, f"{stem}-{impl}", f"{stem}-{impl}", prio + delta, module,
           f"{BLK50 if since == '5.0' else BLK511}; {BLK_DIRECT}",
           unknown=BLK_DIRECT_UNKNOWN + ("; " + BLK_STEAL_UNKNOWN if since != "5.0" else ""),
           note="up to 5.13 the SIMD wrapper (async) over the __ algorithm, 5.14+ registered directly (sync); "
                + ("the NEON build has it only without aes-neonbs (this machine's configuration); "
                   if impl == "neon" and cra in ("ecb(aes)", "cbc(aes)", "ctr(aes)", "xts(aes)") else "")
                + "v5.0-5.13's synchronous ctr-aes-" + impl + " at " + str(prio - 1) + " is not modelled"
                if cra == "ctr(aes)" else
                "up to 5.13 the SIMD wrapper (async) over the __ algorithm, 5.14+ registered directly (sync)"
                + ("; XTS steals ciphertext 5.4+ (rule arm64.aes_blk_xts_stealing)" if cra == "xts(aes)" else "")
                + ("; the NEON build has it only without aes-neonbs (this machine's configuration)"
                   if impl == "neon" and cra in ("ecb(aes)", "cbc(aes)", "xts(aes)") else ""))
       for impl, prio, module in (("ce", 300, "aes_ce_blk"), ("neon", 200, "aes_neon_blk"))
       for cra, stem, since, delta in BLK_MODES]
    + [Row("driver", ARM64, "5.0", "5.6", "ghash", "ghash-neon", "ghash-neon", 100, "ghash_ce",
           "arch/arm64/crypto/ghash-ce-glue.c @5.0 (ghash_alg[0], registered with or without PMULL); "
           "'crypto: arm64/ghash-neon - bump priority to 150' (posted 2019-11-28) raised it",
           unknown="the release of the bump (5.6 inferred from the patch date; 5.5 possible)"),
       Row("driver", ARM64, "5.6", None, "ghash", "ghash-neon", "ghash-neon", 150, "ghash_ce",
           "arch/arm64/crypto/ghash-ce-glue.c: 150 after the bump, in a 5.4-era tree with the bump and "
           "in a 6.1x tree (registered only without PMULL from 5.9: rule ghash.neon_shash)",
           unknown="'lib/crypto: arm64/ghash: Migrate optimized code into library' (posted 2026-03-19) "
                   "removes the shash; its release (7.1 or later) is not in the table"),
       Row("driver", ARM64, "5.0", "5.9", "ghash", "ghash-ce", "ghash-ce", 200, "ghash_ce",
           "arch/arm64/crypto/ghash-ce-glue.c @5.0 (a shash beside ghash-neon); dropped by "
           "'crypto: arm64/ghash - drop PMULL based shash' (posted 2020-06-29)",
           unknown="the release that dropped ghash-ce (5.9 inferred from the patch date)"),
       Row("driver", ARM64, "5.0", "7.0", "gcm(aes)", "gcm-aes-ce", "gcm-aes-ce", 300, "ghash_ce",
           "arch/arm64/crypto/ghash-ce-glue.c @5.0, still there (gcm_aes_algs[0]) in a 6.16 tree",
           unknown="gcm-aes-ce in 6.17-6.19 (assumed unchanged; not read)"),
       Row("driver", ARM64, "6.3", "7.0", "rfc4106(gcm(aes))", "rfc4106-gcm-aes-ce", "rfc4106-gcm-aes-ce", 300,
           "ghash_ce",
           "arch/arm64/crypto/ghash-ce-glue.c gcm_aes_algs[1]: 'crypto: arm64/gcm - add RFC4106 support' "
           "(posted 2022-12-14, listed in '[GIT PULL] Crypto Update for 6.3'); priority 300 there and in "
           "a 6.1x tree",
           unknown="rfc4106-gcm-aes-ce in 6.17-6.19 (assumed unchanged, as gcm-aes-ce; not read)")]
    + drivers(("sha384", "sha512"), "-ce", "-ce", machines=ARM64, since="5.0", until="6.17", priority=200,
              module="sha512_ce",
              source=f"arch/arm64/crypto/sha512-ce-glue.c @5.x; SHA-512 became a library in 6.17, whose "
                     f"shashes are sha384-lib/sha512-lib ({LIB6X} §2.1)",
              unknown="the release that removed sha512-ce/sha384-ce (6.17 inferred, as the generic "
                      "SHA-512 rows)")
)

#: The modules a booted system has loaded before any lookup (udev's coldplug
#: of the CPU device table that module_cpu_feature_match adds); this project's
#: modules say the same with MODULE_CPU_FEATURE, coldplugged in every mode.
DEVICE_TABLES = (
    DeviceTable("aes_ce_cipher", ARM64, "5.0", None, ("aes",),
                f"arch/arm64/crypto/aes-ce-glue.c: module_cpu_feature_match(AES) ({ARCHES} §0.5, §1.2)"),
    DeviceTable("aes_ce_blk", ARM64, "5.0", None, ("aes",),
                f"arch/arm64/crypto/aes-glue.c: module_cpu_feature_match(AES) in the aes-ce-blk build ({BLK50}; "
                "the same in the 5.11+ and 6.x trees read)"),
    DeviceTable("polyval_ce", ARM64, "6.0", None, ("pmull",),
                f"arch/arm64/crypto/polyval-ce-glue.c @6.0-6.18: module_cpu_feature_match(PMULL) "
                f"({LIB6X} §1.2); 6.19+: the driver this project keeps"),
    DeviceTable("ghash_ce", ARM64, "5.0", "7.0", ("pmull",),
                "arch/arm64/crypto/ghash-ce-glue.c: MODULE_DEVICE_TABLE(cpu, ghash_cpu_feature) "
                "with PMULL (read in a 5.4-based and a 6.16 tree)",
                unknown="the device table in v5.0 itself and 6.17-6.19 (assumed the same)"),
    DeviceTable("sha512_ce", ARM64, "5.0", "6.17", ("sha512",),
                "arch/arm64/crypto/sha512-ce-glue.c: module_cpu_feature_match(SHA512)",
                unknown="the last release with the module (6.16 inferred)"),
)

#: What the table does not cover on this machine (the fidelity page lists it).
NOT_MODELLED = (
    "drivers the kernel has and this project does not register: aes-neonbs (ecb/cbc/ctr/xts-aes-neonbs, "
    "250; the NEON build's ecb/cbc/ctr/xts/xctr-aes-neon are modelled as in a kernel built without it, "
    "CONFIG_CRYPTO_AES_ARM64_BS, the only configuration that has them), aes-glue.c's cmac/xcbc/cbcmac "
    "shashes, and v5.0-5.13's synchronous ctr-aes-ce (299) / ctr-aes-neon (199), which share their "
    "driver name with the SIMD wrapper of ctr(aes)",
    "aes-glue.c's module aliases by version: v5.0's aes-ce-blk declared none (found by its CPU feature, "
    "as here) and v5.0's aes-neon-blk none for cts(cbc(aes)); both modules here declare the 5.4+ set",
)

#: The glue's rules on this machine that changed by version (crypto_api.version_rules).
RULES = (
    Rule("ghash.neon_shash", ARM64, "5.0", "5.9", "beside-pmull",
         "ghash_ce registers ghash-neon on every CPU with ASIMD: beside ghash-ce (and gcm-aes-ce) "
         "with PMULL, alone without",
         "arch/arm64/crypto/ghash-ce-glue.c @5.0 and a 5.4-era tree (crypto_register_shashes of both "
         "with PMULL, the first element only without)"),
    Rule("ghash.neon_shash", ARM64, "5.9", None, "without-pmull",
         "ghash_ce registers the AEADs with PMULL and ghash-neon only without it",
         "'crypto: arm64/ghash - drop PMULL based shash' (posted 2020-06-29); a 6.1x tree",
         unknown="the release that dropped ghash-ce (5.9 inferred from the patch date)"),
    Rule("arm64.aes_blk_wrapping", ARM64, "5.0", "5.14", "simd",
         "aes-ce-blk / aes-neon-blk register their ecb/cbc/ctr/xts/cts-cbc/essiv modes as internal __ "
         "algorithms under crypto/simd.c's wrapper (async, cryptd where SIMD is unusable)",
         f"{BLK50}; {BLK511}", unknown=BLK_DIRECT_UNKNOWN),
    Rule("arm64.aes_blk_wrapping", ARM64, "5.14", None, "direct",
         "the aes-glue.c modes registered directly: synchronous, not internal, no SIMD check", BLK_DIRECT,
         unknown=BLK_DIRECT_UNKNOWN),
    Rule("arm64.aes_blk_xts_stealing", ARM64, "5.0", "5.4", "refused",
         "xts-aes-ce / xts-aes-neon: whole blocks only (a length that is not a multiple of 16 is EINVAL, "
         "0 bytes do nothing); no walksize", BLK50, unknown=BLK_STEAL_UNKNOWN),
    Rule("arm64.aes_blk_xts_stealing", ARM64, "5.4", None, "stealing",
         "xts-aes-ce / xts-aes-neon: 16 bytes or more (else EINVAL), ciphertext stealing for a partial last "
         "block; walksize 32", BLK511, unknown=BLK_STEAL_UNKNOWN),
    Rule("chacha.sections", ARM64, "5.0", "5.5", "request",
         "chacha_neon: 64 bytes or less, or no SIMD when the request starts, run the generic code for the "
         "whole request; else one kernel_neon_begin/end per walk step, XChaCha's HChaCha in one of its own",
         f"arch/arm64/crypto/chacha-neon-glue.c @5.0-5.4 ({ARCHES} §1.5)"),
    Rule("chacha.sections", ARM64, "5.5", "6.16", "step",
         "chacha_neon: every request through the walk (no 64-byte shortcut), one "
         "kernel_neon_begin/end per walk step (stride 320) with SIMD decided per step; HChaCha "
         "likewise (no SIMD: the generic code there)",
         f"arch/arm64/crypto/chacha-neon-glue.c @5.5-6.15 ({ARCHES} §1.6)"),
    Rule("chacha.sections", ARM64, "6.16", None, "library",
         "crypto/chacha.c over the arm64 ChaCha library: walk stride 64; per step, 64 bytes or less or no "
         "SIMD run the generic code, longer steps NEON pieces of at most 4096 bytes, each its own "
         "kernel_neon_begin/end; XChaCha's HChaCha NEON in a section of its own where SIMD is usable",
         f"crypto/chacha.c, lib/crypto/arm64/chacha.h (chacha_crypt_arch) @6.16-6.19 ({ARCHES} §1.6, §1.7)",
         unknown="6.16-6.17 from the pull requests and the moved file's mirror copy (no release tree read)"),
)
