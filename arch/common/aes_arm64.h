/* AES cores of arch/arm64 (aes_ce.c also of arch/arm): scalar tables (aes_arm64.c) and Crypto Extensions (aes_ce.c). */
#ifndef CRYPTO_API_ARM64_AES_H
#define CRYPTO_API_ARM64_AES_H

#include <stdint.h>

/*
 * One 16-byte block.  rk: the round keys of struct crypto_aes_ctx
 * (algs/aes_generic.h) as little-endian column words, key_enc for encrypt,
 * the equivalent-inverse key_dec for decrypt; rounds: 10, 12 or 14.
 * out may equal in.
 */
/* cdef: begin aes_table */
void aes_arm64_encrypt(const uint32_t *rk, uint8_t *out, const uint8_t *in, unsigned int rounds);
void aes_arm64_decrypt(const uint32_t *rk, uint8_t *out, const uint8_t *in, unsigned int rounds);
/* cdef: end */

/* The same with AESE/AESMC and AESD/AESIMC (needs HWCAP aes). */
/* cdef: begin aes_ce */
void aes_ce_encrypt(const uint32_t *rk, uint8_t *out, const uint8_t *in, unsigned int rounds);
void aes_ce_decrypt(const uint32_t *rk, uint8_t *out, const uint8_t *in, unsigned int rounds);
/* cdef: end */

/*
 * Key expansion with AESE (SubWord) and AESIMC (decryption keys), filling
 * the same key_enc / key_dec layout as the generic expansion.  0, or -22
 * (-EINVAL, nothing written) unless key_len is 16, 24 or 32.
 */
/* cdef: begin aes_ce */
int aes_ce_expandkey(uint32_t *key_enc, uint32_t *key_dec, const uint8_t *in_key,
		     unsigned int key_len);
/* cdef: end */

#endif
