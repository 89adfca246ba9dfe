/* 4-block interleaved ChaCha with AArch64 Advanced SIMD (arch/arm64/chacha_neon4.c). */
#ifndef CRYPTO_API_ARM64_CHACHA_NEON4_H
#define CRYPTO_API_ARM64_CHACHA_NEON4_H

#include <stddef.h>
#include <stdint.h>

/*
 * dst = src XOR keystream for bytes / 64 blocks (bytes a multiple of 256),
 * block i with counter state[12] + i (32 bits, wrapping, never carrying into
 * state[13]); nrounds 12 or 20 (any even count).  state is not changed.
 */
/* cdef: begin */
void chacha_neon4_xor(const uint32_t *state, uint8_t *dst, const uint8_t *src,
		      size_t bytes, unsigned int nrounds);
/* cdef: end */

#endif
