/*
 * The x86 POLYVAL block functions on PCLMULQDQ and VPCLMULQDQ (polyval_clmulni.c): the
 * polyval_blocks_fn signature of algs/polyval_generic.h, the role of the
 * kernel's arch/x86/crypto/polyval-clmulni_glue.c declarations.
 */
#ifndef CRYPTO_API_POLYVAL_CLMULNI_H
#define CRYPTO_API_POLYVAL_CLMULNI_H

#include "polyval_generic.h"

/* cdef: begin */
void polyval_blocks_clmulni(uint64_t *acc, const struct polyval_key *key, const uint8_t *data,
			    size_t nblocks);
/* The same with VPCLMULQDQ on 512-bit registers (AVX512F/VL/BW). */
void polyval_blocks_vpclmul_avx512(uint64_t *acc, const struct polyval_key *key,
				   const uint8_t *data, size_t nblocks);
/* cdef: end */

#endif
