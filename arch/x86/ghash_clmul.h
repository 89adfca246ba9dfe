/*
 * GHASH on PCLMULQDQ (ghash_clmul.c): a block function with the
 * ghash_blocks_fn signature of algs/ghash_generic.h, the role of the
 * kernel's arch/x86/crypto/ghash-clmulni-intel_asm.S.
 */
#ifndef CRYPTO_API_GHASH_CLMUL_H
#define CRYPTO_API_GHASH_CLMUL_H

#include "ghash_generic.h"

/* cdef: begin */
void ghash_blocks_clmul(uint8_t *acc, const struct ghash_key *key,
			const uint8_t *data, size_t nblocks);
/* cdef: end */

#endif
