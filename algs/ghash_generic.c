/*
 * GHASH over GF(2^128) with the GCM bit order (SP 800-38D Algorithm 1): the
 * core of the ghash-generic shash (crypto/ghash-generic.c).  The product is
 * computed one bit at a time with all-ones/all-zeros masks instead of
 * branches or table lookups, so its timing does not depend on H or the data.
 */
#include "ghash_generic.h"
#include "include/memzero.h"

static uint64_t load_be64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v = (v << 8) | p[i];
	return v;
}

static void store_be64(uint8_t *p, uint64_t v)
{
	int i;

	for (i = 7; i >= 0; i--) {
		p[i] = (uint8_t)v;
		v >>= 8;
	}
}

/* y = y * h: bit 0 of the field element is the most significant bit of hi. */
static void gf128_mul(uint64_t y[2], const struct ghash_key *h)
{
	uint64_t zh = 0, zl = 0, vh = h->hi, vl = h->lo;
	int i;

	for (i = 0; i < 128; i++) {
		uint64_t word = i < 64 ? y[0] : y[1];
		uint64_t bit = (word >> (63 - (i & 63))) & 1;
		uint64_t take = (uint64_t)0 - bit;
		uint64_t carry = (uint64_t)0 - (vl & 1);

		zh ^= vh & take;
		zl ^= vl & take;
		vl = (vl >> 1) | (vh << 63);
		vh = (vh >> 1) ^ (carry & 0xe100000000000000ULL);
	}
	y[0] = zh;
	y[1] = zl;
}

void ghash_blocks_generic(uint8_t *acc, const struct ghash_key *key,
			  const uint8_t *data, size_t nblocks)
{
	uint64_t y[2] = { load_be64(acc), load_be64(acc + 8) };

	for (; nblocks; nblocks--, data += GHASH_BLOCK_SIZE) {
		y[0] ^= load_be64(data);
		y[1] ^= load_be64(data + 8);
		gf128_mul(y, key);
	}
	store_be64(acc, y[0]);
	store_be64(acc + 8, y[1]);
	memzero_explicit(y, sizeof(y));
}

void ghash_setkey(struct ghash_key *key, const uint8_t *raw)
{
	key->hi = load_be64(raw);
	key->lo = load_be64(raw + 8);
}

void ghash_init(struct ghash_desc_ctx *ctx)
{
	memzero_explicit(ctx, sizeof(*ctx));
}

static const uint8_t zero_block[GHASH_BLOCK_SIZE];

void ghash_update(struct ghash_desc_ctx *ctx, const struct ghash_key *key,
		  const uint8_t *data, size_t len, ghash_blocks_fn blocks)
{
	size_t i, n;

	if (ctx->pending) {			/* finish the block started earlier */
		size_t p = ctx->pending % GHASH_BLOCK_SIZE;	/* always < 16 */

		n = GHASH_BLOCK_SIZE - p;
		if (n > len)
			n = len;
		for (i = 0; i < n; i++)
			ctx->acc[p + i] ^= data[i];
		ctx->pending = (uint32_t)(p + n);
		data += n;
		len -= n;
		if (ctx->pending < GHASH_BLOCK_SIZE)
			return;
		blocks(ctx->acc, key, zero_block, 1);
		ctx->pending = 0;
	}
	n = len / GHASH_BLOCK_SIZE;
	if (n) {
		blocks(ctx->acc, key, data, n);
		data += n * GHASH_BLOCK_SIZE;
		len -= n * GHASH_BLOCK_SIZE;
	}
	for (i = 0; i < len; i++)		/* a partial block waits for more */
		ctx->acc[i] ^= data[i];
	ctx->pending = (uint32_t)len;
}

void ghash_final(struct ghash_desc_ctx *ctx, const struct ghash_key *key, uint8_t *out,
		 ghash_blocks_fn blocks)
{
	size_t i;

	if (ctx->pending)		/* the missing bytes count as zeros */
		blocks(ctx->acc, key, zero_block, 1);
	for (i = 0; i < GHASH_BLOCK_SIZE; i++)
		out[i] = ctx->acc[i];
	memzero_explicit(ctx, sizeof(*ctx));
}
