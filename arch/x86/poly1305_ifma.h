/*
 * Poly1305 in radix 2^44 with AVX-512 IFMA (vpmadd52luq / vpmadd52huq),
 * sixteen blocks in flight: a project addition beyond the kernel.  No Linux
 * x86 Poly1305 has an IFMA path: v5.0's poly1305-sse2/avx2 code is radix
 * 2^26, and the perlasm that 5.6 and later import builds its base 2^44 IFMA
 * code only outside the kernel (read in one 5.17+ copy; the kernel table's
 * poly1305-simd row says what was not checked).  Shared by poly1305-simd
 * (poly1305_simd_desc.c) and the one-pass ChaCha20-Poly1305 driver
 * (chacha20poly1305_avx2.c); each converts its own accumulator to and from
 * the three limbs here with the helpers below.
 *
 * A number is g0 + g1*2^44 + g2*2^88 (limbs of 44, 44 and 42 bits, a little
 * more while partly carried).  Call the block function only where the CPU
 * has AVX-512F and AVX512_IFMA and the OS saves ZMM state.
 */
#ifndef CRYPTO_API_POLY1305_IFMA_H
#define CRYPTO_API_POLY1305_IFMA_H

#include <stddef.h>
#include <stdint.h>

/* cdef: begin */
/* Blocks absorbed per step: two groups of eight 64-bit lanes. */
#define POLY1305_IFMA_STEP_BLOCKS 16

/* pw[l][i] = limb l of r^(16 - i), carried.  384 bytes: more than a
 * kernel shash descriptor may hold (HASH_MAX_DESCSIZE), so the users keep
 * it on the stack for one update. */
struct poly1305_ifma_key {
	uint64_t pw[3][POLY1305_IFMA_STEP_BLOCKS];
};
/* cdef: end */

#define POLY1305_IFMA_M44 0xfffffffffffULL
#define POLY1305_IFMA_M42 0x3ffffffffffULL

/* The powers r^1..r^16 of r (radix 2^44, carried); scalar code, about 50 ns. */
void poly1305_ifma_setkey(struct poly1305_ifma_key *key, const uint64_t r[3]);

/*
 * Absorb steps * 16 whole blocks, each plus hibit * 2^128, into h (radix
 * 2^44, limbs below 2^52 on entry); h leaves fully carried: h0, h1 below
 * 2^44, h2 a little above 2^42 at most.
 */
void poly1305_ifma_blocks(uint64_t h[3], const struct poly1305_ifma_key *key,
			  const uint8_t *src, size_t steps, uint32_t hibit);

/* Five 26-bit limbs (partly carried: each below 2^32) to radix 2^44. */
static inline void poly1305_ifma_from_26(uint64_t g[3], const uint32_t h[5])
{
	uint64_t t = (uint64_t)h[0] + ((uint64_t)h[1] << 26);

	g[0] = t & POLY1305_IFMA_M44;
	t = (t >> 44) + ((uint64_t)h[2] << 8) + ((uint64_t)h[3] << 34);
	g[1] = t & POLY1305_IFMA_M44;
	g[2] = (t >> 44) + ((uint64_t)h[4] << 16);
}

/* Radix 2^44 (h0, h1 below 2^44, as the block function leaves them) to
 * five 26-bit limbs; the top one keeps what lies above bit 130. */
static inline void poly1305_ifma_to_26(uint32_t h[5], const uint64_t g[3])
{
	h[0] = (uint32_t)(g[0] & 0x3ffffff);
	h[1] = (uint32_t)(((g[0] >> 26) | (g[1] << 18)) & 0x3ffffff);
	h[2] = (uint32_t)((g[1] >> 8) & 0x3ffffff);
	h[3] = (uint32_t)(((g[1] >> 34) | (g[2] << 10)) & 0x3ffffff);
	h[4] = (uint32_t)(g[2] >> 16);
}

/* h0 + h1*2^64 + h2*2^128 (h2 below 2^63, not reduced: the x86_64 core's
 * accumulator) to radix 2^44, folding h2's bits above 2^130 as 5 each. */
static inline void poly1305_ifma_from_64(uint64_t g[3], const uint64_t w[3])
{
	uint64_t lo = w[0], hi = w[1], top = w[2] & 3, fold = (w[2] >> 2) * 5, c;

	lo += fold;
	c = lo < fold;
	hi += c;
	c = hi < c;
	top += c;
	g[0] = lo & POLY1305_IFMA_M44;
	g[1] = ((lo >> 44) | (hi << 20)) & POLY1305_IFMA_M44;
	g[2] = (hi >> 24) | (top << 40);
}

/* Radix 2^44 (h0, h1 below 2^44) to the x86_64 core's three words. */
static inline void poly1305_ifma_to_64(uint64_t w[3], const uint64_t g[3])
{
	w[0] = g[0] | (g[1] << 44);
	w[1] = (g[1] >> 20) | (g[2] << 24);
	w[2] = g[2] >> 40;
}

#endif
