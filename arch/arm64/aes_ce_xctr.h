/* XCTR with the ARMv8 Crypto Extensions AES (arch/arm64/aes_ce_xctr.c). */
#ifndef CRYPTO_API_ARM64_AES_CE_XCTR_H
#define CRYPTO_API_ARM64_AES_CE_XCTR_H

#include <stddef.h>
#include <stdint.h>

/*
 * nbytes of XCTR (any length) from src into dst: keystream block j of this
 * call is AES(rk, iv ^ le32(byte_ctr / 16 + 1 + j)), byte_ctr being the
 * bytes of the request before this call (a multiple of 16).  rk: key_enc of
 * struct crypto_aes_ctx; rounds 10, 12 or 14.  iv is not changed.
 */
/* cdef: begin */
void aes_ce_xctr(const uint32_t *rk, uint8_t *dst, const uint8_t *src, size_t nbytes,
		 const uint8_t *iv, uint32_t byte_ctr, unsigned int rounds);
/* cdef: end */

#endif
