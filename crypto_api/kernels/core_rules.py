"""The kernel-version table's rules of the core: what changed in crypto/ itself.

No kernel counterpart: facts of crypto/xts.c, crypto/aead.c, crypto/skcipher.c,
crypto/shash.c, crypto/algapi.c and crypto/api.c per kernel version, with the
source of each (the project's references, which name the kernel trees they
read).  crypto_api.kernels.table collects these ``RULES`` with the glue's
(each machine's ``kernel_rows``); the code applying each asks
crypto_api.version_rules.rule by name.
"""

from __future__ import annotations

from .row import GENERIC, LIB6X, MODES, Rule

CORE = "core reference"
_REARM_UNKNOWN = ("absent in 5.0, present in 5.2 (the references read those trees); 5.1 is the commit "
                  "history's release, not read in a 5.1 tree")

#: This file's rules (crypto_api.kernels.row.Rule).
RULES = (
    Rule("xts.stealing", GENERIC, "5.0", "5.4", "refused",
         "xts template: a length that is not a multiple of 16 is EINVAL; 0 bytes is a no-op",
         f"crypto/xts.c @5.0 ({MODES} §4.4, §4.6)"),
    Rule("xts.stealing", GENERIC, "5.4", None, "stealing",
         "xts template: 16 bytes or more, a partial last block by ciphertext stealing (IEEE P1619); "
         "under 16 bytes (0 included) EINVAL",
         f"crypto/xts.c @5.4-6.19 ({MODES} §4.4, §4.6)",
         unknown="stealing is absent in 5.2 and present in 5.4; 5.3 was not read"),
    Rule("aead.setauthsize_zero", GENERIC, "5.0", "5.4", "accepted",
         "crypto_aead_setauthsize(tfm, 0) passes the frontend (the algorithm's own hook may refuse it)",
         f"crypto/aead.c @5.0 ({MODES} §1.4)"),
    Rule("aead.setauthsize_zero", GENERIC, "5.4", None, "refused",
         "crypto_aead_setauthsize(tfm, 0) is EINVAL at the frontend when maxauthsize is not 0",
         f"crypto/aead.c @5.4-6.19 ({MODES} §1.4)",
         unknown="absent in 5.2, present in 5.4; 5.3 was not read"),
    Rule("setkey.failed_rekey", GENERIC, "5.0", "5.1", "kept",
         "a refused setkey of an skcipher, AEAD or keyed shash leaves NEED_KEY as it was: a tfm that "
         "had a good key keeps working with it (a refused length never reaches the driver)",
         f"crypto/skcipher.c, crypto/aead.c, crypto/shash.c @5.0 ({MODES} §1.3, §9 item 7; "
         f"{CORE} §1.4, §1.5)"),
    Rule("setkey.failed_rekey", GENERIC, "5.1", None, "rearmed",
         "a refused setkey of an skcipher, AEAD or keyed shash sets NEED_KEY again: the tfm's next use "
         "is ENOKEY until a setkey succeeds",
         f"crypto/skcipher.c, crypto/aead.c @5.2-6.19 ({MODES} §1.3; {CORE} §1.4, §12 item 26); "
         f"crypto/shash.c: the same series' hash change (\"crypto: hash - set CRYPTO_TFM_NEED_KEY if "
         f"->setkey() fails\", in the 3.16.70 stable release's diff of crypto/shash.c)",
         unknown=_REARM_UNKNOWN + "; the references give no shash boundary, taken as the skcipher/AEAD "
                 "one (one patch series)"),
    Rule("register.empty_driver_name", GENERIC, "5.0", "5.3", "filled",
         "a descriptor with an empty driver name registers as cra_name + \"-generic\" (ENAMETOOLONG "
         "when that is 128 characters or more)",
         f"crypto/algapi.c crypto_set_driver_name @5.0 ({CORE} §1.1, §2.2, §11)"),
    Rule("register.empty_driver_name", GENERIC, "5.3", None, "refused",
         "a descriptor with an empty driver name is EINVAL at registration",
         f"crypto/algapi.c crypto_check_alg @6.x ({CORE} §1.1, §2.2, §11); the change is "
         f"\"crypto: algapi - require cra_name and cra_driver_name\" (linux-crypto, 2019-06-03)",
         unknown="the patch was posted after 5.2's merge window and is taken as merged for 5.3 (an "
                 "inference: the references read crypto_check_alg only in 5.0 and the modern trees)"),
    Rule("lookup.tested_mask", GENERIC, "5.0", "6.12", "instantiates",
         "a lookup whose mask holds CRYPTO_ALG_TESTED (a self-test's) and that finds nothing makes a "
         "lookup larval like any other: the template is instantiated",
         f"crypto/api.c crypto_larval_lookup @5.0-6.11 ({CORE} §2.9)"),
    Rule("lookup.tested_mask", GENERIC, "6.12", None, "refused",
         "a lookup whose mask holds CRYPTO_ALG_TESTED and that finds nothing is ENOENT: no larval, no "
         "template instance (a self-test never instantiates)",
         f"crypto/api.c crypto_larval_lookup @6.12 ({CORE} §2.9, §11)"),
    Rule("lookup.larval_mask", GENERIC, "5.0", "6.12", "skipped",
         "a lookup passes over a lookup larval made by a lookup of the same name with another mask "
         "(and makes its own: a lookup nested in an instantiation instantiates again)",
         f"crypto/api.c __crypto_alg_lookup @5.0-6.11 ({CORE} §2.7, §11)"),
    Rule("lookup.larval_mask", GENERIC, "6.12", None, "matched",
         "a lookup takes a lookup larval of the same name whatever its mask and waits on it, then "
         "looks up again with its own type and mask (a lookup nested in the instantiation that "
         "larval stands for waits on itself: ETIMEDOUT)",
         f"crypto/api.c __crypto_alg_lookup, crypto_larval_wait @6.12 ({CORE} §2.7, §2.11, §11)"),
    Rule("register.duplicate_driver", GENERIC, "5.0", "6.10", "allowed",
         "two registered algorithms may share a driver name; a lookup by that name finds the most "
         "recently registered",
         f"crypto/algapi.c __crypto_register_alg @5.0 ({CORE} §2.3, §11)"),
    Rule("register.duplicate_driver", GENERIC, "6.10", None, "refused",
         "registering a driver name that a registered algorithm already has is EEXIST",
         f"crypto/algapi.c __crypto_register_alg @6.10 mainline ({CORE} §2.3, §11)",
         unknown="the reference says the check was reverted in older stable trees without naming "
                 "them: the LTS lines before 6.10 (up to 6.6) are taken without it"),
    Rule("sha2.library", GENERIC, "5.0", "6.17", "driver",
         "sha224/sha256/sha384/sha512: the generic drivers run the generic C; arch modules register "
         "drivers of their own",
         f"crypto/sha256_generic.c, crypto/sha512_generic.c @5.0-6.16 ({LIB6X} §2.1)"),
    Rule("sha2.library", GENERIC, "6.17", None, "library",
         "the sha* shashes are crypto/sha256.c's and sha512.c's *-lib wrappers of the SHA-2 library: "
         "each compression batch (the block completing a buffered one, an update's whole blocks, "
         "each padding block) runs the machine's library code (its package's sha_library) in a section "
         "of its own where the unit is usable, else the generic C",
         f"crypto/sha256.c, crypto/sha512.c, lib/crypto/<arch>/sha256.h, sha512.h ({LIB6X} §2.1); "
         "'lib/crypto: sha256: Use underlying functions instead of crypto_simd_usable()' "
         "(linux-crypto, 2025-07-31: the unit's own test, not the self-test manager's switch)",
         unknown="6.17 inferred as the table's *-lib rows; whether the July 2025 irq_fpu_usable() "
                 "patch reached 6.17 or only 6.18 was not read (6.17 here)"),
)

NOT_MODELLED = (
    "the SHA-2 library's code of a machine whose package has no sha_library module (6.17+, rule "
    "sha2.library): its *-lib wrappers run the generic C where the kernel's library has arch code",
    "lskcipher (6.7+): no linear-buffer skcipher type in any version (a new type with its own "
    "frontend, /proc/crypto type and type number 4; not cheap)",
    "an empty cra_name: v5.0 checked nothing and registered it (its driver name then \"-generic\"); "
    "here it is EINVAL in every version, as kernels from 5.3 have it",
    "v5.0's xts template on a length of 17 bytes or more that is not whole blocks XORs the full "
    "blocks into dst before its EINVAL; here the request is refused before anything is written",
    "\"crypto: api - Remove instance larval fulfilment\" (a modern kernel; its release was not "
    "read): the registering instance no longer fulfils a lookup larval, the waiter looks up again; "
    "here a lookup larval still takes the first tested match (the 5.5 \"best\" rule) in every "
    "version, and the lookup looks up again only when nothing fulfilled it",
    "a lookup meeting the larval of a request only it could complete (nested in that request's "
    "instantiation): the kernel waits 60 s before its ETIMEDOUT (6.12+ then also kills the larval); "
    "here the ETIMEDOUT comes at once and the larval stays until its request ends",
    "the single-block cipher (crypto_alloc_cipher) has no NEED_KEY in any kernel (an unkeyed or "
    "refused-re-key cipher runs on whatever its context holds); here it is ENOKEY before a key and "
    "after a refused setkey in every version",
)
