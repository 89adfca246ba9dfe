/*
 * SHA-1 (FIPS 180-4 section 6.1) in portable C; the buffering and padding
 * are algs/include/md_buffer.h's.
 */
#include <string.h>

#include "byteorder.h"
#include "md_buffer.h"
#include "memzero.h"
#include "sha1_generic.h"

static inline uint32_t rol32(uint32_t x, int n)
{
	return (x << n) | (x >> (32 - n));
}

void sha1_init(struct sha1_state *s)
{
	static const uint32_t h[5] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0 };

	memcpy(s->state, h, sizeof(h));
	s->count = 0;
}

void sha1_blocks_generic(uint32_t *state, const uint8_t *data, size_t nblocks)
{
	uint32_t w[80];

	while (nblocks--) {
		uint32_t a = state[0], b = state[1], c = state[2], d = state[3], e = state[4];

		for (int i = 0; i < 16; i++)
			w[i] = get_be32(data + 4 * i);
		for (int i = 16; i < 80; i++)
			w[i] = rol32(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
		for (int i = 0; i < 80; i++) {
			uint32_t f, k;

			if (i < 20) {
				f = (b & c) | (~b & d);
				k = 0x5a827999;
			} else if (i < 40) {
				f = b ^ c ^ d;
				k = 0x6ed9eba1;
			} else if (i < 60) {
				f = (b & c) | (b & d) | (c & d);
				k = 0x8f1bbcdc;
			} else {
				f = b ^ c ^ d;
				k = 0xca62c1d6;
			}
			uint32_t t = rol32(a, 5) + f + e + k + w[i];

			e = d; d = c; c = rol32(b, 30); b = a; a = t;
		}
		state[0] += a; state[1] += b; state[2] += c; state[3] += d; state[4] += e;
		data += SHA1_BLOCK_SIZE;
	}
	memzero_explicit(w, sizeof(w));
}

static void blocks_cb(void *state, const uint8_t *data, size_t nblocks)
{
	sha1_blocks_generic(state, data, nblocks);
}

void sha1_update(struct sha1_state *s, const uint8_t *data, size_t len)
{
	size_t partial = (size_t)(s->count % SHA1_BLOCK_SIZE);

	s->count += len;
	md_update(s->state, s->buf, SHA1_BLOCK_SIZE, partial, data, len, blocks_cb);
}

void sha1_final(struct sha1_state *s, uint8_t *out)
{
	md_pad(s->state, s->buf, SHA1_BLOCK_SIZE, (size_t)(s->count % SHA1_BLOCK_SIZE), 0, s->count << 3,
	       blocks_cb);
	for (size_t i = 0; i < 5; i++)
		put_be32(out + 4 * i, s->state[i]);
	memzero_explicit(s, sizeof(*s));
}
