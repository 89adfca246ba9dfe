"""The arm (ARMv7) cores of the emulated arm machine (crypto_api.machine.core.Core).

* ``chacha_neon``: arch/arm/crypto/chacha-neon-core.S's role, v5.0 entry
  points (1-block and 4-block routines, HChaCha) and the glue's doneon loop.
* ``neon_hash``: NH with NEON and the NHPoly1305 update around it — the
  C that arm64 builds too (arch/common/, crypto_api.arch.common.c_sources),
  built for ARMv7 NEON (the kernel's arm and arm64 nh_neon have the same
  structure, reference §2.6), over the generic C.
* ``aes_arm``: scalar table AES (arch/arm/crypto/aes-cipher-core.S's role):
  the shared scalar C built for ARMv7, no NEON (runs on a CPU without it).
* ``aes_ce_modes``: AES with the ARMv8 Crypto Extensions in AArch32
  (arch/arm/crypto/aes-ce-core.S's role): the mode loops of
  arch/common/aes_modes.h over the AESE/AESD block routines and key
  expansion that arm64's aes-ce builds too (arch/common/aes_ce.c: ACLE
  intrinsics, built here for AArch32 with the crypto FPU); needs HWCAP2
  ``aes`` (qemu-arm ``max``).

NEON cores add ``-mfpu=neon`` to the toolchain's VFP-only base flags (the
machine's descriptor, arch/arm/machine.py), so a CPU model without NEON
still runs the helper and the scalar cores.
"""

import os

from crypto_api.arch.common.c_sources import AES_CE_CDEF, AES_TABLE_CDEF, INCLUDES, NH_NEON_CDEF
from crypto_api.machine.core import Core, header_cdef

_HERE = os.path.dirname(os.path.abspath(__file__))

_NEON = ("-march=armv7-a", "-mfpu=neon")
#: ARMv8 in AArch32 with the Crypto Extensions (AESE/AESD/AESMC/AESIMC)
_CRYPTO = ("-march=armv8-a", "-mfpu=crypto-neon-fp-armv8")


CORES = [
    Core(name="chacha_neon",
         sources=("chacha_neon.c",),
         cdef=header_cdef(_HERE, "chacha_neon.h"),
         cflags=_NEON,
         feature="neon"),
    Core(name="neon_hash",
         sources=(), links=("nh_neon", "nhpoly1305", "poly1305_core"),
         cdef=NH_NEON_CDEF,
         cflags=(*_NEON, *INCLUDES),
         feature="neon"),
    Core(name="aes_arm",
         sources=(), links=("aes_table",),
         cdef=AES_TABLE_CDEF,
         cflags=("-march=armv7-a", *INCLUDES),
         feature="vfp"),
    Core(name="aes_ce_modes",
         sources=("aes_ce_modes.c",), links=("aes_ce_block",),
         cdef=AES_CE_CDEF + header_cdef(_HERE, "aes_ce_modes.h"),
         cflags=(*_CRYPTO, *INCLUDES),
         feature="aes"),
]
