/*
 * ECB, CBC, CBC-CTS tail, CTR, XTS and ESSIV-CBC over table-lookup AES on plain
 * NEON (arch/arm64/aes_neon_modes.c).
 * What each function does, and its arguments, is said once in
 * aes_blk_entries.h (rk: the schedule of the direction, key_enc or key_dec;
 * flags of xts: 1 decrypt, 2 first call of the request).
 */
#ifndef CRYPTO_API_ARM64_AES_NEON_MODES_H
#define CRYPTO_API_ARM64_AES_NEON_MODES_H

#include <stddef.h>
#include <stdint.h>

/* cdef: begin */
/*
 * One 16-byte AES block decrypted with NEON TBL/TBX lookups: rk is key_dec
 * of struct crypto_aes_ctx (the equivalent inverse cipher), rounds 10, 12
 * or 14; out may equal in.
 */
void aes_neon_decrypt(const uint32_t *rk, uint8_t *out, const uint8_t *in, unsigned int rounds);

void aes_neon_ecb(const uint32_t *rk, uint8_t *dst, const uint8_t *src, size_t nbytes,
		  unsigned int rounds, int decrypt);
void aes_neon_cbc(const uint32_t *rk, uint8_t *dst, const uint8_t *src, size_t nbytes,
		  uint8_t *iv, unsigned int rounds, int decrypt);
void aes_neon_cts(const uint32_t *rk, uint8_t *dst, const uint8_t *src, size_t nbytes,
		  const uint8_t *iv, unsigned int rounds, int decrypt);
void aes_neon_ctr(const uint32_t *rk, uint8_t *dst, const uint8_t *src, size_t nbytes,
		  uint8_t *ctr, unsigned int rounds);
void aes_neon_xts(const uint32_t *rk1, const uint32_t *rk2, uint8_t *dst, const uint8_t *src,
		  size_t nbytes, uint8_t *iv, unsigned int rounds, int flags);
void aes_neon_essiv_cbc(const uint32_t *rk1, const uint32_t *rk2, uint8_t *dst,
			const uint8_t *src, size_t nbytes, uint8_t *iv, unsigned int rounds,
			int decrypt);
/* cdef: end */

#endif
