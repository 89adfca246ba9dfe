"""The kernel-version table's rows for the generic drivers and the templates.

No kernel counterpart: the facts of crypto/*.c per kernel version (the sources
named in each row); crypto_api.kernels.table collects these with each
machine's rows (the ``kernel_rows`` module of its package).
"""

from __future__ import annotations

from crypto_api.kernels.row import (ARCHES, CHACHA, DERIVED, GENERIC, LIB6X, MODES, NO_COMPARISON, Row, Rule,
                                    TestmgrEntry, drivers)

SHA2 = ("sha224", "sha256")
SHA512 = ("sha384", "sha512")

#: This file's rows of the table.
ROWS = tuple(
    [Row("driver", GENERIC, "5.0", "7.0", "aes", "aes-generic", "aes-generic", 100, "aes_generic",
         f"crypto/aes_generic.c @5.0-6.19; 7.0 aes-lib ({ARCHES} §1.1, §5)"),
     Row("driver", GENERIC, "5.18", None, "aria", "aria-generic", "aria-generic", 100, "aria_generic",
         f"crypto/aria_generic.c @6.1, 6.19 ({MODES} §6.1)",
         unknown="first release: present in 6.1, absent in 5.15; 5.18 from commit history, not checked")]
    + drivers(CHACHA, "-generic", "-generic", machines=GENERIC, since="5.0", until="6.18", priority=100,
               module="chacha_generic",
               source=f"crypto/chacha_generic.c @5.0-6.15, crypto/chacha.c @6.16-6.17 ({ARCHES} §1.1)")
    + drivers(CHACHA, "-generic", "-lib", machines=GENERIC, since="6.18", until=None, priority=300,
               module="chacha_generic", source=f"crypto/chacha.c @6.18-6.19 ({ARCHES} §1.1, §2.1, §3.5)",
               note="the kernel's *-lib runs the arch library code; every machine emulated here has its "
                    "own rows (row.chacha_arch: its ChaCha module registers the *-lib drivers over its "
                    "library), so these apply only to a machine without one")
    + [Row("driver", GENERIC, "5.0", "7.0", "nhpoly1305", "nhpoly1305-generic", "nhpoly1305-generic", 100,
           "nhpoly1305", f"crypto/nhpoly1305.c @5.0-6.19; removed 7.0 ({LIB6X} §2.1)"),
       Row("driver", GENERIC, "5.0", "6.16", "poly1305", "poly1305-generic", "poly1305-generic", 100,
           "poly1305_generic", f"crypto/poly1305_generic.c @5.0-6.15 ({ARCHES} §1.1 notes)"),
       Row("driver", GENERIC, "6.16", None, "poly1305", "poly1305-generic", "poly1305-generic", 100,
           "poly1305_generic", f"6.16 removed every poly1305 crypto-API algorithm ({ARCHES} §1.1 notes)",
           status="kept", note="this project's rfc7539/rfc7539esp templates spawn the best poly1305 "
                               "shash where 6.16+ kernels call the Poly1305 library; the instances' "
                               "driver names say poly1305-generic, as the kernel's do (rule "
                               "rfc7539.instance)")]
    + drivers(SHA2, "-generic", "-generic", machines=GENERIC, since="5.0", until="6.17", priority=100,
               module="sha256_generic", source=f"crypto/sha256_generic.c @5.0-6.16 ({LIB6X} §2.1)")
    + drivers(SHA2, "-generic", "-lib", machines=GENERIC, since="6.17", until=None, priority=100,
               module="sha256_generic", source=f"crypto/sha256.c wrapping the library, 6.17 inferred ({LIB6X} §2.1)",
               unknown="the -lib wrappers' priority (this project keeps 100); 6.17 is inferred from the "
                       "KUnit suites of the v6.17 tree")
    + drivers(("sha1",), "-generic", "-generic", machines=GENERIC, since="5.0", until="6.17", priority=100,
               module="sha1_generic", source=f"crypto/sha1_generic.c @5.0-6.16 ({LIB6X} §2.1)")
    + drivers(SHA512, "-generic", "-generic", machines=GENERIC, since="5.0", until="6.17", priority=100,
               module="sha512_generic", source=f"crypto/sha512_generic.c @5.0-6.16 ({LIB6X} §2.1)")
    + drivers(("sha1",), "-generic", "-lib", machines=GENERIC, since="6.17", until=None, priority=100,
               module="sha1_generic", source=f"crypto/sha1.c wrapping the library, 6.17 inferred ({LIB6X} §2.1)",
               unknown="the -lib wrappers' priority (this project keeps 100); 6.17 is inferred")
    + drivers(SHA512, "-generic", "-lib", machines=GENERIC, since="6.17", until=None, priority=100,
               module="sha512_generic",
               source=f"crypto/sha512.c wrapping the library, 6.17 inferred ({LIB6X} §2.1)",
               unknown="the -lib wrappers' priority (this project keeps 100); 6.17 is inferred")
    + [Row("driver", GENERIC, "6.0", "6.19", "polyval", "polyval-generic", "polyval-generic", 100,
           "polyval_generic", f"crypto/polyval-generic.c @6.0-6.18 ({LIB6X} §1.1, §1.2)"),
       Row("driver", GENERIC, "6.19", None, "polyval", "polyval-generic", "polyval-generic", 100,
           "polyval_generic", f"6.19 moved POLYVAL to a library and removed the shash ({LIB6X} §1.1)",
           status="kept", note="this project's hctr2 spawns a polyval shash in every version; "
                               "6.19's hctr2 names polyval-lib in its driver name instead")]
    + [Row("driver", GENERIC, "5.0", None, "ghash", "ghash-generic", "ghash-generic", 100, "ghash_generic",
           f"crypto/ghash-generic.c @5.0-6.19 ({LIB6X} §2.1: the shash goes in 7.1+)")]
    # the templates
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
    + [Row("template", GENERIC, "5.0", None, "", t, t, None, t, src)
       for t, src in (("hmac", "crypto/hmac.c @5.0-6.19"),
                      ("cts", "crypto/cts.c @5.0-6.19 (CBC-CS3)"))]
    + [Row("template", GENERIC, "5.0", None, "", t, t, None, "gcm", "crypto/gcm.c @5.0-6.19")
       for t in ("gcm", "gcm_base", "rfc4106", "rfc4543")]
    + [Row("template", GENERIC, "5.0", None, "", t, t, None, t, f"crypto/{t}.c @6.x",
           unknown="only a 6.x tree was read; earlier versions are taken to build the same instances")
       for t in ("authenc", "authencesn")]
    + [Row("template", GENERIC, "5.0", None, "", t, t, None, t,
           f"crypto/{t}.c (AEAD form; create, encrypt and decrypt read in a 5.x and a 6.x tree) with "
           f"aead_geniv_alloc/aead_init_geniv (crypto/aead.c in 5.0, crypto/geniv.c later) ({MODES} §1.8)",
           note=f"{t} takes an inner IV of " + ("exactly 8 bytes" if t == "seqiv" else "a multiple of 8 bytes")
                + "; no testmgr entry: alg_test reports 'No test' and passes",
           unknown="the salt comes from os.urandom, not the kernel's default RNG (stdrng); no seqiv( or "
                   "echainiv( entry in a 5.x testmgr.c searched whole, the 6.x tables were not read to the "
                   "end (assumed still none)")
       for t in ("seqiv", "echainiv")]
    + [Row("template", GENERIC, "6.0", None, "", t, t, None, mod, f"{src} ({LIB6X} §1.1)")
       for t, mod, src in (("xctr", "xctr", "crypto/xctr.c, 6.0+"),
                           ("hctr2", "hctr2", "crypto/hctr2.c, 6.0+"),
                           ("hctr2_base", "hctr2", "crypto/hctr2.c, 6.0+"))]
)

API = "crypto-api reference"
_ADI = "adiantum({},aes-generic,nhpoly1305-generic)"
_LIB_UNKNOWN = ("the reference gives the -lib names from 6.16, the driver rows from 6.18 (6.16-6.17 "
                "register chacha20-generic); no known version lies between")

#: testmgr's entries per version (the sibling table; crypto_api.kernels.row.TestmgrEntry).
TESTMGR = (
    TestmgrEntry("*", "5.0", "5.2", True, NO_COMPARISON,
                 f"crypto/testmgr.c @5.0: the old framework; comparison with a generic driver is 5.2+ "
                 f"({API} §8.6, §11)"),
    *(e for x in ("xchacha12", "xchacha20") for e in (
        TestmgrEntry(f"adiantum({x},aes)", "5.2", "6.16", True, _ADI.format(x + "-generic"),
                     f"crypto/testmgr.c @5.2-6.15 ({API} §8.1)"),
        TestmgrEntry(f"adiantum({x},aes)", "6.16", "7.0", True, _ADI.format(x + "-lib"),
                     f"crypto/testmgr.c @6.16 ({API} §8.1)", unknown=_LIB_UNKNOWN))),
    *(TestmgrEntry(n, "6.16", None, True, n + "-lib", f"crypto/testmgr.c @6.16+ ({API} §8.1)",
                   unknown=_LIB_UNKNOWN) for n in CHACHA),
    *(TestmgrEntry(n, "6.17", None, True, n + "-lib", f"crypto/testmgr.c with crypto/sha256.c ({LIB6X} §2.1)",
                   unknown="inferred with the table's sha256-lib rows (6.17); the entry's generic_driver "
                           "not read in a tree") for n in SHA2),
    *(TestmgrEntry(n, "6.17", None, True, n + "-lib", f"crypto/testmgr.c with the SHA library wrappers ({LIB6X} §2.1)",
                   unknown="inferred with the table's -lib rows (6.17); the entry's generic_driver not read "
                           "in a tree") for n in ("sha1", *SHA512)),
    *(TestmgrEntry(f"hmac({n})", "6.17", None, True, f"hmac({n}-lib)",
                   "this project's decision: the instance its template builds from that version's generic "
                   "drivers", unknown="6.17's HMAC moved into the SHA library (hmac-sha*-lib drivers); the "
                                      "entry's generic_driver not read in a tree")
      for n in ("sha1", *SHA2, *SHA512)),
    *(TestmgrEntry(alg, "5.0", "6.0", False, DERIVED, f"came with HCTR2 in 6.0 ({LIB6X} §1.1, §1.4)")
      for alg in ("hctr2(aes)", "xctr(aes)", "polyval")),
    TestmgrEntry("hctr2(aes)", "6.19", None, True, "hctr2_base(xctr(aes-generic),polyval-lib)",
                 f"crypto/testmgr.c @6.19 ({LIB6X} §1.4)"),
    TestmgrEntry("polyval", "6.19", None, False, DERIVED,
                 f"'crypto: testmgr - Remove polyval tests', 6.19 ({LIB6X} §1.1)"),
    TestmgrEntry("essiv(authenc(hmac(sha256),cbc(aes)),sha256)", "5.0", "5.4", False, DERIVED,
                 f"crypto/essiv.c and its testmgr entries came with 5.4 ({MODES} §4.5)"),
    TestmgrEntry("essiv(authenc(hmac(sha256),cbc(aes)),sha256)", "6.17", None, True,
                 "essiv(authenc(hmac(sha256-lib),cbc(aes-generic)),sha256-lib)",
                 "this project's decision: the instance its template builds from that version's generic "
                 "drivers", unknown="the kernel's generic_driver for this entry once sha256-generic became "
                                    "sha256-lib was not read"),
    TestmgrEntry("essiv(cbc(aes),sha256)", "5.0", "5.4", False, DERIVED,
                 f"crypto/essiv.c and its testmgr entry came with 5.4 ({MODES} §4.5)"),
    TestmgrEntry("essiv(cbc(aes),sha256)", "6.17", None, True, "essiv(cbc(aes-generic),sha256-lib)",
                 "this project's decision: the instance its template builds from that version's generic "
                 "drivers", unknown="the kernel's generic_driver for essiv once sha256-generic became "
                                    "sha256-lib was not read"),
    *(TestmgrEntry(f"{m}(aria)", "5.0", "6.0", False, DERIVED,
                   f"'testmgr: add ARIA testmgr tests' came with crypto/aria.c in 6.0 ({MODES} §6)")
      for m in ("cbc", "ctr", "ecb")),
    *(TestmgrEntry(f"authenc(hmac({h}),cbc(aes))", "6.17", None, True, f"authenc(hmac({h}-lib),cbc(aes-generic))",
                   "this project's decision: the instance its template builds from that version's generic "
                   "drivers", unknown="the kernel's generic_driver for authenc once the SHA drivers became "
                                      "-lib was not read")
      for h in ("sha1", "sha256", "sha512")),
    TestmgrEntry("xts(aes)", "5.2", None, True, "xts(ecb(aes-generic))",
                 "crypto/testmgr.c @5.2+ (this project's alg_test_descs)",
                 unknown="the entry's generic_driver once aes-generic gives way to aes-lib (7.0)"),
    TestmgrEntry("rfc7539(chacha20,poly1305)", "6.18", None, True, "rfc7539(chacha20-lib,poly1305-generic)",
                 f"crypto/testmgr.c @6.19 ({MODES} §2.4)", unknown="6.16-6.18 not read: taken as 6.19's"),
    TestmgrEntry("rfc7539esp(chacha20,poly1305)", "6.18", None, True,
                 "rfc7539esp(chacha20-lib,poly1305-generic)",
                 f"crypto/testmgr.c @6.19 ({MODES} §2.4)", unknown="6.16-6.18 not read: taken as 6.19's"),
)

#: The templates' rules that changed by version (crypto_api.version_rules).
RULES = (
    Rule("rfc7539.instance", GENERIC, "5.0", "5.2", "echo",
         "rfc7539/rfc7539esp: cra_name repeats the parameters as requested (asking by driver names "
         "gives an instance testmgr has no test for); driver name from the children's driver names; "
         "priority the integer mean of the children's",
         f"crypto/chacha20poly1305.c @5.0 ({MODES} §3, §9)"),
    Rule("rfc7539.instance", GENERIC, "5.2", "6.16", "children",
         "rfc7539/rfc7539esp: cra_name from the children's cra_names (so rfc7539(chacha20,poly1305) "
         "whatever drivers were asked for); driver name and priority as in 5.0",
         "crypto/chacha20poly1305.c, commit 5e27f38f1f3f 'crypto: chacha20poly1305 - set cra_name "
         f"correctly' (5.2 merge window; stable 5.1.4 and older lines) ({MODES} §3.6)",
         unknown="the 5.0.y and 4.x stable updates that took the fix are not modelled: 5.0 is the release"),
    Rule("rfc7539.instance", GENERIC, "6.16", None, "library",
         "rfc7539/rfc7539esp: Poly1305 from the library, not a spawned hash: the second parameter must "
         "be poly1305 or poly1305-generic (else EINVAL); cra_name <tmpl>(<chacha cra_name>,poly1305), "
         "driver <tmpl>(<chacha driver>,poly1305-generic), priority and alignmask the ChaCha child's; "
         "out of place, the AD (with rfc7539esp's IV copy) is copied into dst",
         "crypto/chacha20poly1305.c, 'crypto: chacha20poly1305 - Use lib/crypto poly1305' (Herbert Xu, "
         f"Apr 2025), present 6.19, absent 6.13 ({MODES} §3.6)",
         unknown="6.16 from the series' merge window (absent 6.13, present 6.19); the library's code here "
                 "is the best registered poly1305 shash, so a trace still shows its updates"),
    Rule("chacha.registers", GENERIC, "6.16", "6.18", "optimized",
         "crypto/chacha.c registers the *-<arch> ChaCha drivers only where chacha_is_arch_optimized() "
         "(the arch library has its SIMD code on this CPU); the *-generic always",
         f"crypto/chacha.c @6.16-6.17 ({ARCHES} §1.1 notes, §3.5)",
         unknown="6.16-6.17 from the pull requests (no release tree read)"),
    Rule("chacha.registers", GENERIC, "6.18", None, "always",
         "crypto/chacha.c registers the three *-lib drivers on every CPU (the library runs the generic "
         "code inside where the CPU lacks the SIMD code)",
         f"crypto/chacha.c @6.18-6.19 ({ARCHES} §1.1 notes, §3.5)"),
)

#: What the table does not cover anywhere (the fidelity page lists it).
NOT_MODELLED = (
    "testmgr's configurations per version (5.0's np/tap framework, 5.1's testvec_configs, 6.16's "
    "renames): every version runs this project's (5.2+) configurations; the poly1305 entry after "
    "6.16 (the kernel has no poly1305 algorithm left; this project keeps its entry)",
    "the lookup rules per version (the rules that are modelled are listed under Rules by version); "
    "in particular 6.13+'s asynchronous self-tests (a registration here always waits for its test: "
    "see the first answer in a fresh process)",
    "5.0-5.4's module dependencies that load the generic ChaCha and NHPoly1305 modules with the "
    "arch ones: the generic drivers register here in every version anyway",
)
