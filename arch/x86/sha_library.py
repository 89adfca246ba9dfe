"""The x86 SHA-2 library code (lib/crypto/x86/sha256.h and sha512.h, 6.17+):
which block function the library's static call points at on this CPU, and
its FPU rule.

The library picks once, at boot, the best code the CPU has, in the order of
the 5.x drivers' priorities: SHA-256 the SHA extensions, else AVX2 (with
BMI2 and the AVX check), else AVX, else SSSE3; SHA-512 AVX2, else AVX, else
SSSE3 (the same CPU checks: arch/x86/sha_variants.py).  Each batch runs in a
kernel_fpu_begin/end section of its own where ``irq_fpu_usable()``, else the
generic C: the test of the 6.17 library (it does not consult the self-test
manager's SIMD switch, unlike the 5.x glue's ``crypto_simd_usable()``).
crypto_api.algs.sha_library applies it; a CPU with none of the codes gets
None (the library's generic C).
"""

from __future__ import annotations

from typing import Optional

import crypto_api as capi
from crypto_api.algs.sha_library import ArchShaLibrary
from crypto_api.arch.x86 import sha256_ssse3_glue, sha512_ssse3_glue


def _library(name: str, blocks) -> ArchShaLibrary:
    return ArchShaLibrary(name=name, blocks=blocks, usable=capi.irq_fpu_usable,
                          begin=capi.kernel_fpu_begin, end=capi.kernel_fpu_end)


def sha256() -> Optional[ArchShaLibrary]:
    """The SHA-256 library's x86 code on this CPU, or None."""
    usable = sha256_ssse3_glue.usable_variants()
    if not usable:
        return None
    suffix, _prio, fn = max(usable, key=lambda v: v[1])
    from crypto_api.arch.x86._sha256_ni import ffi, lib
    return _library(f"sha256-{suffix}", ffi.addressof(lib, fn))


def sha512() -> Optional[ArchShaLibrary]:
    """The SHA-512 library's x86 code on this CPU, or None."""
    usable = sha512_ssse3_glue.usable_variants()
    if not usable:
        return None
    suffix, _prio = max(usable, key=lambda v: v[1])
    from crypto_api.arch.x86._sha512_x86 import ffi, lib
    return _library(f"sha512-{suffix}", ffi.addressof(lib, f"sha512_{suffix}_blocks"))
