/*
 * Poly1305 core with 64-bit limbs (radix 2^64), the counterpart of the
 * kernel's x86_64 Poly1305 scalar code (arch/x86/crypto/poly1305-x86_64*,
 * poly1305_blocks_x86_64): the accumulator is h = h0 + h1*2^64 + h2*2^128
 * with h2 a few bits, r = r0 + r1*2^64, and every multiply is a 64x64->128
 * product (unsigned __int128).
 *
 * Reduction: 2^130 = 5 (mod p), so 2^128 = 5/4 (mod p).  Clamping leaves the
 * low two bits of r1 clear, so h1*r1*2^128 = h1 * (5 * (r1 >> 2)) and
 * s1 = r1 + (r1 >> 2) = 5 * (r1 >> 2) folds the high partial products back.
 *
 * Implements the poly1305_core_ops table of algs/include/poly1305_core.h:
 * key storage w[0] = r0, w[1] = r1, w[2] = s1; state w[0..2] = h0, h1, h2.
 * emit() fully reduces mod 2^130 - 5 and writes the low 128 bits (no "+ s").
 */
#include "x86_common.h"
#include "byteorder.h"
#include "poly1305_x86_64.h"

#if defined(__x86_64__) || defined(__i386__)

#if defined(__SIZEOF_INT128__)
__extension__ typedef unsigned __int128 u128;

static inline u128 mul64(uint64_t a, uint64_t b)
{
	return (u128)a * b;
}
#define LO64(x) ((uint64_t)(x))
#define HI64(x) ((uint64_t)((x) >> 64))
#define ADD128(x, y) ((x) + (y))
#define ADD128_64(x, y) ((x) + (u128)(y))
#else
/* 32-bit x86 has no __int128: an explicit two-word product. */
typedef struct { uint64_t lo, hi; } u128;

static inline u128 mul64(uint64_t a, uint64_t b)
{
	uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
	uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
	u128 r;

	r.lo = (mid << 32) | (uint32_t)p00;
	r.hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
	return r;
}

static inline u128 add128(u128 x, u128 y)
{
	x.lo += y.lo;
	x.hi += y.hi + (x.lo < y.lo);
	return x;
}

static inline u128 add128_64(u128 x, uint64_t y)
{
	x.lo += y;
	x.hi += (x.lo < y);
	return x;
}
#define LO64(x) ((x).lo)
#define HI64(x) ((x).hi)
#define ADD128(x, y) add128((x), (y))
#define ADD128_64(x, y) add128_64((x), (y))
#endif

void poly1305_x86_64_setkey(poly1305_core_key *key, const uint8_t raw_r[16])
{
	const uint64_t r0 = get_le64(raw_r + 0) & 0x0ffffffc0fffffffULL;
	const uint64_t r1 = get_le64(raw_r + 8) & 0x0ffffffc0ffffffcULL;

	memset(key, 0, sizeof(*key));
	key->w[0] = r0;
	key->w[1] = r1;
	key->w[2] = r1 + (r1 >> 2);
}

void poly1305_x86_64_init(poly1305_core_state *state)
{
	state->w[0] = 0;
	state->w[1] = 0;
	state->w[2] = 0;
}

void poly1305_x86_64_blocks(poly1305_core_state *state, const poly1305_core_key *key,
			    const uint8_t *src, size_t nblocks, uint32_t hibit)
{
	const uint64_t r0 = key->w[0], r1 = key->w[1], s1 = key->w[2];
	uint64_t h0 = state->w[0], h1 = state->w[1], h2 = state->w[2];
	const uint64_t hb = hibit ? 1 : 0;

	while (nblocks--) {
		u128 d0, d1;
		uint64_t d2, c, m0 = get_le64(src), m1 = get_le64(src + 8);

		/* h += m (+ 2^128): 128-bit add with carries into h2 */
		h0 += m0;
		c = h0 < m0;
		h1 += c;
		c = h1 < c;
		h1 += m1;
		c += h1 < m1;
		h2 += c + hb;

		/*
		 * h * r with the 2^128 and 2^192 terms folded by s1:
		 *   d0 = h0 r0 + h1 s1
		 *   d1 = h0 r1 + h1 r0 + h2 s1
		 *   d2 = h2 r0
		 * h2 < 8 here, so h2 s1 and h2 r0 are plain 64-bit products.
		 */
		d0 = ADD128(mul64(h0, r0), mul64(h1, s1));
		d1 = ADD128_64(ADD128(mul64(h0, r1), mul64(h1, r0)), h2 * s1);
		d2 = h2 * r0;

		d1 = ADD128_64(d1, HI64(d0));
		d2 += HI64(d1);
		h0 = LO64(d0);
		h1 = LO64(d1);

		/* d2 holds bits 128 and up: keep 2 bits, fold the rest times 5 */
		h2 = d2 & 3;
		c = (d2 & ~(uint64_t)3) + (d2 >> 2);
		h0 += c;
		c = h0 < c;
		h1 += c;
		h2 += h1 < c;

		src += POLY1305_BLOCK_SIZE;
	}

	state->w[0] = h0;
	state->w[1] = h1;
	state->w[2] = h2;
}

void poly1305_x86_64_emit(const poly1305_core_state *state, uint8_t out[16])
{
	uint64_t h0 = state->w[0], h1 = state->w[1], h2 = state->w[2];
	uint64_t g0, g1, g2, c, mask;

	/* bring h below 2^130 (the loop leaves h2 <= 4) */
	c = (h2 >> 2) * 5;
	h2 &= 3;
	h0 += c;
	c = h0 < c;
	h1 += c;
	h2 += h1 < c;

	/* g = h + 5; if that reaches 2^130, h >= p and the result is g - 2^130 */
	g0 = h0 + 5;
	c = g0 < 5;
	g1 = h1 + c;
	c = g1 < c;
	g2 = h2 + c;

	mask = 0 - (g2 >> 2);	/* all ones when g >= 2^130 */
	h0 = (h0 & ~mask) | (g0 & mask);
	h1 = (h1 & ~mask) | (g1 & mask);

	put_le64(out + 0, h0);
	put_le64(out + 8, h1);
}

#else /* not x86: stubs so the extension still builds; never called */

#include <stdlib.h>

void poly1305_x86_64_setkey(poly1305_core_key *key, const uint8_t raw_r[16])
{
	(void)key; (void)raw_r;
	abort();
}

void poly1305_x86_64_init(poly1305_core_state *state)
{
	(void)state;
	abort();
}

void poly1305_x86_64_blocks(poly1305_core_state *state, const poly1305_core_key *key,
			    const uint8_t *src, size_t nblocks, uint32_t hibit)
{
	(void)state; (void)key; (void)src; (void)nblocks; (void)hibit;
	abort();
}

void poly1305_x86_64_emit(const poly1305_core_state *state, uint8_t out[16])
{
	(void)state; (void)out;
	abort();
}

#endif

const poly1305_core_ops poly1305_x86_64_ops = {
	.name = "x86_64",
	.setkey = poly1305_x86_64_setkey,
	.init = poly1305_x86_64_init,
	.blocks = poly1305_x86_64_blocks,
	.emit = poly1305_x86_64_emit,
};

uintptr_t poly1305_x86_64_ops_address(void)
{
	return (uintptr_t)&poly1305_x86_64_ops;
}

void poly1305_x86_64_hash(const uint8_t raw_r[16], const uint8_t *src, size_t nblocks,
			  uint32_t hibit, uint8_t out[16])
{
	poly1305_core_key key;
	poly1305_core_state state;

	poly1305_x86_64_setkey(&key, raw_r);
	poly1305_x86_64_init(&state);
	poly1305_x86_64_blocks(&state, &key, src, nblocks, hibit);
	poly1305_x86_64_emit(&state, out);
	crypto_memzero(&key, sizeof(key));
	crypto_memzero(&state, sizeof(state));
}
