/*
 * POLYVAL in portable C (RFC 8452 section 3), the work of
 * crypto/polyval-generic.c: bitwise constant-time field multiplication, a
 * streaming state that buffers partial blocks, and zero padding of a
 * partial last block at final.
 */
#include <string.h>

#include "memzero.h"
#include "polyval_generic.h"

/* x^127 + x^126 + x^121 in the high word: what x^128 reduces to, less the 1. */
#define POLYVAL_R_HI 0xc200000000000000ULL

static uint64_t load_le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static void store_le64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++) {
		p[i] = (uint8_t)v;
		v >>= 8;
	}
}

/* r = a * b mod P, a and b as (low, high) words: shift-and-add from the top
 * bit of a down, no data-dependent branch. */
static void gf_mul(uint64_t r[2], const uint64_t a[2], const uint64_t b[2])
{
	uint64_t lo = 0, hi = 0;

	for (int i = 127; i >= 0; i--) {
		uint64_t top = 0 - (hi >> 63);
		uint64_t bit = 0 - ((a[i >> 6] >> (i & 63)) & 1);

		hi = (hi << 1) | (lo >> 63);
		lo <<= 1;
		hi ^= top & POLYVAL_R_HI;
		lo ^= top & 1;
		hi ^= bit & b[1];
		lo ^= bit & b[0];
	}
	r[0] = lo;
	r[1] = hi;
}

/* v = v * x^-1 mod P: add P when the constant term is set, then halve. */
static void gf_div_x(uint64_t v[2])
{
	uint64_t odd = 0 - (v[0] & 1);

	v[0] ^= odd & 1;
	v[1] ^= odd & POLYVAL_R_HI;
	v[0] = (v[0] >> 1) | (v[1] << 63);
	v[1] = (v[1] >> 1) | (odd & (1ULL << 63));
}

void polyval_setkey(struct polyval_key *key, const uint8_t *raw)
{
	memcpy(key->raw, raw, 16);
	key->h_x[0] = load_le64(raw);
	key->h_x[1] = load_le64(raw + 8);
	for (int i = 0; i < 128; i++)
		gf_div_x(key->h_x);
	/* H^1 last, then each power one dot product (a gf_mul by H * x^-128) up */
	memcpy(key->powers[POLYVAL_POWERS - 1], raw, 16);
	for (int i = POLYVAL_POWERS - 2; i >= 0; i--) {
		uint64_t p[2], r[2];

		p[0] = load_le64(key->powers[i + 1]);
		p[1] = load_le64(key->powers[i + 1] + 8);
		gf_mul(r, p, key->h_x);
		store_le64(key->powers[i], r[0]);
		store_le64(key->powers[i] + 8, r[1]);
		memzero_explicit(p, sizeof(p));
		memzero_explicit(r, sizeof(r));
	}
}

void polyval_blocks_generic(uint64_t *acc, const struct polyval_key *key, const uint8_t *data,
			    size_t nblocks)
{
	uint64_t x[2];

	for (size_t i = 0; i < nblocks; i++, data += 16) {
		x[0] = acc[0] ^ load_le64(data);
		x[1] = acc[1] ^ load_le64(data + 8);
		gf_mul(acc, x, key->h_x);
	}
	memzero_explicit(x, sizeof(x));
}

void polyval_init(struct polyval_state *s)
{
	memset(s, 0, sizeof(*s));
}

void polyval_update(struct polyval_state *s, const struct polyval_key *key, const uint8_t *data,
		    size_t len, polyval_blocks_fn blocks)
{
	if (s->partial) {
		size_t n = 16 - s->partial;

		if (n > len)
			n = len;
		memcpy(s->buf + s->partial, data, n);
		s->partial += (uint32_t)n;
		data += n;
		len -= n;
		if (s->partial < 16)
			return;
		blocks(s->acc, key, s->buf, 1);
		s->partial = 0;
	}
	if (len >= 16) {
		blocks(s->acc, key, data, len / 16);
		data += len - len % 16;
		len %= 16;
	}
	if (len) {
		memcpy(s->buf, data, len);
		s->partial = (uint32_t)len;
	}
}

void polyval_final(struct polyval_state *s, const struct polyval_key *key, uint8_t *out,
		   polyval_blocks_fn blocks)
{
	if (s->partial) {
		memset(s->buf + s->partial, 0, 16 - s->partial);
		blocks(s->acc, key, s->buf, 1);
	}
	store_le64(out, s->acc[0]);
	store_le64(out + 8, s->acc[1]);
	memzero_explicit(s, sizeof(*s));
}
