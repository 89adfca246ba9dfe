/* Poly1305 with AArch64 Advanced SIMD, radix 2^26 (arch/arm64/poly1305_neon.c). */
#ifndef CRYPTO_API_ARM64_POLY1305_NEON_H
#define CRYPTO_API_ARM64_POLY1305_NEON_H

#include <stddef.h>
#include <stdint.h>

#include "poly1305_core.h"

/* The generic 26-bit core's key, state and emit, with NEON blocks. */
extern const poly1305_core_ops poly1305_neon_ops;

void poly1305_neon_blocks(poly1305_core_state *state, const poly1305_core_key *key,
			  const uint8_t *src, size_t nblocks, uint32_t hibit);

/* poly1305_desc_update (algs/poly1305_desc.c) on a struct poly1305_desc. */
/* cdef: begin */
void poly1305_neon_update(void *desc, const uint8_t *src, size_t len);
/* sizeof(struct poly1305_desc) as this build lays it out (the glue checks it). */
size_t poly1305_neon_desc_size(void);
/* cdef: end */

#endif
