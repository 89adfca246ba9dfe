/*
 * The arm64 ChaCha NEON core's entry points (chacha_neon.c; the v5.0
 * contracts of arch/arm64/crypto/chacha-neon-core.S and the glue's
 * chacha_doneon loop), which the glue calls through the helper.
 */
#ifndef CRYPTO_API_ARM64_CHACHA_NEON_H
#define CRYPTO_API_ARM64_CHACHA_NEON_H

#include <stdint.h>

/* cdef: begin */
void chacha_block_xor_neon(const uint32_t *state, uint8_t *dst, const uint8_t *src, int nrounds);
void chacha_4block_xor_neon(const uint32_t *state, uint8_t *dst, const uint8_t *src, int nrounds,
			    int bytes);
void hchacha_block_neon(const uint32_t *state, uint32_t *out, int nrounds);
void chacha_doneon(uint32_t *state, uint8_t *dst, const uint8_t *src, unsigned int bytes,
		   int nrounds);
/* cdef: end */

#endif
