"""The kernel-version table: which driver and template exists in which kernel.

No kernel counterpart: facts gathered from the kernels' sources, with the file
and version each row comes from, and the project's reference that read it
(which names the kernel trees read).  One row says, for one of this project's drivers (its
``ours`` driver name, as its module registers it) or templates, on the
machines named (``*``: every machine), over the versions ``[since, until)``
(``until`` None: still in the latest release), whether the kernel has it and
under which driver name and priority.  A driver or template with rows but
none covering a version is absent from that version; one with no rows at all
(plug-ins, tests' drivers) is not governed by the table.

``status`` says how the row is applied:

* ``kernel``: as the kernel has it (``driver``/``priority`` are the kernel's);
* ``project``: a driver this project adds that no kernel has (the one-pass
  ChaCha20-Poly1305 AEADs, the seed designs, the 64-bit-limb Poly1305).  They
  stay in every version at their own (low, or explicit) priority, so that
  ``cra_name`` lookups resolve as the kernel's would except where the project
  deliberately adds a faster driver; ``note`` says which;
* ``kept``: the kernel of that range has no such driver, but this project keeps
  it registered because another part of it needs it (the reason in ``note``).

``unknown`` names what the sources did not settle; nothing there is guessed
silently: where a priority is unknown the project's own is kept and said so.
"""

from __future__ import annotations

from typing import Iterable, List, Optional, Tuple

import attrs

GENERIC = ("*",)
X86, ARM64, ARM, PPC = ("x86_64",), ("arm64",), ("arm",), ("ppc64le",)
STATUSES = ("kernel", "project", "kept")

# The references, by the short names the sources below use.
ARCHES = "other-arches reference"
MODES = "aead-modes reference"
LIB6X = "6.x reference"


@attrs.frozen
class Row:
    """One fact of the table (see the module docstring)."""

    what: str                       # "driver" or "template"
    machines: Tuple[str, ...]
    since: str
    until: Optional[str]
    cra_name: str
    ours: str                       # this project's driver name (a template: its name)
    driver: Optional[str]           # the name registered in that range (a template: its name)
    priority: Optional[int]         # None for a template
    module: str                     # this project's module registering it
    source: str
    status: str = "kernel"
    note: str = ""
    unknown: str = ""

    def __attrs_post_init__(self) -> None:
        if self.status not in STATUSES or self.what not in ("driver", "template"):
            raise ValueError(f"table row {self.ours}: status {self.status!r} / what {self.what!r}")


def _drivers(names: Iterable[str], suffix_ours: str, suffix: str, **kw) -> List[Row]:
    """The same row for each of ``names`` (``chacha20`` ...): ``ours`` is
    ``name + suffix_ours``, the registered driver ``name + suffix``."""
    return [Row("driver", cra_name=n, ours=n + suffix_ours, driver=n + suffix, **kw) for n in names]


CHACHA = ("chacha20", "xchacha20", "xchacha12")
SHA2 = ("sha224", "sha256")


def _chacha_arch(machines, ours_sfx, module, first, first_source, arch_name, arch_source,
                 since="5.0", prio=300) -> List[Row]:
    """An arch ChaCha module: its own drivers until 6.16, crypto/chacha.c's
    ``*-<arch>`` in 6.16-6.17, then nothing of its own (6.18's ``*-lib``
    drivers are the generic module's rows)."""
    return (_drivers(CHACHA, ours_sfx, first, machines=machines, since=since, until="6.16",
                     priority=prio, module=module, source=first_source)
            + _drivers(CHACHA, ours_sfx, "-" + arch_name, machines=machines, since="6.16", until="6.18",
                       priority=300, module=module, source=arch_source))


ROWS: Tuple[Row, ...] = tuple(
    # ---- generic drivers (every machine) --------------------------------------
    [Row("driver", GENERIC, "5.0", "7.0", "aes", "aes-generic", "aes-generic", 100, "aes_generic",
         f"crypto/aes_generic.c @5.0-6.19; 7.0 aes-lib ({ARCHES} §1.1, §5)"),
     Row("driver", GENERIC, "5.18", None, "aria", "aria-generic", "aria-generic", 100, "aria_generic",
         f"crypto/aria_generic.c @6.1, 6.19 ({MODES} §6.1)",
         unknown="first release: present in 6.1, absent in 5.15; 5.18 from commit history, not checked")]
    + _drivers(CHACHA, "-generic", "-generic", machines=GENERIC, since="5.0", until="6.18", priority=100,
               module="chacha_generic",
               source=f"crypto/chacha_generic.c @5.0-6.15, crypto/chacha.c @6.16-6.17 ({ARCHES} §1.1)")
    + _drivers(CHACHA, "-generic", "-lib", machines=GENERIC, since="6.18", until=None, priority=300,
               module="chacha_generic", source=f"crypto/chacha.c @6.18-6.19 ({ARCHES} §1.1, §2.1, §3.5)",
               note="the kernel's *-lib runs the arch library code; here it is the generic C "
                    "(this project's arch ChaCha modules register nothing from 6.18)")
    + [Row("driver", GENERIC, "5.0", "7.0", "nhpoly1305", "nhpoly1305-generic", "nhpoly1305-generic", 100,
           "nhpoly1305", f"crypto/nhpoly1305.c @5.0-6.19; removed 7.0 ({LIB6X} §2.1)"),
       Row("driver", GENERIC, "5.0", "6.16", "poly1305", "poly1305-generic", "poly1305-generic", 100,
           "poly1305_generic", f"crypto/poly1305_generic.c @5.0-6.15 ({ARCHES} §1.1 notes)"),
       Row("driver", GENERIC, "6.16", None, "poly1305", "poly1305-generic", "poly1305-generic", 100,
           "poly1305_generic", f"6.16 removed every poly1305 crypto-API algorithm ({ARCHES} §1.1 notes)",
           status="kept", note="this project's rfc7539/rfc7539esp templates spawn a poly1305 shash; "
                               "6.16+ kernels use the Poly1305 library inside the template",
           unknown="the driver name of 6.16+ rfc7539 instances")]
    + _drivers(SHA2, "-generic", "-generic", machines=GENERIC, since="5.0", until="6.17", priority=100,
               module="sha256_generic", source=f"crypto/sha256_generic.c @5.0-6.16 ({LIB6X} §2.1)")
    + _drivers(SHA2, "-generic", "-lib", machines=GENERIC, since="6.17", until=None, priority=100,
               module="sha256_generic", source=f"crypto/sha256.c wrapping the library, 6.17 inferred ({LIB6X} §2.1)",
               unknown="the -lib wrappers' priority (this project keeps 100); 6.17 is inferred from the "
                       "KUnit suites of the v6.17 tree")
    # ---- templates (every machine) -------------------------------------------
    + [Row("template", GENERIC, "5.0", None, "", t, t, None, mod, src)
       for t, mod, src in (("ecb", "ecb", f"crypto/ecb.c ({MODES} §4.1)"),
                           ("cbc", "cbc", f"crypto/cbc.c ({MODES} §4.2)"),
                           ("ctr", "ctr", f"crypto/ctr.c ({MODES} §4.3)"),
                           ("rfc3686", "ctr", f"crypto/ctr.c ({MODES} §4.3)"),
                           ("xts", "xts", f"crypto/xts.c ({MODES} §4.4)"),
                           ("cryptd", "cryptd", f"crypto/cryptd.c ({MODES} §5.4)"),
                           ("adiantum", "adiantum", f"crypto/adiantum.c @5.0-6.19 ({ARCHES} §5)"),
                           ("rfc7539", "chacha20poly1305", f"crypto/chacha20poly1305.c ({MODES} §3)"),
                           ("rfc7539esp", "chacha20poly1305", f"crypto/chacha20poly1305.c ({MODES} §3)"))]
    + [Row("template", GENERIC, "5.4", None, "", "essiv", "essiv", None, "essiv",
           f"crypto/essiv.c, 5.4+ ({MODES} §4.5)")]
    # ---- x86_64 ------------------------------------------------------------------
    + [Row("driver", X86, "5.0", None, "aes", "aes-aesni", "aes-aesni", 300, "aesni_intel",
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
    + _chacha_arch(X86, "-simd", "chacha_x86_64", "-simd",
                   f"arch/x86/crypto/chacha_glue.c @5.0-6.15 ({ARCHES} §5)",
                   "x86", f"crypto/chacha.c @6.16-6.17, $(ARCH) = x86 ({ARCHES} §1.1 notes)")
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
    + [Row("driver", X86, "5.0", None, f"{pre}(chacha20,poly1305)", f"{pre}-chacha20poly1305-avx2",
           f"{pre}-chacha20poly1305-avx2", 400, "chacha20poly1305_avx2",
           "no kernel counterpart (arch/x86/chacha20poly1305_glue.py)", status="project",
           note="one-pass AEAD above the template instance (300), on purpose")
       for pre in ("rfc7539", "rfc7539esp")]
    # ---- arm64 -------------------------------------------------------------------
    + [Row("driver", ARM64, "5.0", "7.0", "aes", "aes-arm64", "aes-arm64", 200, "aes_arm64",
           f"arch/arm64/crypto/aes-cipher-glue.c @5.0-6.19 ({ARCHES} §1.1)"),
       Row("driver", ARM64, "5.0", "7.0", "aes", "aes-ce", "aes-ce", 250, "aes_ce_cipher",
           f"arch/arm64/crypto/aes-ce-glue.c @5.0-6.19 ({ARCHES} §1.1)")]
    + _chacha_arch(ARM64, "-neon", "chacha_neon", "-neon",
                   f"arch/arm64/crypto/chacha-neon-glue.c @5.0-6.15 ({ARCHES} §1.1)",
                   "arm64", f"crypto/chacha.c @6.16-6.17 ({ARCHES} §1.1)")
    + _drivers(CHACHA, "-neon-4way", "-neon-4way", machines=ARM64, since="5.0", until=None, priority=200,
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
    # ---- arm ---------------------------------------------------------------------
    + [Row("driver", ARM, "5.0", "7.0", "aes", "aes-arm", "aes-arm", 200, "aes_arm",
           f"arch/arm/crypto/aes-cipher-glue.c @5.0-6.19 ({ARCHES} §2.1)"),
       Row("driver", ARM, "5.0", "7.0", "nhpoly1305", "nhpoly1305-neon", "nhpoly1305-neon", 200,
           "nhpoly1305_neon", f"arch/arm/crypto/nhpoly1305-neon-glue.c @5.0-6.19 ({ARCHES} §2.1)")]
    + _chacha_arch(ARM, "-neon", "chacha_neon", "-neon",
                   f"arch/arm/crypto/chacha-neon-glue.c @5.0-5.4, chacha-glue.c @5.5-6.15 ({ARCHES} §2.1)",
                   "arm", f"crypto/chacha.c @6.16-6.17 ({ARCHES} §2.1, §2.5)")
    # ---- ppc64le -----------------------------------------------------------------
    + [Row("driver", PPC, "5.0", None, "aes", "p8_aes", "p8_aes", 1000, "vmx_crypto",
           f"drivers/crypto/vmx/aes.c (arch/powerpc/crypto from 6.8-6.13) ({ARCHES} §3.1)"),
       Row("driver", PPC, "6.5", "6.16", "poly1305", "poly1305-p10", "poly1305-p10", 300, "poly1305_p10_crypto",
           f"arch/powerpc/crypto/poly1305-p10-glue.c @6.5-6.15 ({ARCHES} §3.3)")]
    + _chacha_arch(PPC, "-p10", "chacha_p10_crypto", "-p10",
                   f"arch/powerpc/crypto/chacha-p10-glue.c @6.5-6.15 ({ARCHES} §3.2)",
                   "powerpc", f"crypto/chacha.c @6.16-6.17 ({ARCHES} §3.5)", since="6.5")
    + _drivers(CHACHA, "-vsx-4way", "-vsx-4way", machines=PPC, since="5.0", until=None, priority=50,
               module="chacha_vsx_4way", source="no kernel counterpart (arch/ppc64le/chacha_vsx4_glue.py)",
               status="project", note="the seed's POWER8 design, below every kernel ChaCha (50)")
)

#: What the table does not cover, by design or for want of sources (the fidelity page lists it).
NOT_MODELLED: Tuple[str, ...] = (
    "drivers the kernel has and this project does not register (GCM/GHASH, cts, xctr, arm32's *-arm "
    "scalar ChaCha and poly1305-arm, aes-arm-bs, arm64's aes-neonbs modes, p8's cbc/ctr/xts): absent "
    "in every version here",
    "5.0-5.4's module dependencies that load chacha_generic with chacha_neon: the generic drivers "
    "register here in every version anyway",
    "5.5+ arm32 ChaCha priority 0 on Cortex-A5/A7",
    "the 512-bit x86 drivers' priority 1 on CPUs that discourage 512-bit vectors (6.13+)",
    "testmgr's entries, generic_driver names and configurations per version",
    "the glue's FPU/NEON/VSX section rules and the core's registration/lookup rules per version",
)
