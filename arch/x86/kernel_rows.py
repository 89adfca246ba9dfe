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

#: This file's rows of the table.
ROWS = tuple(
    [Row("driver", X86, "5.0", None, "aes", "aes-aesni", "aes-aesni", 300, "aesni_intel",
           f"arch/x86/crypto/aesni-intel_glue.c @5.0-6.19 ({MODES} §5.1)")]
    + [Row("driver", X86, "5.0", "6.16", f"__{m}(aes)", f"__{m}-aes-aesni", f"__{m}-aes-aesni",
           401 if m == "xts" else 400, "aesni_intel",
           f"arch/x86/crypto/aesni-intel_glue.c @5.0-6.15 ({MODES} §5.1, §5.6)")
       for m in ("ecb", "cbc", "ctr", "xts")]
    + [Row("driver", X86, "6.16", None, f"__{m}(aes)", f"__{m}-aes-aesni", f"__{m}-aes-aesni",
           401 if m == "xts" else 400, "aesni_intel", f"6.16 'stop using the SIMD helper' ({MODES} §5.6)",
           status="kept", note="6.16+ registers the modes directly (sync); this project's x86 modes stay "
                               "SIMD-wrapped in every version and need their internal algorithm")
       for m in ("ecb", "cbc", "ctr", "xts")]
    + [Row("driver", X86, "5.0", None, f"{m}(aes)", f"{m}-aes-aesni", f"{m}-aes-aesni",
           401 if m == "xts" else 400, "aesni_intel",
           f"arch/x86/crypto/aesni-intel_glue.c @5.0-6.19 ({MODES} §5.1, §5.6)",
           note="6.16+: registered directly, sync; here still the SIMD wrapper (async) in every version")
       for m in ("ecb", "cbc", "ctr", "xts")]
    + [Row("driver", X86, since, until, f"{p}{m}(aes)", f"{p}{m}-aes-vaes-{v}", f"{p}{m}-aes-vaes-{v}", prio,
           "aesni_intel", src, unknown=unk)
       for p in ("__", "")
       for m, since, src, unk in (
           ("xts", "6.11", f"arch/x86/crypto/aesni-intel_glue.c @6.13 ({MODES} §5.6)",
            "first release of the VAES XTS drivers: present 6.13, 'around 6.10-6.11', not checked"),
           ("ctr", "6.15", f"arch/x86/crypto/aesni-intel_glue.c, 6.15 (kernel-version issue; {MODES} §5.6 for 6.19)",
            "6.15 from the kernel-version issue's account, not checked in a tree"))
       for v, prio, until in (("avx2", 600, "6.16" if p else None),
                              ("avx10_256", 700, "6.16"),
                              ("avx10_512", 800, "6.16"))]
    + [Row("driver", X86, "6.16", None, f"{m}(aes)", f"{m}-aes-vaes-avx10_512", f"{m}-aes-vaes-avx512", 800,
           "aesni_intel", f"arch/x86/crypto/aesni-intel_glue.c @6.19 ({MODES} §5.6)",
           note="6.16 renamed avx10_512 to avx512 and dropped avx10_256")
       for m in ("xts", "ctr")]
    + [Row("driver", X86, "6.16", None, f"__{m}(aes)", f"__{m}-aes-vaes-{v}", f"__{m}-aes-vaes-{v}", prio,
           "aesni_intel", f"6.16 'stop using the SIMD helper' ({MODES} §5.6)", status="kept",
           note="the internal algorithm of this project's SIMD wrapper (see the aesni rows)")
       for m in ("xts", "ctr") for v, prio in (("avx2", 600), ("avx10_512", 800))]
    + [Row("driver", X86, since, until, f"{p}{m}(aria)", f"{p}{m}-aria-{w}", f"{p}{m}-aria-{w}", prio, module,
           src, status="kept" if p and since == "6.16" else "kernel",
           note=("the internal algorithm of this project's SIMD wrapper" if p and since == "6.16" else
                 "6.16+: registered directly, sync; here still the SIMD wrapper" if not p and since == "6.16"
                 else ""))
       for w, prio, module, first in (("avx", 400, "aria_aesni_avx_x86_64", "6.1"),
                                      ("avx2", 500, "aria_aesni_avx2_x86_64", "6.3"),
                                      ("avx512", 600, "aria_gfni_avx512_x86_64", "6.3"))
       for since, until, src in ((first, "6.16", f"arch/x86/crypto/aria_*_glue.c @6.1-6.15 ({MODES} §6.2)"),
                                 ("6.16", None, f"arch/x86/crypto/aria_*_glue.c @6.19 ({MODES} §6.2)"))
       for p in ("__", "") for m in ("ecb", "ctr")]
    + [Row("driver", X86, since, until, f"{p}xctr(aes)", f"{p}xctr-aes-aesni", f"{p}xctr-aes-aesni", 400,
           "aesni_intel", src, status="kept" if p and until is None else "kernel",
           note=("" if until else "the internal algorithm of this project's SIMD wrapper" if p
                 else "6.16+: registered directly; here still the one AVX XCTR driver, SIMD-wrapped"),
           unknown="" if until else "when the driver was split into the 6.19 generations, and their "
                                    "priorities in 6.16-6.18")
       for p in ("__", "")
       for since, until, src in (
           ("6.0", "6.16", f"arch/x86/crypto/aesni-intel_glue.c @6.0, AVX only ({LIB6X} §1.2)"),
           ("6.16", None, f"6.19: xctr-aes-aesni-avx 500, -vaes-avx2 600, -vaes-avx512 800 "
                          f"({LIB6X} §1.2, {MODES} §5.6)"))]
    + [Row("driver", X86, since, until, f"__{inner}", f"__driver-{inner}", f"__driver-{inner}", 0,
           "aesni_intel", src, status=status, note=note,
           unknown="the version that moved them under the SIMD helper (5.1-5.4), not checked in a tree")
       for inner in ("gcm-aes-aesni", "generic-gcm-aes-aesni")
       for since, until, status, src, note in (
           ("5.0", "5.4", "kernel", f"arch/x86/crypto/aesni-intel_glue.c @5.0 ({MODES} §5.1)", ""),
           ("5.4", None, "kept", f"5.4: __rfc4106-gcm-aesni / __generic-gcm-aesni, 400 ({MODES} §5.3)",
            "the v5.0 internal algorithm, kept in every version under the public driver"))]
    + [Row("driver", X86, "5.0", None, name, drv, drv, 400, "aesni_intel",
           f"arch/x86/crypto/aesni-intel_glue.c @5.0-6.19 ({MODES} §5.1, §5.3, §5.6)",
           note="v5.0's form in every version (internal + hand-made SIMD dispatch over cryptd); 6.16+ "
                "registers it directly (sync); 6.11+ adds -aesni-avx/-vaes-* generations, not modelled")
       for name, drv in (("rfc4106(gcm(aes))", "rfc4106-gcm-aesni"), ("gcm(aes)", "generic-gcm-aesni"))]
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
                   "x86", f"crypto/chacha.c @6.16-6.17, $(ARCH) = x86 ({ARCHES} §1.1 notes)")
    + drivers(CHACHA, "-simd", "-lib", machines=X86, since="6.18", until=None, priority=300,
              module="chacha_x86_64",
              source=f"crypto/chacha.c @6.18-6.19 over the x86 ChaCha library ({CORE} §5, §6.3)",
              note="crypto/chacha.c's *-lib drivers, whose library runs the x86 SIMD code; here the x86 "
                   "module registers them (the kernel's module is chacha), and the generic module's "
                   "*-lib rows do not apply on x86")
    + drivers(CHACHA, "-generic", "-generic", machines=X86, since="5.0", until="6.18", priority=100,
              module="chacha_generic",
              source=f"crypto/chacha_generic.c @5.0-6.15, crypto/chacha.c @6.16-6.17 ({ARCHES} §1.1)",
              note="x86's own rows for the generic module: the same as every machine's until 6.18, "
                   "after which the x86 module's *-lib drivers hold the names")
    + [Row("driver", X86, "5.0", "6.16", "poly1305", "poly1305-simd", "poly1305-simd", 300, "poly1305_x86_64",
           f"arch/x86/crypto/poly1305_glue.c @5.0 ({ARCHES} §5); removed 6.16 ({ARCHES} §1.1 notes)",
           unknown="that the 5.6+ rewrite kept the name poly1305-simd and priority 300: from history, "
                   "not checked in a tree"),
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
           note="one-pass AEAD above the template instance (300), on purpose")
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
    "drivers the kernel has and this project does not register: the AVX/VAES generations of the "
    "AES-NI GCM drivers (generic-gcm-aesni-avx, -vaes-avx2, -vaes-avx10_*; rfc4106-gcm-*), the 5.4+ internal "
    "names __generic-gcm-aesni / __rfc4106-gcm-aesni (the v5.0 ones stay), cts-cbc-aes-aesni, the aesni-avx mode "
    "drivers (500)",
    "the 512-bit drivers' priority 1 on CPUs that discourage 512-bit vectors (6.13+)",
    "6.16+: the mode drivers registered directly (sync, no SIMD wrapper, no cryptd): here still"
    " wrapped",
    "6.17+'s sha384-lib/sha512-lib run the SHA-512 library, whose x86 code uses SSSE3/AVX/AVX2 "
    "inside its own FPU sections: the -lib drivers here are the generic C and open none",
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
         unknown="xts-aes-aesni's (5.12) and xctr-aes-aesni's per-step sections are not modelled: one "
                 "section per request"),
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
