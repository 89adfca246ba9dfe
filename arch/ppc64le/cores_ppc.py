"""The ppc64le cores.  The helper's baseline is POWER8 (-mcpu=power8); each
POWER10 core is compiled -mcpu=power10 as an object of its own, so the one
helper still starts on POWER8/POWER9 and its POWER10 functions are called
only when HWCAP2 reports ``arch_3_1``."""

import os

from crypto_api.machine.core import Core

# algs/include: the shared headers (aes_sbox.h)
_INCLUDE = "-I" + os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "algs", "include"))

_CHACHA_CDEF = """
    void {name}(const uint32_t *state, uint8_t *dst, const uint8_t *src, size_t len, int nrounds);
"""

CORES = [
    Core(name="aes_p8",
         sources=("aes_p8.c",),
         cdef="""
             int aes_p8_expandkey(const uint8_t *key, unsigned int key_len, uint8_t *rk);
             void aes_p8_encrypt(const uint8_t *rk, int rounds, uint8_t *dst, const uint8_t *src);
             void aes_p8_decrypt(const uint8_t *rk, int rounds, uint8_t *dst, const uint8_t *src);
         """,
         cflags=("-mcpu=power8", _INCLUDE),
         feature="vcrypto"),
    Core(name="chacha_vsx4",
         sources=("chacha_vsx4.c",),
         cdef=_CHACHA_CDEF.format(name="chacha_vsx4_xor"),
         cflags=("-mcpu=power8",),
         feature="vcrypto"),              # VPERMXOR is in ISA 2.07's vector-crypto category
    Core(name="chacha_p10",
         sources=("chacha_p10.c",),
         cdef=_CHACHA_CDEF.format(name="chacha_p10le_8x"),
         cflags=("-mcpu=power10",),
         feature="arch_3_1"),
    Core(name="poly1305_p10",
         sources=("poly1305_p10.c",),
         cdef="""
             void poly1305_64s(uint64_t *st, const uint8_t *m, size_t len, uint64_t highbit);
             void poly1305_p10le_4blocks(uint64_t *st, const uint8_t *m, size_t len);
             void poly1305_emit_64(const uint64_t *st, const uint8_t *s, uint8_t *mac);
         """,
         cflags=("-mcpu=power10",),
         feature="arch_3_1"),
]
