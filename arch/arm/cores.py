"""The arm (ARMv7) cores of the emulated arm machine (crypto_api.machine.core.Core).

* ``chacha_neon``: arch/arm/crypto/chacha-neon-core.S's role, v5.0 entry
  points (1-block and 4-block routines, HChaCha) and the glue's doneon loop.
* ``neon_hash``: NH with NEON and the NHPoly1305 update around it — the
  arm64 sources built for ARMv7 NEON (the kernel's arm and arm64 nh_neon
  have the same structure, reference §2.6), over the generic C.
* ``aes_arm``: scalar table AES (arch/arm/crypto/aes-cipher-core.S's role):
  the arm64 scalar C built for ARMv7, no NEON (runs on a CPU without it).

NEON cores add ``-mfpu=neon`` to the toolchain's VFP-only base flags
(crypto_api.machine.helper_build.TOOLCHAINS), so a CPU model without NEON
still runs the helper and the scalar cores.
"""

import os

from crypto_api.arch.arm64.cores_misc import AES_ARM64_CDEF, NH_NEON_CDEF
from crypto_api.machine.core import Core

_HERE = os.path.dirname(os.path.abspath(__file__))
_ALGS = os.path.normpath(os.path.join(_HERE, "..", "..", "algs"))
_ARM64 = os.path.normpath(os.path.join(_HERE, "..", "arm64"))
_INCLUDES = ("-I" + _ALGS, "-I" + os.path.join(_ALGS, "include"), "-I" + _ARM64)
_NEON = ("-march=armv7-a", "-mfpu=neon")


def _rel(*parts: str) -> str:
    """A source of another directory, relative to arch/arm (a Core's sources are)."""
    return os.path.join(os.pardir, *parts)


CORES = [
    Core(name="chacha_neon",
         sources=("chacha_neon.c",),
         cdef="""
             void chacha_block_xor_neon(const uint32_t *state, uint8_t *dst, const uint8_t *src,
                                        int nrounds);
             void chacha_4block_xor_neon(const uint32_t *state, uint8_t *dst, const uint8_t *src,
                                         int nrounds);
             void hchacha_block_neon(const uint32_t *state, uint32_t *out, int nrounds);
             void chacha_doneon(uint32_t *state, uint8_t *dst, const uint8_t *src,
                                unsigned int bytes, int nrounds);
         """,
         cflags=_NEON,
         feature="neon"),
    Core(name="neon_hash",
         sources=(_rel("arm64", "nh_neon.c"), _rel("arm64", "nhpoly1305_neon.c"),
                  _rel(os.pardir, "algs", "nhpoly1305.c"), _rel(os.pardir, "algs", "poly1305_core.c")),
         cdef=NH_NEON_CDEF,
         cflags=(*_NEON, *_INCLUDES),
         feature="neon"),
    Core(name="aes_arm",
         sources=(_rel("arm64", "aes_arm64.c"),),
         cdef=AES_ARM64_CDEF,
         cflags=("-march=armv7-a", *_INCLUDES),
         feature="vfp"),
]
