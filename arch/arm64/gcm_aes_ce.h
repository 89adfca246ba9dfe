/*
 * AES-GCM with the ARMv8 Crypto Extensions, one call per request: AES-CE
 * CTR (aes_ce.c) and PMULL GHASH (ghash_ce.c) over flat buffers, the role of
 * arch/arm64/crypto/ghash-ce-core.S's pmull_gcm_encrypt/decrypt behind
 * gcm-aes-ce.  12-byte nonces only (J0 = nonce || 1); the glue truncates
 * and compares tags.  Needs HWCAP aes and pmull.
 */
#ifndef CRYPTO_API_ARM64_GCM_AES_CE_H
#define CRYPTO_API_ARM64_GCM_AES_CE_H

#include <stddef.h>
#include <stdint.h>

/* cdef: begin */
/* ctx: gcm_aes_ce_ctx_size() bytes the caller keeps (the AES schedule and
 * H).  0, or -22 (-EINVAL, ctx untouched) unless keylen is 16, 24 or 32. */
int gcm_aes_ce_setkey(void *ctx, const uint8_t *key, unsigned int keylen);
size_t gcm_aes_ce_ctx_size(void);
/* dst[0:len] = src encrypted, tag = the full 16-byte tag.  dst may equal src. */
void gcm_aes_ce_encrypt(const void *ctx, const uint8_t *nonce, const uint8_t *ad, size_t adlen,
			const uint8_t *src, size_t len, uint8_t *dst, uint8_t *tag);
/* dst[0:len] = src (ciphertext) decrypted, tag = the 16-byte tag it should
 * carry; the caller compares (the kernel's decrypt, then compare).  dst may
 * equal src. */
void gcm_aes_ce_decrypt(const void *ctx, const uint8_t *nonce, const uint8_t *ad, size_t adlen,
			const uint8_t *src, size_t len, uint8_t *dst, uint8_t *tag);
/* cdef: end */

#endif
