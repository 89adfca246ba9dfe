/*
 * SHA-256 / SHA-224 (FIPS 180-4) in portable C, with the block function
 * passed in so that the x86 drivers reuse the buffering and padding.
 */
#include <string.h>

#include "byteorder.h"
#include "memzero.h"
#include "sha256_generic.h"

static inline uint32_t ror32(uint32_t x, int n)
{
	return (x >> n) | (x << (32 - n));
}

void sha256_init(struct sha256_state *s)
{
	static const uint32_t h[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};
	memcpy(s->state, h, sizeof(h));
	s->count = 0;
}

void sha224_init(struct sha256_state *s)
{
	static const uint32_t h[8] = {
		0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939,
		0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4,
	};
	memcpy(s->state, h, sizeof(h));
	s->count = 0;
}

void sha256_blocks_generic(uint32_t *state, const uint8_t *data, size_t nblocks)
{
	uint32_t w[64];

	while (nblocks--) {
		uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
		uint32_t e = state[4], f = state[5], g = state[6], h = state[7];

		for (int i = 0; i < 16; i++)
			w[i] = get_be32(data + 4 * i);
		for (int i = 16; i < 64; i++) {
			uint32_t s0 = ror32(w[i - 15], 7) ^ ror32(w[i - 15], 18) ^ (w[i - 15] >> 3);
			uint32_t s1 = ror32(w[i - 2], 17) ^ ror32(w[i - 2], 19) ^ (w[i - 2] >> 10);
			w[i] = w[i - 16] + s0 + w[i - 7] + s1;
		}
		for (int i = 0; i < 64; i++) {
			uint32_t t1 = h + (ror32(e, 6) ^ ror32(e, 11) ^ ror32(e, 25)) + ((e & f) ^ (~e & g)) + SHA256_K[i] + w[i];
			uint32_t t2 = (ror32(a, 2) ^ ror32(a, 13) ^ ror32(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
			h = g; g = f; f = e; e = d + t1;
			d = c; c = b; b = a; a = t1 + t2;
		}
		state[0] += a; state[1] += b; state[2] += c; state[3] += d;
		state[4] += e; state[5] += f; state[6] += g; state[7] += h;
		data += SHA256_BLOCK_SIZE;
	}
	memzero_explicit(w, sizeof(w));
}

void sha256_update(struct sha256_state *s, const uint8_t *data, size_t len, sha256_blocks_fn blocks)
{
	size_t partial = s->count % SHA256_BLOCK_SIZE;

	s->count += len;
	if (partial) {
		size_t take = SHA256_BLOCK_SIZE - partial;

		if (len < take) {
			memcpy(s->buf + partial, data, len);
			return;
		}
		memcpy(s->buf + partial, data, take);
		blocks(s->state, s->buf, 1);
		data += take;
		len -= take;
	}
	if (len >= SHA256_BLOCK_SIZE) {
		blocks(s->state, data, len / SHA256_BLOCK_SIZE);
		data += len / SHA256_BLOCK_SIZE * SHA256_BLOCK_SIZE;
		len %= SHA256_BLOCK_SIZE;
	}
	memcpy(s->buf, data, len);
}

void sha256_final(struct sha256_state *s, uint8_t *out, size_t digest_size, sha256_blocks_fn blocks)
{
	size_t partial = s->count % SHA256_BLOCK_SIZE;
	uint64_t bits = s->count * 8;

	s->buf[partial++] = 0x80;
	if (partial > SHA256_BLOCK_SIZE - 8) {
		memset(s->buf + partial, 0, SHA256_BLOCK_SIZE - partial);
		blocks(s->state, s->buf, 1);
		partial = 0;
	}
	memset(s->buf + partial, 0, SHA256_BLOCK_SIZE - 8 - partial);
	for (int i = 0; i < 8; i++)
		s->buf[SHA256_BLOCK_SIZE - 1 - i] = (uint8_t)(bits >> (8 * i));
	blocks(s->state, s->buf, 1);
	for (size_t i = 0; i < digest_size / 4; i++)
		put_be32(out + 4 * i, s->state[i]);
	memzero_explicit(s, sizeof(*s));
}

void sha256_digest_bytes(const uint8_t *data, size_t len, uint8_t *out, size_t digest_size,
			 sha256_blocks_fn blocks)
{
	struct sha256_state s;

	if (digest_size == SHA224_DIGEST_SIZE)
		sha224_init(&s);
	else
		sha256_init(&s);
	sha256_update(&s, data, len, blocks);
	sha256_final(&s, out, digest_size, blocks);	/* wipes s */
}

int sha256_digest_call(const void *handle, char *out, const char *data, size_t len)
{
	const struct sha256_call *c = handle;

	sha256_digest_bytes((const uint8_t *)data, len, (uint8_t *)out, c->digest_size, c->blocks);
	return 0;
}
