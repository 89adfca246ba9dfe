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

static void mul_acc(uint8_t acc[GHASH_BLOCK_SIZE], const struct ghash_key *key)
{
	uint64_t y[2] = { load_be64(acc), load_be64(acc + 8) };

	gf128_mul(y, key);
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

void ghash_update(struct ghash_desc_ctx *ctx, const struct ghash_key *key,
		  const uint8_t *data, size_t len)
{
	while (len) {
		size_t room = GHASH_BLOCK_SIZE - ctx->pending;
		size_t n = len < room ? len : room;
		size_t i;

		for (i = 0; i < n; i++)
			ctx->acc[ctx->pending + i] ^= data[i];
		ctx->pending += (uint32_t)n;
		data += n;
		len -= n;
		if (ctx->pending == GHASH_BLOCK_SIZE) {
			mul_acc(ctx->acc, key);
			ctx->pending = 0;
		}
	}
}

void ghash_final(struct ghash_desc_ctx *ctx, const struct ghash_key *key, uint8_t *out)
{
	size_t i;

	if (ctx->pending)
		mul_acc(ctx->acc, key);		/* the missing bytes count as zeros */
	for (i = 0; i < GHASH_BLOCK_SIZE; i++)
		out[i] = ctx->acc[i];
	memzero_explicit(ctx, sizeof(*ctx));
}
