/*
 * AES-GCM (NIST SP 800-38D) with AES-CE and PMULL, one call per request
 * (see gcm_aes_ce.h).  The request is hashed as it is processed: the AD
 * zero-padded to whole blocks, the ciphertext in 16-block strides right
 * after they are produced (encrypt) or before they are consumed (decrypt),
 * its last partial block zero-padded, then the bit lengths; the tag is
 * E(K, J0) XOR that hash.  Stack copies of key stream and hash are wiped.
 */
#include <string.h>

#include "aes_arm64.h"
#include "byteorder.h"
#include "gcm_aes_ce.h"
#include "ghash_ce.h"
#include "memzero.h"

#define GCM_BLOCK 16
#define STRIDE_BLOCKS 16

struct gcm_aes_ce_ctx {
	uint32_t key_enc[60];
	uint32_t key_dec[60];
	uint32_t rounds;
	struct ghash_key h;
};

size_t gcm_aes_ce_ctx_size(void)
{
	return sizeof(struct gcm_aes_ce_ctx);
}

int gcm_aes_ce_setkey(void *vctx, const uint8_t *key, unsigned int keylen)
{
	struct gcm_aes_ce_ctx *ctx = vctx;
	uint8_t h[GCM_BLOCK] = { 0 };

	if (keylen != 16 && keylen != 24 && keylen != 32)
		return -22;
	aes_ce_expandkey(ctx->key_enc, ctx->key_dec, key, keylen);
	ctx->rounds = 6 + keylen / 4;
	aes_ce_encrypt(ctx->key_enc, h, h, ctx->rounds);
	ghash_setkey(&ctx->h, h);
	memzero_explicit(h, sizeof(h));
	return 0;
}

/* Absorb len bytes into acc, a last partial block zero-padded. */
static void hash_padded(uint8_t acc[GCM_BLOCK], const struct ghash_key *h,
			const uint8_t *p, size_t len)
{
	uint8_t last[GCM_BLOCK] = { 0 };
	size_t full = len / GCM_BLOCK;

	if (full)
		ghash_blocks_pmull(acc, h, p, full);
	if (len % GCM_BLOCK) {
		memcpy(last, p + full * GCM_BLOCK, len % GCM_BLOCK);
		ghash_blocks_pmull(acc, h, last, 1);
	}
}

static void put_be64(uint8_t *p, uint64_t v)
{
	put_be32(p, (uint32_t)(v >> 32));
	put_be32(p + 4, (uint32_t)v);
}

static void ctr_inc(uint8_t ctr[GCM_BLOCK])
{
	put_be32(ctr + 12, get_be32(ctr + 12) + 1);
}

/* dst = src XOR the key stream from ctr (advanced past what was used). */
static void ctr_xor(const struct gcm_aes_ce_ctx *ctx, uint8_t ctr[GCM_BLOCK],
		    uint8_t *dst, const uint8_t *src, size_t len)
{
	uint8_t ks[GCM_BLOCK];
	size_t i, n;

	while (len) {
		aes_ce_encrypt(ctx->key_enc, ks, ctr, ctx->rounds);
		ctr_inc(ctr);
		n = len < GCM_BLOCK ? len : GCM_BLOCK;
		for (i = 0; i < n; i++)
			dst[i] = src[i] ^ ks[i];
		dst += n;
		src += n;
		len -= n;
	}
	memzero_explicit(ks, sizeof(ks));
}

/* The full 16-byte tag; ciphertext is the text the hash covers. */
static void gcm_crypt(const struct gcm_aes_ce_ctx *ctx, const uint8_t *nonce,
		      const uint8_t *ad, size_t adlen, const uint8_t *src, size_t len,
		      uint8_t *dst, int encrypt, uint8_t tag[GCM_BLOCK])
{
	uint8_t j0[GCM_BLOCK], ctr[GCM_BLOCK], acc[GCM_BLOCK] = { 0 }, lens[GCM_BLOCK];
	size_t i, n;

	memcpy(j0, nonce, 12);
	put_be32(j0 + 12, 1);
	memcpy(ctr, j0, GCM_BLOCK);
	ctr_inc(ctr);
	hash_padded(acc, &ctx->h, ad, adlen);
	for (i = 0; i < len; i += n) {
		n = len - i < STRIDE_BLOCKS * GCM_BLOCK ? len - i : STRIDE_BLOCKS * GCM_BLOCK;
		if (!encrypt)		/* hash the ciphertext before dst may overwrite it */
			hash_padded(acc, &ctx->h, src + i, n);
		ctr_xor(ctx, ctr, dst + i, src + i, n);
		if (encrypt)
			hash_padded(acc, &ctx->h, dst + i, n);
	}
	put_be64(lens, (uint64_t)adlen * 8);
	put_be64(lens + 8, (uint64_t)len * 8);
	ghash_blocks_pmull(acc, &ctx->h, lens, 1);
	aes_ce_encrypt(ctx->key_enc, tag, j0, ctx->rounds);
	for (i = 0; i < GCM_BLOCK; i++)
		tag[i] ^= acc[i];
	memzero_explicit(acc, sizeof(acc));
	memzero_explicit(ctr, sizeof(ctr));
}

void gcm_aes_ce_encrypt(const void *ctx, const uint8_t *nonce, const uint8_t *ad, size_t adlen,
			const uint8_t *src, size_t len, uint8_t *dst, uint8_t *tag)
{
	gcm_crypt(ctx, nonce, ad, adlen, src, len, dst, 1, tag);
}

void gcm_aes_ce_decrypt(const void *ctx, const uint8_t *nonce, const uint8_t *ad, size_t adlen,
			const uint8_t *src, size_t len, uint8_t *dst, uint8_t *tag)
{
	gcm_crypt(ctx, nonce, ad, adlen, src, len, dst, 0, tag);
}
