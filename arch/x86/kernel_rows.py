"""The kernel-version table's rows for the x86_64 machine's drivers.

No kernel counterpart: the facts of the kernel's x86_64 crypto drivers per
version (the sources named in each row); crypto_api.kernels.table collects
these with the generic rows and the other machines'.
"""

from __future__ import annotations

from crypto_api.kernels.row import (ARCHES, CHACHA, LIB6X, MODES, DeviceTable, Row, Rule, chacha_arch,
                                    drivers)

CORE = "core reference"

X86 = ("x86_64",)
SHA2 = ("sha224", "sha256")
SHA512 = ("sha384", "sha512")
#: Row.lowered of the 512-bit drivers: priority 1 on CPUs that discourage 512-bit vectors (the glue's
#: prefer_ymm: a list of Intel models in the 6.10-6.13 glue read, X86_FEATURE_PREFER_YMM in 6.17's)
ZMM_LOW = 1
GCM611 = ("arch/x86/crypto/aesni-intel_glue.c @6.11 (greearb/linux-ct-6.11 read: DEFINE_GCM_ALGS, "
          "register_avx_algs; absent from the 6.10 tree read, whose GCM is the one pair)")
GCM619 = ("'crypto: x86/aes-gcm - add VAES+AVX2 optimized code' and '- rename avx10 and avx10_512 to "
          "avx512' (Eric Biggers' Oct 2025 series, lore 20251002023117.37504-1..3)")
XCTR617 = ("arch/x86/crypto/aesni-intel_glue.c @6.17 (greearb/linux-ct-6.17 read: DEFINE_AVX_SKCIPHER_ALGS "
           "defines xts-, ctr- and xctr-aes-<suffix> per generation: aesni-avx 500 where AVX, vaes-avx2 600, "
           f"vaes-avx512 800); 6.19 the same ({LIB6X} §1.2, {MODES} §5.6)")
XCTR_UNKNOWN = ("the first release with the XCTR generations is not checked: the 6.17 glue read has them, the "
                "6.0 one has only xctr-aes-aesni; the table starts them at 6.17, the first version read (6.15's "
                "CTR rewrite, which the CTR rows date to 6.15, may have brought them); 6.16's direct "
                "xctr-aes-aesni is the 6.0 driver under 6.16's rule, not read")
CTS_UNKNOWN = "5.12 from history, not checked in a 5.12 tree (absent 5.10, present 5.17)"
GCM619_UNKNOWN = ("6.19 from the series' date (posted in 6.18's merge window) and the reference's 6.19 "
                  "row; not checked in a 6.18 or 6.19 tree")

#: This file's rows of the table.
ROWS = tuple(
    [Row("driver", X86, "5.0", None, "aes", "aes-aesni", "aes-aesni", 300, "aesni_intel",
           f"arch/x86/crypto/aesni-intel_glue.c @5.0-6.19 ({MODES} §5.1)")]
    + [Row("driver", X86, "5.0", "6.16", f"__{m}(aes)", f"__{m}-aes-aesni", f"__{m}-aes-aesni",
           401 if m == "xts" else 400, "aesni_intel",
           f"arch/x86/crypto/aesni-intel_glue.c @5.0-6.15 ({MODES} §5.1, §5.6)")
       for m in ("ecb", "cbc", "ctr", "xts")]
    + [Row("driver", X86, "5.0", None, f"{m}(aes)", f"{m}-aes-aesni", f"{m}-aes-aesni",
           401 if m == "xts" else 400, "aesni_intel",
           f"arch/x86/crypto/aesni-intel_glue.c @5.0-6.19 ({MODES} §5.1, §5.6)",
           note="up to 6.15 the SIMD wrapper (async) over __" + m + "-aes-aesni; 6.16+ registered "
                "directly (sync)")
       for m in ("ecb", "cbc", "ctr", "xts")]
    + [Row("driver", X86, since, until, f"{p}{m}(aes)", f"{p}{m}-aes-vaes-{v}", f"{p}{m}-aes-vaes-{v}", prio,
           "aesni_intel", src, unknown=unk, lowered=ZMM_LOW if v == "avx10_512" else None)
       for p in ("__", "")
       for m, since, src, unk in (
           ("xts", "6.11", f"arch/x86/crypto/aesni-intel_glue.c @6.13 ({MODES} §5.6)",
            "first release of the VAES XTS drivers: present 6.13, 'around 6.10-6.11', not checked"),
           ("ctr", "6.15", f"arch/x86/crypto/aesni-intel_glue.c, 6.15 (kernel-version issue; {MODES} §5.6 for 6.19)",
            "6.15 from the kernel-version issue's account, not checked in a tree"))
       for v, prio, until in (("avx2", 600, "6.16" if p else None),
                              ("avx10_256", 700, "6.16"),
                              ("avx10_512", 800, "6.16"))]
    + [Row("driver", X86, since, "6.16" if p else None, f"{p}{m}(aes)", f"{p}{m}-aes-aesni-avx",
           f"{p}{m}-aes-aesni-avx", 500, "aesni_intel", src, unknown=unk,
           note="the AES-NI routines here (the kernel's are the same code VEX-encoded)")
       for p in ("__", "")
       for m, since, src, unk in (
           ("xts", "6.10", "arch/x86/crypto/aesni-intel_glue.c @6.10, 6.11 (greearb/linux-ct-6.10, -6.11 "
            "read: DEFINE_XTS_ALG(aesni_avx, 500), registered where AVX); 6.17 read (direct)",
            "first release: present in the 6.10 tree read, earlier trees not read"),
           ("ctr", "6.15", "arch/x86/crypto/aesni-intel_glue.c @6.17 (greearb/linux-ct-6.17 read: "
            "DEFINE_AVX_SKCIPHER_ALGS(aesni_avx, 500)); 6.15 as the VAES CTR rows",
            "6.15 from the kernel-version issue's account (the VAES CTR rows'), not checked in a tree"))]
    + [Row("driver", X86, "6.16", None, f"{m}(aes)", f"{m}-aes-vaes-avx10_512", f"{m}-aes-vaes-avx512", 800,
           "aesni_intel", f"arch/x86/crypto/aesni-intel_glue.c @6.19 ({MODES} §5.6)",
           note="6.16 renamed avx10_512 to avx512 and dropped avx10_256", lowered=ZMM_LOW)
       for m in ("xts", "ctr")]
    + [Row("driver", X86, since, until, f"{p}{m}(aria)", f"{p}{m}-aria-{w}", f"{p}{m}-aria-{w}", prio, module,
           src, note="registered directly, sync, not internal (rule aria.modes_wrapping)" if since == "6.16"
           else "the SIMD wrapper (async, cryptd where SIMD is unusable)" if not p else "")
       for w, prio, module, first in (("avx", 400, "aria_aesni_avx_x86_64", "6.1"),
                                      ("avx2", 500, "aria_aesni_avx2_x86_64", "6.3"),
                                      ("avx512", 600, "aria_gfni_avx512_x86_64", "6.3"))
       for since, until, src in ((first, "6.16", f"arch/x86/crypto/aria_*_glue.c @6.1-6.15 ({MODES} §6.2)"),
                                 ("6.16", None, f"arch/x86/crypto/aria_*_glue.c @6.19 ({MODES} §6.2, §5.6)"))
       for p in ("__", "") for m in ("ecb", "ctr") if not (p and since == "6.16")]
    + [Row("driver", X86, "6.3", until, f"{p}xts(aria)", f"{p}xts-aria-avx512", f"{p}xts-aria-avx512", 601,
           "aria_gfni_avx512_x86_64", "no kernel counterpart (arch/x86/aria_xts_glue.py; the kernel has "
           f"no x86 XTS ARIA: {MODES} §6.2); its module's range: aria_gfni_avx512 6.3+ ({MODES} §6)",
           status="project",
           note="beyond the kernel: one above the xts template over ecb-aria-avx512 (600), on purpose; only "
                "where its module's ECB/CTR drivers exist, in their form"
                + (" (the internal algorithm of its SIMD wrapper, up to 6.15)" if p else
                   " (SIMD-wrapped up to 6.15, registered directly from 6.16)"))
       for p, until in (("__", "6.16"), ("", None))]
    + [Row("driver", X86, "6.0", "6.16", "__xctr(aes)", "__xctr-aes-aesni", "__xctr-aes-aesni", 400,
           "aesni_intel", f"arch/x86/crypto/aesni-intel_glue.c @6.0, AVX only ({LIB6X} §1.2)")]
    + [Row("driver", X86, since, until, "xctr(aes)", "xctr-aes-aesni", "xctr-aes-aesni", 400,
           "aesni_intel", src, note=note, unknown=XCTR_UNKNOWN if until == "6.17" else "")
       for since, until, src, note in (
           ("6.0", "6.16", f"arch/x86/crypto/aesni-intel_glue.c @6.0, AVX only ({LIB6X} §1.2)", ""),
           ("6.16", "6.17", f"6.16's direct registration ({MODES} §5.6); absent from the 6.17 glue read "
                            "(greearb/linux-ct-6.17: no plain xctr-aes-aesni)",
            "6.16: registered directly (sync)"))]
    + [Row("driver", X86, "6.17", None, "xctr(aes)", f"xctr-aes-{ours}", f"xctr-aes-{g}", prio, "aesni_intel",
           XCTR617, unknown=XCTR_UNKNOWN, lowered=ZMM_LOW if prio == 800 else None,
           note=("the AES-NI XCTR routine here (the kernel's is the same code VEX-encoded)" if prio == 500 else
                 "the kernel's -vaes-avx512; this project's name keeps avx10_512" if prio == 800 else ""))
       for ours, g, prio in (("aesni-avx", "aesni-avx", 500), ("vaes-avx2", "vaes-avx2", 600),
                             ("vaes-avx10_512", "vaes-avx512", 800))]
    + [Row("driver", X86, "5.12", "6.16", "__cts(cbc(aes))", "__cts-cbc-aes-aesni", "__cts-cbc-aes-aesni", 400,
           "aesni_intel", f"arch/x86/crypto/aesni-intel_glue.c 5.12 rewrite, present 5.17 ({MODES} §5.6): "
           "walksize 32", unknown=CTS_UNKNOWN),
       Row("driver", X86, "5.12", None, "cts(cbc(aes))", "cts-cbc-aes-aesni", "cts-cbc-aes-aesni", 400,
           "aesni_intel", f"arch/x86/crypto/aesni-intel_glue.c 5.12 rewrite, present 5.17 ({MODES} §5.6); "
           "6.16+ direct, walksize 32 (greearb/linux-ct-6.17 glue read)", unknown=CTS_UNKNOWN,
           note="up to 6.15 the SIMD wrapper (async, walksize 16) over __cts-cbc-aes-aesni; 6.16+ registered "
                "directly (sync). The stealing here is the cts template's code around the AES-NI CBC "
                "routines (arch/x86/aesni_cts.py)")]
    + [Row("driver", X86, "5.0", "5.4", f"__{inner}", f"__driver-{inner}", f"__driver-{inner}", 0,
           "aesni_intel", f"arch/x86/crypto/aesni-intel_glue.c @5.0 ({MODES} §5.1)",
           unknown="the version that moved GCM under the SIMD helper (5.1-5.4), not checked in a tree")
       for inner in ("gcm-aes-aesni", "generic-gcm-aes-aesni")]
    + [Row("driver", X86, "5.0", None, name, drv, drv, 400, "aesni_intel",
           f"arch/x86/crypto/aesni-intel_glue.c @5.0-6.19 ({MODES} §5.1, §5.3, §5.6)",
           note="v5.0: over __driver-* (hand-made dispatch to cryptd); 5.4-6.15 over __" + drv + " (SIMD "
                "helper); 6.16+ registered directly (sync). Up to 6.10 its code is picked by CPU (here the "
                "best core); 6.11+ the AES-NI code only")
       for name, drv in (("rfc4106(gcm(aes))", "rfc4106-gcm-aesni"), ("gcm(aes)", "generic-gcm-aesni"))]
    + [Row("driver", X86, since, "6.16", f"__{name}", f"__{p}-{g}", f"__{p}-{g}", prio, "aesni_intel", src,
           unknown=unk, lowered=ZMM_LOW if g == "vaes-avx10_512" else None)
       for name, p in (("rfc4106(gcm(aes))", "rfc4106-gcm"), ("gcm(aes)", "generic-gcm"))
       for g, prio, since, src, unk in (
           ("aesni", 400, "5.4", f"5.4 tree: simd_register_aeads_compat ({MODES} §5.3, §5.6)",
            "5.1-5.4 (the first version with these names), not checked in a tree; the chunk size (16 "
            "here, as 6.11's) and alignmask (0) of 5.4-6.10's internal algorithms not read"),
           ("aesni-avx", 500, "6.11", GCM611, ""),
           ("vaes-avx10_256", 700, "6.11", GCM611, ""),
           ("vaes-avx10_512", 800, "6.11", GCM611, ""))]
    + [Row("driver", X86, "6.11", until, name, f"{p}-{g}", f"{p}-{g}", prio, "aesni_intel",
           f"{GCM611}; 6.16+ registered directly (greearb/linux-ct-6.17 glue read: crypto_register_aeads)"
           + ("; removed by 'crypto: x86/aes-gcm - remove VAES+AVX10/256 optimized code' (Oct 2025 series, "
              "lore 20251002023117.37504-3) " + GCM619 if until else ""),
           unknown=GCM619_UNKNOWN if until else "", lowered=ZMM_LOW if g == "vaes-avx10_512" else None)
       for name, p in (("rfc4106(gcm(aes))", "rfc4106-gcm"), ("gcm(aes)", "generic-gcm"))
       for g, prio, until in (("aesni-avx", 500, None), ("vaes-avx10_256", 700, "6.19"),
                              ("vaes-avx10_512", 800, "6.19"))]
    + [Row("driver", X86, "6.19", None, name, f"{p}-{ours}", f"{p}-{g}", prio, "aesni_intel",
           f"{GCM619} ({MODES} §5.6 for 6.19)", unknown=GCM619_UNKNOWN,
           note="6.19 renamed -vaes-avx10_512 to -vaes-avx512" if ours != g else "",
           lowered=ZMM_LOW if ours != g else None)
       for name, p in (("rfc4106(gcm(aes))", "rfc4106-gcm"), ("gcm(aes)", "generic-gcm"))
       for ours, g, prio in (("vaes-avx2", "vaes-avx2", 600), ("vaes-avx10_512", "vaes-avx512", 800))]
    + [Row("driver", X86, "5.0", None, "ghash", "ghash-clmulni", "ghash-clmulni", 400, "ghash_clmulni_intel",
           "arch/x86/crypto/ghash-clmulni-intel_glue.c @5.0-6.19",
           note="the kernel's is an async ahash over cryptd (internal __ghash-pclmulqdqni); here a "
                "synchronous shash under the FPU model",
           unknown="whether later versions changed the async form or the priority: not checked")]
    + [Row("driver", X86, "6.0", "6.19", "polyval", "polyval-clmulni", "polyval-clmulni", 200, "polyval_clmulni",
           f"arch/x86/crypto/polyval-clmulni_glue.c @6.0-6.18 ({LIB6X} §1.2)"),
       Row("driver", X86, "6.19", None, "polyval", "polyval-clmulni", "polyval-clmulni", 200, "polyval_clmulni",
           f"6.19 moved POLYVAL to a library ({LIB6X} §1.1)", status="kept",
           note="this project's hctr2 spawns a polyval shash in every version")]
    + chacha_arch(X86, "-simd", "chacha_x86_64", "-simd",
                   f"arch/x86/crypto/chacha_glue.c @5.0-6.15 ({ARCHES} §5)",
                   "x86", f"crypto/chacha.c @6.16-6.17, $(ARCH) = x86 ({ARCHES} §1.1 notes)",
                   f"crypto/chacha.c @6.18-6.19 over the x86 ChaCha library ({CORE} §5, §6.3)")
    + [Row("driver", X86, "5.0", "6.16", "poly1305", "poly1305-simd", "poly1305-simd", 300, "poly1305_x86_64",
           f"arch/x86/crypto/poly1305_glue.c @5.0 ({ARCHES} §5); removed 6.16 ({ARCHES} §1.1 notes)",
           unknown="that the 5.6+ rewrite kept the name poly1305-simd and priority 300: from history, "
                   "not checked in a tree; that no version's x86 Poly1305 has an IFMA path: read in one copy "
                   "of arch/x86/crypto/poly1305-x86_64-cryptogams.pl (5.17+, with the RET macro), whose "
                   "base 2^44 vpmadd52 code is emitted only outside the kernel, other versions not read",
           note="project addition beyond the kernel: on CPUs with AVX-512F and AVX512_IFMA the update "
                "also runs a radix-2^44 IFMA block code, 16 blocks in flight (arch/x86/poly1305_ifma.c); "
                "name, priority and FPU sections stay the kernel's"),
       Row("driver", X86, "5.0", None, "poly1305", "poly1305-x86_64", "poly1305-x86_64", 200, "poly1305_x86_64",
           "no kernel counterpart (arch/x86/poly1305_glue.py)", status="project",
           note="the 64-bit-limb Poly1305 below poly1305-simd's priority"),
       Row("driver", X86, "5.0", "7.0", "nhpoly1305", "nhpoly1305-sse2", "nhpoly1305-sse2", 200, "nhpoly1305_sse2",
           f"arch/x86/crypto/nhpoly1305-sse2-glue.c @5.0-6.19 ({ARCHES} §5)"),
       Row("driver", X86, "5.0", "7.0", "nhpoly1305", "nhpoly1305-avx2", "nhpoly1305-avx2", 300, "nhpoly1305_avx2",
           f"arch/x86/crypto/nhpoly1305-avx2-glue.c @5.0-6.19 ({ARCHES} §5)")]
    + [Row("driver", X86, "5.0", "6.17", n, f"{n}-{v}", f"{n}-{v}", prio, "sha256_ssse3",
           f"arch/x86/crypto/sha256_ssse3_glue.c @5.0-6.16 ({LIB6X} §2.1)",
           unknown="6.16-6.17: when the x86 shash drivers gave way to the library is inferred (6.17)")
       for n in SHA2 for v, prio in (("ssse3", 150), ("avx", 160), ("avx2", 170), ("ni", 250))]
    + [Row("driver", X86, "5.0", "6.17", n, f"{n}-{v}", f"{n}-{v}", prio, "sha512_ssse3",
           "arch/x86/crypto/sha512_ssse3_glue.c @5.x (torvalds/linux, read); removed by 'lib/crypto: "
           "x86/sha512: Migrate optimized SHA-512 code to library' (libcrypto-next, June 2025, in the "
           f"6.17 merge window), after which crypto/sha512.c registers sha384-lib/sha512-lib ({LIB6X} §2.1)",
           unknown="6.17 from the series' merge window, not checked in a v6.16/v6.17 tree; 6.16's glue "
                   "(the block-only shash API) not read: names and priorities assumed unchanged")
       for n in SHA512 for v, prio in (("ssse3", 150), ("avx", 160), ("avx2", 170))]
    + [Row("driver", X86, "5.0", None, f"{pre}(chacha20,poly1305)", f"{pre}-chacha20poly1305-avx2",
           f"{pre}-chacha20poly1305-avx2", 400, "chacha20poly1305_avx2",
           "no kernel counterpart (arch/x86/chacha20poly1305_glue.py)", status="project",
           note="one-pass AEAD above the template instance (300), on purpose; with AVX512_IFMA its "
                "Poly1305 for texts of 4 KiB or more is the radix-2^44 IFMA code poly1305-simd uses")
       for pre in ("rfc7539", "rfc7539esp")]
)

#: The modules a booted x86_64 system has loaded before any lookup (udev's
#: coldplug of their ``MODULE_DEVICE_TABLE(x86cpu, ...)``).  The ARIA modules
#: have no such table (aria_*_glue.c @6.19 read: MODULE_ALIAS_CRYPTO only), so
#: they load at the first lookup that asks for ``aria``.
DEVICE_TABLES = (
    DeviceTable("aesni_intel", X86, "5.0", None, ("aes",),
                "arch/x86/crypto/aesni-intel_glue.c: x86cpu table of X86_FEATURE_AES, in the 4.x, 5.x "
                "and 6.11+ glue read"),
    DeviceTable("sha256_ssse3", X86, "6.2", "6.17", ("ssse3", "avx", "avx2", "sha_ni"),
                "arch/x86/crypto/sha256_ssse3_glue.c: module_cpu_ids, from the 'x86/sha - load based "
                "on CPU features' patch (Nov 2022)",
                unknown="6.2 from the patch series' date, not checked in a tree; the lookup of sha256 "
                        "loads it by its alias anyway, so no first answer depends on it"),
    DeviceTable("sha512_ssse3", X86, "6.2", "6.17", ("ssse3", "avx", "avx2"),
                "arch/x86/crypto/sha512_ssse3_glue.c: module_cpu_ids, from the same 'x86/sha - load based "
                "on CPU features' series (Nov 2022)",
                unknown="6.2 from the patch series' date, not checked in a tree; the lookup of sha512 "
                        "loads it by its alias anyway, so no first answer depends on it"),
)

#: What the table does not cover on this machine (the fidelity page lists it).
NOT_MODELLED = (
    "the XCTR generations between 6.15 and 6.17 (a -vaes-avx10_256 XCTR driver, if 6.15 had one): the "
    "table starts xctr-aes-aesni-avx/-vaes-avx2/-vaes-avx512 at 6.17, the first glue read with them",
    "the AES-NI GCM cores' instruction encodings: generic-gcm-aesni-avx runs the same (AES-NI) core "
    "as generic-gcm-aesni, and -vaes-avx10_256's GHASH is the VAES/AVX2 core's 256-bit one",
    "the 512-bit drivers' priority 1 (rows 'or 1') on a CPU that discourages 512-bit vectors applies "
    "in every version from the drivers' first: the Intel model list and the later PREFER_YMM feature "
    "are one rule here (prefer_ymm); the release that switched to the feature is not checked",
    "SHA-1's library code (6.17+'s sha1-lib runs the generic C here; the kernel's x86 SHA-1 library "
    "has SSSE3/AVX/AVX2/SHA-NI code): SHA-256 and SHA-512 follow the library (rule sha2.library)",
    "whether the x86 ChaCha, Poly1305 and NHPoly1305 modules carry a CPU device table in some "
    "version (a 2022 patch series proposed it): their lookups load them by alias, so no first "
    "answer depends on it",
)


#: The glue's rules on this machine that changed by version (crypto_api.version_rules).
RULES = (
    Rule("aesni.xts_stealing", X86, "5.0", "5.4", "refused",
         "xts-aes-aesni (glue_xts_req_128bit): a length that is not a multiple of 16 is EINVAL",
         f"arch/x86/crypto/aesni-intel_glue.c, glue_helper.c @5.0 ({MODES} §5.2)"),
    Rule("aesni.xts_stealing", X86, "5.4", None, "stealing",
         "xts-aes-aesni and the VAES XTS drivers: 16 bytes or more, ciphertext stealing",
         f"arch/x86/crypto/aesni-intel_glue.c 5.12 rewrite, present 5.17 ({MODES} §5.2, §5.6)",
         unknown="the reference reads v5.0's glue (no stealing) and the 5.12 rewrite (stealing), not "
                 "5.4-5.10's glue_helper; the table takes stealing from 5.4, as the template's, because "
                 "5.4+'s testmgr fuzzes xts(aes) drivers against the stealing xts(ecb(aes-generic)), "
                 "which a driver refusing those lengths would fail"),
    Rule("aesni.modes_sections", X86, "5.0", "5.11", "request",
         "ecb-, cbc-, ctr-aes-aesni: one kernel_fpu_begin/end over the whole request (atomic walk)",
         f"arch/x86/crypto/aesni-intel_glue.c @5.0-5.10 ({MODES} §5.2)"),
    Rule("aesni.modes_sections", X86, "5.11", None, "step",
         "ecb-, cbc-, ctr-aes-aesni: one kernel_fpu_begin/end per walk step (non-atomic walk)",
         f"arch/x86/crypto/aesni-intel_glue.c 5.11, present 5.17, absent 5.10 ({MODES} §5.2, §5.6)",
         unknown="xts-aes-aesni's (5.12), cts-cbc-aes-aesni's and the XCTR drivers' per-step sections "
                 "are not modelled: one section per request"),
    Rule("aesni.modes_wrapping", X86, "5.0", "6.16", "simd",
         "the AES-NI mode drivers (ecb/cbc/cts-cbc/ctr/xts/xctr-aes-*) as internal __ algorithms under the SIMD "
         "wrapper (async, cryptd where SIMD is unusable)", f"arch/x86/crypto/aesni-intel_glue.c @5.0-6.15 "
         f"({MODES} §5.1, §5.3)"),
    Rule("aesni.modes_wrapping", X86, "6.16", None, "direct",
         "the AES-NI mode drivers registered directly: synchronous, not internal, no SIMD wrapper",
         f"'crypto: x86 - stop using the SIMD helper' ({MODES} §5.6); greearb/linux-ct-6.17 glue read"),
    Rule("aesni.xctr_generations", X86, "5.0", "6.17", "one",
         "at most the one XCTR driver, xctr-aes-aesni (400, 6.0+, where AVX is usable)",
         f"arch/x86/crypto/aesni-intel_glue.c @6.0 ({LIB6X} §1.2)", unknown=XCTR_UNKNOWN),
    Rule("aesni.xctr_generations", X86, "6.17", None, "generations",
         "xctr-aes-aesni-avx 500, -vaes-avx2 600, -vaes-avx512 800, each beside its XTS and CTR twins; no "
         "xctr-aes-aesni", XCTR617, unknown=XCTR_UNKNOWN),
    Rule("aria.modes_wrapping", X86, "6.1", "6.16", "simd",
         "the ARIA mode drivers (ecb/ctr-aria-avx, -avx2, -avx512; this project's xts-aria-avx512) as internal "
         "__ algorithms under the SIMD wrapper (async, cryptd where SIMD is unusable)",
         f"arch/x86/crypto/aria_*_glue.c @6.1-6.15 ({MODES} §6.2)"),
    Rule("aria.modes_wrapping", X86, "6.16", None, "direct",
         "the ARIA mode drivers registered directly: synchronous, not internal, no SIMD wrapper, same "
         "priorities", f"'crypto: x86 - stop using the SIMD helper' ({MODES} §5.6 last line, §6.2)"),
    Rule("aesni.gcm_wrapping", X86, "5.0", "5.4", "v5.0",
         "generic-gcm-aesni / rfc4106-gcm-aesni over internal __driver-* (priority 0) by hand-made "
         "dispatch to cryptd", f"arch/x86/crypto/aesni-intel_glue.c @5.0 ({MODES} §5.1, §5.3)",
         unknown="5.1-5.4: when the SIMD helper took over, not checked in a tree"),
    Rule("aesni.gcm_wrapping", X86, "5.4", "6.16", "simd",
         "each public GCM driver over its internal __<driver> (cra_name __gcm(aes) / __rfc4106(gcm(aes)), "
         "the same priority) by crypto/simd.c's AEAD wrapper",
         f"5.4 tree ({MODES} §5.3); 6.11 glue read (greearb/linux-ct-6.11: simd_register_aeads_compat)"),
    Rule("aesni.gcm_wrapping", X86, "6.16", None, "direct",
         "the GCM drivers registered directly: synchronous, not internal, no SIMD wrapper or cryptd",
         f"'crypto: x86 - stop using the SIMD helper' ({MODES} §5.6); greearb/linux-ct-6.17 glue read"),
    Rule("aesni.gcm_generations", X86, "5.0", "6.11", "one",
         "one GCM pair, generic-gcm-aesni / rfc4106-gcm-aesni, whose code the glue picks by CPU",
         "arch/x86/crypto/aesni-intel_glue.c @5.0 and the 6.10 tree read (greearb/linux-ct-6.10)"),
    Rule("aesni.gcm_generations", X86, "6.11", "6.19", "avx10",
         "GCM pairs -aesni 400, -aesni-avx 500, -vaes-avx10_256 700, -vaes-avx10_512 800, each "
         "where the CPU has its features", GCM611),
    Rule("aesni.gcm_generations", X86, "6.19", None, "vaes",
         "GCM pairs -aesni 400, -aesni-avx 500, -vaes-avx2 600, -vaes-avx512 800",
         f"{GCM619} ({MODES} §5.6)", unknown=GCM619_UNKNOWN),
    Rule("chacha.sections", X86, "5.0", "5.5", "walk",
         "chacha_x86_64: 64 bytes or less, or no SIMD, run the generic code for the whole request; "
         "else one kernel_fpu_begin/end over the atomic walk, ended and begun again (a preemption "
         "point) each time the non-final steps have used up 4096 bytes",
         f"arch/x86/crypto/chacha_glue.c @5.0-5.4 ({CORE} §6.1)"),
    Rule("chacha.sections", X86, "5.5", "6.16", "step",
         "chacha_x86_64: one kernel_fpu_begin/end per walk step (non-atomic walk), SIMD decided per "
         "step (no SIMD: that step runs the generic code); no yields",
         f"arch/x86/crypto/chacha_glue.c @5.5, 5.7 ({CORE} §6.3)",
         unknown="the reference names the 64-byte shortcut only for the 5.5+ library entry; the "
                 "skcipher path keeps it here (64 bytes or less: generic, no section)"),
    Rule("chacha.sections", X86, "6.16", None, "library",
         "crypto/chacha.c over the x86 ChaCha library: per walk step, 64 bytes or less or no SIMD run "
         "the generic code; longer steps run in pieces of at most 4096 bytes, each its own "
         "kernel_fpu_begin/end; XChaCha's HChaCha has a section of its own where SIMD is usable",
         f"crypto/chacha.c, arch/x86/lib/crypto (chacha_crypt_arch) @6.16-6.19 ({CORE} §5, §6.3)",
         unknown="the reference gives the x86 library's 4 KiB pieces from 5.7 and the 6.16 move; the "
                 "walk steps here are at most a page, so a skcipher step is one piece"),
)
