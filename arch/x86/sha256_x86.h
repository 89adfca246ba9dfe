/*
 * The x86 SHA-256 block functions (sha256_ni.c; sha256_simd.c's SSSE3, AVX
 * and AVX2 builds): the sha256_blocks_fn signature of sha256_generic.h, the
 * role of the kernel's arch/x86/crypto/sha256_ssse3_glue.c declarations.
 */
#ifndef CRYPTO_API_SHA256_X86_H
#define CRYPTO_API_SHA256_X86_H

#include "sha256_generic.h"

/* cdef: begin */
void sha256_blocks_ni(uint32_t *state, const uint8_t *data, size_t nblocks);
void sha256_ssse3_blocks(uint32_t *state, const uint8_t *data, size_t nblocks);
void sha256_avx_blocks(uint32_t *state, const uint8_t *data, size_t nblocks);
void sha256_avx2_blocks(uint32_t *state, const uint8_t *data, size_t nblocks);
/* cdef: end */

#endif
