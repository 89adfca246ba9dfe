"""The arm64 cores besides ChaCha's (crypto_api.machine.core.Core): NH and Poly1305
with NEON, scalar AES, AES with the Crypto Extensions, and the seed's
4-block interleaved ChaCha.

* ``neon_hash``: nh_neon (arch/arm64/crypto/nh-neon-core.S's role), the
  NHPoly1305 update around it (both in arch/common/, which the arm machine
  builds too), and the NEON Poly1305 descriptor update.  One
  core, because both run the generic C descriptor code (algs/nhpoly1305.c,
  algs/poly1305_core.c, algs/poly1305_desc.c), which the static helper links
  once.
* ``aes_arm64``: scalar table AES (aes-cipher-core.S's role, arch/common/aes_arm64.c); no SIMD.
* ``aes_ce``: AESE/AESMC/AESD/AESIMC one block per call and the CE key
  expansion (aes-ce-core.S / aes-ce-glue.c; arch/common/aes_ce.c, which arm
  builds too); built ``+crypto``, needs HWCAP aes.
* ``chacha_neon4``: libgcrypt's 4-block interleaved AArch64 ChaCha design
  with the kernel's round count parameter and 32-bit counter.
"""

import os

from crypto_api.arch.common.c_sources import AES_CE_CDEF, AES_TABLE_CDEF, INCLUDES, NH_NEON_CDEF, generic
from crypto_api.machine.core import Core, header_cdef

__all__ = ["CORES", "generic"]

_HERE = os.path.dirname(os.path.abspath(__file__))

CORES = [
    Core(name="neon_hash",
         sources=("poly1305_neon.c",), links=("nh_neon", "nhpoly1305", "poly1305_core"),
         cdef=NH_NEON_CDEF + header_cdef(_HERE, "poly1305_neon.h"),
         cflags=("-march=armv8-a", *INCLUDES),
         feature="asimd"),
    Core(name="aes_arm64",
         sources=(), links=("aes_table",),
         cdef=AES_TABLE_CDEF,
         cflags=("-march=armv8-a", *INCLUDES),
         feature="fp"),
    Core(name="aes_ce",
         sources=(), links=("aes_ce_block",),
         cdef=AES_CE_CDEF,
         cflags=("-march=armv8-a+crypto", *INCLUDES),
         feature="aes"),
    Core(name="chacha_neon4",
         sources=("chacha_neon4.c",),
         cdef=header_cdef(_HERE, "chacha_neon4.h"),
         cflags=("-march=armv8-a",),
         feature="asimd"),
]
