/* XCTR with table-lookup AES on plain NEON (arch/arm64/aes_neon_xctr.c). */
#ifndef CRYPTO_API_ARM64_AES_NEON_XCTR_H
#define CRYPTO_API_ARM64_AES_NEON_XCTR_H

#include <stddef.h>
#include <stdint.h>

/*
 * One 16-byte AES block with NEON TBL/TBX lookups (no crypto extension):
 * rk is key_enc of struct crypto_aes_ctx (algs/aes_generic.h), rounds 10,
 * 12 or 14; out may equal in.
 */
/* cdef: begin */
void aes_neon_encrypt(const uint32_t *rk, uint8_t *out, const uint8_t *in, unsigned int rounds);

/*
 * nbytes of XCTR (any length) from src into dst, as aes_ce_xctr
 * (aes_ce_xctr.h) but over aes_neon_encrypt: keystream block j of this
 * call is AES(rk, iv ^ le32(byte_ctr / 16 + 1 + j)).  iv is not changed.
 */
void aes_neon_xctr(const uint32_t *rk, uint8_t *dst, const uint8_t *src, size_t nbytes,
		   const uint8_t *iv, uint32_t byte_ctr, unsigned int rounds);
/* cdef: end */

#endif
