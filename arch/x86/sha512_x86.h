/*
 * The x86 SHA-512 block functions (sha512_simd.c's SSSE3 and AVX builds,
 * sha512_avx2.c), the role of the declarations of the kernel's
 * arch/x86/crypto/sha512_ssse3_glue.c.  Each has the block-function
 * signature of the generic descriptor code (sha512_update_blocks /
 * sha512_final_blocks of algs/sha512_generic.h), state = the 8 state words.
 */
#ifndef CRYPTO_API_SHA512_X86_H
#define CRYPTO_API_SHA512_X86_H

#include "sha512_generic.h"

/* cdef: begin */
void sha512_ssse3_blocks(void *state, const uint8_t *data, size_t nblocks);
void sha512_avx_blocks(void *state, const uint8_t *data, size_t nblocks);
void sha512_avx2_blocks(void *state, const uint8_t *data, size_t nblocks);
/* cdef: end */

#endif
