"""The kernel-version table's rows for the arm machine's drivers.

No kernel counterpart: the facts of the kernel's arm crypto drivers per
version (the sources named in each row); crypto_api.kernels.table collects
these with the generic rows and the other machines'.
"""

from __future__ import annotations

from crypto_api.kernels.row import ARCHES, CHACHA, LIB6X, MODES, Row, chacha_arch, drivers
from crypto_api.kernels.row import Rule

ARM = ("arm",)

#: This file's rows of the table.
ROWS = tuple(
    [Row("driver", ARM, "5.0", "7.0", "aes", "aes-arm", "aes-arm", 200, "aes_arm",
           f"arch/arm/crypto/aes-cipher-glue.c @5.0-6.19 ({ARCHES} §2.1)"),
       Row("driver", ARM, "5.0", "7.0", "nhpoly1305", "nhpoly1305-neon", "nhpoly1305-neon", 200,
           "nhpoly1305_neon", f"arch/arm/crypto/nhpoly1305-neon-glue.c @5.0-6.19 ({ARCHES} §2.1)")]
    + chacha_arch(ARM, "-neon", "chacha_neon", "-neon",
                   f"arch/arm/crypto/chacha-neon-glue.c @5.0-5.4, chacha-glue.c @5.5-6.15 ({ARCHES} §2.1)",
                   "arm", f"crypto/chacha.c @6.16-6.17 ({ARCHES} §2.1, §2.5)",
                   f"crypto/chacha.c @6.18-6.19 over lib/crypto/arm/chacha.h ({ARCHES} §2.1, §2.5)")
)

#: What the table does not cover on this machine (the fidelity page lists it).
NOT_MODELLED = (
    "drivers the kernel has and this project does not register: the *-arm scalar ChaCha (200, "
    "5.5-6.15), poly1305-arm and poly1305-neon (5.5-6.15), aes-arm-bs and the arm32 aes-ce "
    "modes",
    "5.5+: the NEON ChaCha priority 0 on Cortex-A5/A7, and 6.16+'s ChaCha library running only the "
    "scalar code there: the emulated Cortex-A7 runs the NEON code",
    "6.16+: the ChaCha library's scalar arm code (64 bytes or less, or NEON not usable): here the "
    "generic C, the same bytes",
)

#: The glue's rules on this machine that changed by version (crypto_api.version_rules).
RULES = (
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
