/*
 * ECB, CBC, CBC-CTS tail, CTR, XTS and ESSIV-CBC over the AES-CE block routines
 * (arch/arm64/aes_ce_modes.c).
 * What each function does, and its arguments, is said once in
 * aes_blk_entries.h (rk: the schedule of the direction, key_enc or key_dec;
 * flags of xts: 1 decrypt, 2 first call of the request).
 */
#ifndef CRYPTO_API_ARM64_AES_CE_MODES_H
#define CRYPTO_API_ARM64_AES_CE_MODES_H

#include <stddef.h>
#include <stdint.h>

/* cdef: begin */
void aes_ce_ecb(const uint32_t *rk, uint8_t *dst, const uint8_t *src, size_t nbytes,
		  unsigned int rounds, int decrypt);
void aes_ce_cbc(const uint32_t *rk, uint8_t *dst, const uint8_t *src, size_t nbytes,
		  uint8_t *iv, unsigned int rounds, int decrypt);
void aes_ce_cts(const uint32_t *rk, uint8_t *dst, const uint8_t *src, size_t nbytes,
		  const uint8_t *iv, unsigned int rounds, int decrypt);
void aes_ce_ctr(const uint32_t *rk, uint8_t *dst, const uint8_t *src, size_t nbytes,
		  uint8_t *ctr, unsigned int rounds);
void aes_ce_xts(const uint32_t *rk1, const uint32_t *rk2, uint8_t *dst, const uint8_t *src,
		  size_t nbytes, uint8_t *iv, unsigned int rounds, int flags);
void aes_ce_essiv_cbc(const uint32_t *rk1, const uint32_t *rk2, uint8_t *dst,
			const uint8_t *src, size_t nbytes, uint8_t *iv, unsigned int rounds,
			int decrypt);
/* cdef: end */

#endif
