/*
 * The arm (ARMv7) ChaCha NEON core's entry points (chacha_neon.c; the v5.0
 * contracts of arch/arm/crypto/chacha-neon-core.S, whose 4-block routine
 * always writes four blocks, and the glue's chacha_doneon loop).
 */
#ifndef CRYPTO_API_ARM_CHACHA_NEON_H
#define CRYPTO_API_ARM_CHACHA_NEON_H

#include <stdint.h>

/* cdef: begin */
void chacha_block_xor_neon(const uint32_t *state, uint8_t *dst, const uint8_t *src, int nrounds);
void chacha_4block_xor_neon(const uint32_t *state, uint8_t *dst, const uint8_t *src, int nrounds);
void hchacha_block_neon(const uint32_t *state, uint32_t *out, int nrounds);
void chacha_doneon(uint32_t *state, uint8_t *dst, const uint8_t *src, unsigned int bytes,
		   int nrounds);
/* cdef: end */

#endif
