"""The kernel-version table's rows for the ppc64le machine's drivers.

No kernel counterpart: the facts of the kernel's ppc64le crypto drivers per
version (the sources named in each row); crypto_api.kernels.table collects
these with the generic rows and the other machines'.
"""

from __future__ import annotations

from crypto_api.kernels.row import ARCHES, CHACHA, LIB6X, MODES, DeviceTable, Row, Rule, chacha_arch, drivers

PPC = ("ppc64le",)
#: the vmx_crypto sources after the move out of drivers/
_VMX_NOW = "arch/powerpc/crypto @6.19 (torvalds/linux)"
_MOVE_UNKNOWN = ("the release that moved drivers/crypto/vmx to arch/powerpc/crypto is not read in a tree: "
                 "6.8 per the commit \"crypto: vmx - Move to arch/powerpc/crypto\" (December 2023), "
                 "believed, not checked; the module name vmx_crypto and the drivers are the same on both "
                 "sides; the blkcipher-to-skcipher conversion was posted 2019-05-20, after 5.2's merge "
                 "window, so 5.3 (what changed: the type, not the behaviour modelled here)")

#: This file's rows of the table.
ROWS = tuple(
    [Row("driver", PPC, "5.0", None, "aes", "p8_aes", "p8_aes", 1000, "vmx_crypto",
           f"drivers/crypto/vmx/aes.c (arch/powerpc/crypto from 6.8-6.13) ({ARCHES} §3.1)"),
       Row("driver", PPC, "5.0", None, "cbc(aes)", "p8_aes_cbc", "p8_aes_cbc", 2000, "vmx_crypto",
           f"drivers/crypto/vmx/aes_cbc.c @5.2 (blkcipher), @5.3 (skcipher conversion), "
           f"{_VMX_NOW}/aes_cbc.c",
           note="NEED_FALLBACK; fallback cbc(aes) (mask NEED_FALLBACK | ASYNC) without SIMD; one VSX "
                "section per walk step",
           unknown=_MOVE_UNKNOWN),
       Row("driver", PPC, "5.0", None, "ctr(aes)", "p8_aes_ctr", "p8_aes_ctr", 2000, "vmx_crypto",
           f"drivers/crypto/vmx/aes_ctr.c @5.2, @5.3 (skcipher conversion), {_VMX_NOW}/aes_ctr.c",
           note="NEED_FALLBACK; block size 1, chunk 16; fallback ctr(aes) without SIMD; one VSX section "
                "per walk step and one for a last partial block",
           unknown=_MOVE_UNKNOWN + "; v5.0's core carried the counter in 32 bits in calls of fewer "
                   "than 8 blocks (fixed in 5.1 by \"crypto: vmx - CTR: always increment IV as "
                   "quadword\", also in stable): not modelled, every version carries 128 bits"),
       Row("driver", PPC, "5.0", None, "xts(aes)", "p8_aes_xts", "p8_aes_xts", 2000, "vmx_crypto",
           f"drivers/crypto/vmx/aes_xts.c @5.2, @5.3 (skcipher conversion), {_VMX_NOW}/aes_xts.c",
           note="NEED_FALLBACK; keys 32/48/64; fallback xts(aes) without SIMD and, from 5.4, for a "
                "partial last block (rule p8.xts_tail)",
           unknown=_MOVE_UNKNOWN),
       Row("driver", PPC, "5.0", None, "ghash", "p8_ghash", "p8_ghash", 1000, "vmx_crypto",
           f"drivers/crypto/vmx/ghash.c @5.0 (fallback shash) and @5.2+ (software fallback), "
           f"{_VMX_NOW}/ghash.c (CRYPTO_AHASH_ALG_BLOCK_ONLY)",
           note="NEED_FALLBACK in 5.0-5.1 only (rule p8.ghash_fallback)",
           unknown=_MOVE_UNKNOWN + "; the API's partial-block handling (BLOCK_ONLY) is taken from 6.16, "
                   "the release of the shash partial-block series, not read in a 6.16 tree"),
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
    "vmx_crypto's cbc/ctr/xts drivers show as skciphers in /proc/crypto in every version (5.0-5.2 "
    "registered them as blkciphers)",
    "v5.0's p8_aes_ctr core carried the counter in 32 bits in calls of fewer than 8 blocks (fixed in "
    "5.1): every version here carries 128 bits",
    "p8_aes_cbc/p8_aes_xts keep one key schedule for both directions (the kernel a separate "
    "decryption schedule): same answers and sections",
)

#: The glue's rules on this machine that changed by version (crypto_api.version_rules).
RULES = (
    Rule("p8.xts_tail", PPC, "5.0", "5.4", "refused",
         "p8_aes_xts: with SIMD, a length that is not whole 16-byte blocks is EINVAL (the walk of a "
         "16-byte block size refuses the tail); 0 bytes do nothing; without SIMD the fallback decides",
         "drivers/crypto/vmx/aes_xts.c @5.2 (torvalds/linux: no length test; blkcipher walk)",
         unknown="5.3's skcipher form is taken as the same (its walk also refuses a partial block)"),
    Rule("p8.xts_tail", PPC, "5.4", None, "fallback",
         "p8_aes_xts: under 16 bytes EINVAL; a length that is not whole blocks goes to the fallback "
         "xts(aes) (the template's ciphertext stealing)",
         f"{_VMX_NOW}/aes_xts.c: cryptlen < AES_BLOCK_SIZE -> -EINVAL, cryptlen % XTS_BLOCK_SIZE -> "
         f"fallback",
         unknown="the release is taken as 5.4, with the xts template's stealing (\"crypto: vmx/xts - use "
                 "fallback for ciphertext stealing\" belongs to that series); no 5.4 tree read"),
    Rule("p8.ghash_fallback", PPC, "5.0", "5.2", "tfm",
         "p8_ghash: CRYPTO_ALG_NEED_FALLBACK; without SIMD, update and final go to a fallback ghash "
         "descriptor (ghash-generic) beside the VSX one",
         "drivers/crypto/vmx/ghash.c @5.0 (fallback shash, in_interrupt())",
         unknown="the 5.1 state is not read; 5.2 is the release of \"crypto: vmx - ghash: do nosimd "
                 "fallback manually\" (May 2019), taken as the boundary"),
    Rule("p8.ghash_fallback", PPC, "5.2", None, "manual",
         "p8_ghash: no fallback tfm, no NEED_FALLBACK; without SIMD the same descriptor goes on in "
         "software (gf128mul_lle)",
         f"{_VMX_NOW}/ghash.c (__ghash_block: crypto_simd_usable() or gf128mul_lle)"),
    Rule("chacha.sections", PPC, "6.16", None, "library",
         "crypto/chacha.c over the powerpc ChaCha library: walk stride 64; per step, 64 bytes or less, no "
         "POWER10 or no SIMD run the generic code, longer steps P10_DO pieces of at most 4096 bytes, each "
         "its own VSX section; HChaCha always the generic code",
         f"crypto/chacha.c, lib/crypto/powerpc/chacha.h (chacha_crypt_arch) @6.16-6.19 ({ARCHES} §3.2, §3.5)",
         unknown="6.16-6.17 from the pull requests (no release tree read)"),
)
