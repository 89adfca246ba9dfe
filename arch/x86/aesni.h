/*
 * AES-NI block cipher context and entry points (aesni.c).
 */
#ifndef CRYPTO_API_AESNI_H
#define CRYPTO_API_AESNI_H

#include "x86_common.h"

/* cdef: begin */
#define AESNI_MAX_ROUND_KEYS 15	/* AES-256: 14 rounds + 1 */

/*
 * raw holds the encryption schedule followed by the decryption schedule
 * (AESNI_MAX_ROUND_KEYS 16-byte keys each) starting at raw + offset, the
 * first 16-byte boundary inside raw when setkey ran.  key_length is in
 * bytes (16/24/32), rounds 10/12/14.
 */
struct aesni_ctx {
	uint8_t raw[2 * AESNI_MAX_ROUND_KEYS * 16 + 16];
	uint32_t key_length;
	uint32_t rounds;
	uint32_t offset;
};

/* 0, or -EINVAL (-22) unless len is 16, 24 or 32 (ctx is then untouched). */
int aesni_setkey(struct aesni_ctx *ctx, const uint8_t *key, size_t len);
/* One 16-byte block; out may equal in. */
void aesni_encrypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in);
void aesni_decrypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in);
/* nblocks independent blocks; out may equal in. */
void aesni_ecb_encrypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in,
		       size_t nblocks);
void aesni_ecb_decrypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in,
		       size_t nblocks);
/* cdef: end */

#endif
