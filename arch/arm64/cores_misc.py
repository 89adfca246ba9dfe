"""The arm64 cores besides ChaCha's (crypto_api.machine.core.Core): NH and Poly1305
with NEON, scalar AES, AES with the Crypto Extensions, and the seed's
4-block interleaved ChaCha.

* ``neon_hash``: nh_neon (arch/arm64/crypto/nh-neon-core.S's role), the
  NHPoly1305 update around it, and the NEON Poly1305 descriptor update.  One
  core, because both run the generic C descriptor code (algs/nhpoly1305.c,
  algs/poly1305_core.c, algs/poly1305_desc.c), which the static helper links
  once.
* ``aes_arm64``: scalar table AES (aes-cipher-core.S's role); no SIMD.
* ``aes_ce``: AESE/AESMC/AESD/AESIMC one block per call and the CE key
  expansion (aes-ce-core.S / aes-ce-glue.c); built ``+crypto``, needs HWCAP aes.
* ``chacha_neon4``: libgcrypt's 4-block interleaved AArch64 ChaCha design
  with the kernel's round count parameter and 32-bit counter.
"""

import os

from crypto_api.machine.core import Core

_ALGS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "algs")

def generic(name: str) -> str:
    """A generic C source of algs/, relative to this directory (a Core's sources are)."""
    return os.path.join(os.pardir, os.pardir, "algs", name)


_GENERIC_INCLUDES = ("-I" + os.path.normpath(_ALGS), "-I" + os.path.normpath(os.path.join(_ALGS, "include")))

# Also built for ARMv7 by the arm machine (arch/arm/cores.py), from the same sources.
NH_NEON_CDEF = """
    void nh_neon(const uint32_t *key, const uint8_t *message, size_t message_len,
                 uint8_t *hash);
    void nhpoly1305_neon_update(void *state, const void *key, const uint8_t *src,
                                size_t len);
    size_t nhpoly1305_neon_state_size(void);
    size_t nhpoly1305_neon_key_size(void);
"""
AES_ARM64_CDEF = """
    void aes_arm64_encrypt(const uint32_t *rk, uint8_t *out, const uint8_t *in,
                           unsigned int rounds);
    void aes_arm64_decrypt(const uint32_t *rk, uint8_t *out, const uint8_t *in,
                           unsigned int rounds);
"""

CORES = [
    Core(name="neon_hash",
         sources=("nh_neon.c", "nhpoly1305_neon.c", "poly1305_neon.c", generic("nhpoly1305.c"),
                  generic("poly1305_core.c"), generic("poly1305_desc.c")),
         cdef=NH_NEON_CDEF + """
             void poly1305_neon_update(void *desc, const uint8_t *src, size_t len);
             size_t poly1305_neon_desc_size(void);
         """,
         cflags=("-march=armv8-a", *_GENERIC_INCLUDES),
         feature="asimd"),
    Core(name="aes_arm64",
         sources=("aes_arm64.c",),
         cdef=AES_ARM64_CDEF,
         cflags=("-march=armv8-a", *_GENERIC_INCLUDES),
         feature="fp"),
    Core(name="aes_ce",
         sources=("aes_ce.c",),
         cdef="""
             void aes_ce_encrypt(const uint32_t *rk, uint8_t *out, const uint8_t *in,
                                 unsigned int rounds);
             void aes_ce_decrypt(const uint32_t *rk, uint8_t *out, const uint8_t *in,
                                 unsigned int rounds);
             int aes_ce_expandkey(uint32_t *key_enc, uint32_t *key_dec, const uint8_t *in_key,
                                  unsigned int key_len);
         """,
         cflags=("-march=armv8-a+crypto", *_GENERIC_INCLUDES),
         feature="aes"),
    Core(name="chacha_neon4",
         sources=("chacha_neon4.c",),
         cdef="""
             void chacha_neon4_xor(const uint32_t *state, uint8_t *dst, const uint8_t *src,
                                   size_t bytes, unsigned int nrounds);
         """,
         cflags=("-march=armv8-a",),
         feature="asimd"),
]
