/*
 * Shared declarations for the x86 ChaCha cores (chacha_ssse3.c,
 * chacha_avx2.c, chacha_avx512vl.c, chacha_avx512f.c).
 *
 * All entry points follow the generic calling convention of
 * algs/chacha_generic.c: XOR the keystream for `state` into src, writing dst
 * (dst may equal src), then advance state[12] by ceil(bytes / 64) with 32-bit
 * wrap-around and no carry into state[13].  nrounds is 20, 12 or 8.
 * Partial blocks never touch memory beyond src + bytes / dst + bytes.
 */
#ifndef CRYPTO_API_CHACHA_X86_H
#define CRYPTO_API_CHACHA_X86_H

#include "x86_common.h"

#define CHACHA_BLOCK_SIZE 64

/*
 * The stack each worker below uses with what it calls (gcc -fstack-usage,
 * rounded up); a C loop that calls one many times wipes the stack once
 * afterwards, covering CHACHA_X86_STACK_USE bytes: chacha_glue_walk.c.
 */
#define CHACHA_SSSE3_STACK_USE 1536
#define CHACHA_AVX2_STACK_USE 3072		/* with the SSSE3 worker for tails */
#define CHACHA_AVX512VL_STACK_USE 2048
#define CHACHA_AVX512_STACK_USE 4096		/* with the AVX-512VL worker for tails */
#define HCHACHA_SSSE3_STACK_USE 512
#define CHACHA_X86_STACK_USE 4096		/* the deepest of them */

/*
 * Each ISA's extension (arch/x86/cores.py) exports its entry
 * chacha_dosimd_<isa>, which wipes the stack its worker used, and the worker
 * chacha_<isa>_blocks, the same computation without the wipe; every one
 * exports the HChaCha core.
 */
/* cdef: begin */
/* HChaCha core: rounds without feed-forward, out = words 0..3 || 12..15. */
void hchacha_block_ssse3(const uint32_t state[16], uint32_t out[8], int nrounds);
/* cdef: end */
/* cdef: begin chacha_ssse3 */
void chacha_dosimd_ssse3(uint32_t state[16], uint8_t *dst, const uint8_t *src,
			 size_t bytes, int nrounds);
X86_INTERNAL void chacha_ssse3_blocks(uint32_t state[16], uint8_t *dst, const uint8_t *src,
				      size_t bytes, int nrounds);
/* cdef: end */
/* cdef: begin chacha_avx2 */
void chacha_dosimd_avx2(uint32_t state[16], uint8_t *dst, const uint8_t *src,
			size_t bytes, int nrounds);
X86_INTERNAL void chacha_avx2_blocks(uint32_t state[16], uint8_t *dst, const uint8_t *src,
				     size_t bytes, int nrounds);
/*
 * Eight independent streams (chacha_avx2.c, AVX2): HChaCha of each of lanes
 * (1..8) states of 16 words (out: 8 words each), and each stream over bytes
 * bytes at dst/src + i * stride (word 12 of each state advanced).
 */
void hchacha_lanes_avx2(const uint32_t *states, uint32_t *out, unsigned lanes, int nrounds);
void chacha_lanes_xor_avx2(uint32_t *states, uint8_t *dst, const uint8_t *src, size_t stride,
			   size_t bytes, unsigned lanes, int nrounds);
/* cdef: end */
/* cdef: begin chacha_avx512vl */
void chacha_dosimd_avx512vl(uint32_t state[16], uint8_t *dst, const uint8_t *src,
			    size_t bytes, int nrounds);
X86_INTERNAL void chacha_avx512vl_blocks(uint32_t state[16], uint8_t *dst, const uint8_t *src,
					 size_t bytes, int nrounds);
/* cdef: end */
/* cdef: begin chacha_avx512 */
/* AVX-512F 16-block (zmm) code; the remainder goes to chacha_dosimd_avx512vl. */
void chacha_dosimd_avx512(uint32_t state[16], uint8_t *dst, const uint8_t *src,
			  size_t bytes, int nrounds);
X86_INTERNAL void chacha_avx512_blocks(uint32_t state[16], uint8_t *dst, const uint8_t *src,
				       size_t bytes, int nrounds);
/* cdef: end */

/* x86-64 only: whole 512-byte chunks of ChaCha20 with Poly1305 (radix 2^64,
 * accumulator h[3], rk = r0, r1, s1, s0) stitched in; chacha_avx2.c. */
X86_INTERNAL void chacha_poly_8block_avx2(uint32_t state[16], uint8_t *dst, const uint8_t *src,
					  size_t nchunks, uint64_t h[3], const uint64_t rk[4],
					  int sealing);
/* The same with AVX-512F: whole 1024-byte chunks; chacha_avx512f.c. */
X86_INTERNAL void chacha_poly_16block_avx512(uint32_t state[16], uint8_t *dst, const uint8_t *src,
					     size_t nchunks, uint64_t h[3], const uint64_t rk[4],
					     int sealing);

/* SSSE3 block functions, also used by the AVX2 code for short leftovers. */
X86_INTERNAL void chacha_block_xor_ssse3(const uint32_t state[16], uint8_t *dst,
					 const uint8_t *src, size_t len, int nrounds);
X86_INTERNAL void chacha_4block_xor_ssse3(const uint32_t state[16], uint8_t *dst,
					  const uint8_t *src, size_t len, int nrounds);

static inline uint32_t chacha_blocks_for(size_t bytes)
{
	return (uint32_t)((bytes + CHACHA_BLOCK_SIZE - 1) / CHACHA_BLOCK_SIZE);
}

#endif
