/*
 * Vectorised Poly1305 in radix 2^26 (the role of v5.0's
 * arch/x86/crypto/poly1305-sse2-x86_64.S and poly1305-avx2-x86_64.S).
 *
 * The accumulator is the portable core's 26-bit form (poly1305_p26.h), so
 * these functions and poly1305_generic_blocks() may take turns on one state.
 * LANES blocks are absorbed per step, one per 64-bit vector lane: every lane
 * keeps its own sum, multiplied by r^LANES after each step; the last step
 * multiplies the lane of the step's k-th block by r^(LANES - k) instead and
 * the lanes are added up (Horner's rule split LANES ways).  SSE2 has two
 * lanes, AVX2 four.
 */
#ifndef CRYPTO_API_POLY1305_SIMD_H
#define CRYPTO_API_POLY1305_SIMD_H

#include "x86_common.h"
#include "poly1305_p26.h"

/* cdef: begin */
#define POLY1305_SIMD_MAX_POWER 4

/* r, r^2, r^3, r^4 as partly reduced 26-bit limbs; `count` are valid. */
struct poly1305_simd_powers {
	uint32_t r[POLY1305_SIMD_MAX_POWER][5];
	uint32_t count;
};
/* cdef: end */

/* Make powers r^1..r^n (n <= 4) valid, computing what is missing. */
void poly1305_simd_powers_fill(struct poly1305_simd_powers *pw, const poly1305_core_key *key,
			       uint32_t n);

/*
 * Absorb `steps` * LANES whole 16-byte blocks into the 26-bit accumulator
 * h (poly1305_core_state storage), each plus hibit * 2^128.  pw must hold
 * r^1..r^LANES.  The AVX2 one may only run where the CPU has AVX2.
 */
void poly1305_blocks_sse2(poly1305_core_state *h, const struct poly1305_simd_powers *pw,
			  const uint8_t *src, size_t steps, uint32_t hibit);
void poly1305_blocks_avx2(poly1305_core_state *h, const struct poly1305_simd_powers *pw,
			  const uint8_t *src, size_t steps, uint32_t hibit);

#endif
