/*
 * The batch loop of sector_batch.h: per sector, build dm-crypt's IV from the
 * sector's number (plain: le32; plain64 and essiv: le64; zeros after it;
 * essiv then encrypts it under the salt) and call the driver's entry point.
 * No state outside the caller's description and this call's stack, so
 * several threads may run it at once over disjoint sectors with one
 * description.
 */
#include <string.h>

#include "sector_batch.h"
#include "byteorder.h"
#include "memzero.h"
#include "sha256_generic.h"
#include "nhpoly1305.h"

static int batch_usable(const struct sector_batch *b, size_t sector_size)
{
	if (b->ivsize > SECTOR_MAX_IV || b->ivsize < (b->ivmode == SECTOR_IV_PLAIN ? 4u : 8u))
		return 0;
	if (b->ivmode != SECTOR_IV_PLAIN && b->ivmode != SECTOR_IV_PLAIN64)
		return 0;
	switch (b->kind) {
	case SECTOR_WIDE:
		return b->wide != NULL;
	case SECTOR_XTS:
		return b->xts != NULL && b->ivsize == 16 && sector_size >= 16;
	case SECTOR_CBC:
		return b->cbc_encrypt != NULL && b->cbc_decrypt != NULL && b->ivsize == 16 &&
		       sector_size % 16 == 0;
	}
	return 0;
}

static void sector_iv(const struct sector_batch *b, uint64_t number, uint8_t *iv)
{
	memset(iv, 0, b->ivsize);
	if (b->ivmode == SECTOR_IV_PLAIN)
		put_le32(iv, (uint32_t)number);
	else
		put_le64(iv, number);
	if (b->iv_encrypt)
		b->iv_encrypt(b->iv_ctx, iv, iv);
}

/* A wide-block cipher SECTOR_MANY sectors at a time, their IVs made first. */
static int batch_many(const struct sector_batch *b, uint8_t *dst, const uint8_t *src,
		      size_t sector_size, size_t count, uint64_t iv_first, uint64_t iv_step, int enc)
{
	uint8_t ivs[SECTOR_MANY][SECTOR_MAX_IV];
	uint64_t number = iv_first;
	int err = 0;

	for (size_t done = 0; done < count && !err; ) {
		size_t n = count - done < SECTOR_MANY ? count - done : SECTOR_MANY;

		for (size_t k = 0; k < n; k++, number += iv_step)
			sector_iv(b, number, ivs[k]);
		err = b->wide_many(b->ctx, dst + done * sector_size, src + done * sector_size,
				   sector_size, &ivs[0][0], SECTOR_MAX_IV, b->ivsize, n, enc);
		done += n;
	}
	memzero_explicit(ivs, sizeof(ivs));
	return err;
}

int sector_batch_crypt(const struct sector_batch *b, uint8_t *dst, const uint8_t *src,
		       size_t sector_size, size_t count, uint64_t iv_first, uint64_t iv_step,
		       int enc)
{
	uint8_t iv[SECTOR_MAX_IV];
	uint64_t number = iv_first;
	int err = 0;

	if (!sector_size || !batch_usable(b, sector_size))
		return -22;
	if (b->kind == SECTOR_WIDE && b->wide_many)
		return batch_many(b, dst, src, sector_size, count, iv_first, iv_step, enc);
	for (size_t k = 0; k < count && !err; k++, number += iv_step) {
		uint8_t *d = dst + k * sector_size;
		const uint8_t *s = src + k * sector_size;

		sector_iv(b, number, iv);
		switch (b->kind) {
		case SECTOR_WIDE:
			err = b->wide(b->ctx, d, s, sector_size, iv, b->ivsize, enc);
			break;
		case SECTOR_XTS:
			err = b->xts(b->ctx, b->ctx2, d, s, sector_size, iv, !enc);
			break;
		default:
			(enc ? b->cbc_encrypt : b->cbc_decrypt)(b->ctx, d, s, sector_size / 16, iv);
			break;
		}
	}
	memzero_explicit(iv, sizeof(iv));
	return err;
}

int sector_sha256_digests(sha256_blocks_fn blocks, uint8_t *out, size_t digest_len,
			  const uint8_t *src, size_t sector_size, size_t count)
{
	struct sha256_state st;
	uint8_t digest[SHA256_DIGEST_SIZE];

	if (digest_len > SHA256_DIGEST_SIZE)
		return -22;
	for (size_t k = 0; k < count; k++) {
		sha256_init(&st);
		sha256_update(&st, src + k * sector_size, sector_size, blocks);
		sha256_final(&st, digest, SHA256_DIGEST_SIZE, blocks);
		memcpy(out + k * digest_len, digest, digest_len);
	}
	memzero_explicit(digest, sizeof(digest));
	return 0;
}

void sector_nhpoly1305_digests(const struct sector_nh_hash *h, uint8_t *out, const uint8_t *src,
			       size_t sector_size, size_t count)
{
	const struct nhpoly1305_key *key = h->key;
	const poly1305_core_ops *poly = h->poly;

	for (size_t k = 0; k < count; k++)
		nhpoly1305_digest(key, src + k * sector_size, sector_size,
				  out + k * NHPOLY1305_DIGEST_SIZE, h->nh_bulk, h->nh_small, poly);
}
