/*
 * Portable AES (FIPS-197) block cipher: the userspace counterpart of the
 * kernel's crypto/aes_generic.c entry points and struct crypto_aes_ctx.
 */
#ifndef CRYPTO_API_AES_GENERIC_H
#define CRYPTO_API_AES_GENERIC_H

#include <stddef.h>
#include <stdint.h>

/* cdef: begin */
#define AES_BLOCK_SIZE 16
#define AES_MIN_KEY_SIZE 16
#define AES_MAX_KEY_SIZE 32
#define AES_KEYSIZE_128 16
#define AES_KEYSIZE_192 24
#define AES_KEYSIZE_256 32
#define AES_MAX_KEYLENGTH_U32 60

struct crypto_aes_ctx {
	uint32_t key_enc[AES_MAX_KEYLENGTH_U32];	/* round keys, LE column words */
	uint32_t key_dec[AES_MAX_KEYLENGTH_U32];	/* equivalent-inverse round keys */
	uint32_t key_length;				/* in bytes: 16, 24 or 32 */
};

/* 0, or -EINVAL (-22) unless key_len is 16, 24 or 32 (ctx is then untouched). */
int aes_expandkey_generic(struct crypto_aes_ctx *ctx, const uint8_t *in_key, size_t key_len);
/* One block; out may equal in. */
void aes_encrypt_generic(const struct crypto_aes_ctx *ctx, uint8_t *out, const uint8_t *in);
void aes_decrypt_generic(const struct crypto_aes_ctx *ctx, uint8_t *out, const uint8_t *in);
/* nblocks independent blocks; out may equal in. */
void aes_ecb_encrypt_generic(const struct crypto_aes_ctx *ctx, uint8_t *out,
			     const uint8_t *in, size_t nblocks);
void aes_ecb_decrypt_generic(const struct crypto_aes_ctx *ctx, uint8_t *out,
			     const uint8_t *in, size_t nblocks);

/* Any AES core's one-block function (generic or AES-NI, whose contexts
 * differ), and one bound to its context: the handle of the encrypt_one fast
 * path's routine (aes_block_call, built into crypto_api.algs._aes_generic). */
typedef void (*aes_block_fn)(const void *ctx, uint8_t *out, const uint8_t *in);
struct aes_block_call {
	aes_block_fn fn;
	const void *ctx;
};

/* The routine of the C entry point (crypto_api/digest_call.h): the handle is
 * a struct aes_block_call; n is the block's 16; returns 0. */
int aes_block_call(const void *handle, char *out, const char *in, size_t n);
/* cdef: end */

#endif
