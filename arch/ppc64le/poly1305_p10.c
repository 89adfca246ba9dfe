/*
 * poly1305-p10's core entry points (arch/powerpc/crypto/poly1305-p10le_64.S,
 * 6.5): poly1305_64s (16-byte blocks, 2^64-radix scalar arithmetic),
 * poly1305_p10le_4blocks (a multiple of 64 bytes) and poly1305_emit_64.
 * Built -mcpu=power10 as an object of its own.  The kernel's 4-block entry
 * is a vector routine over powers of r; this one runs the same 2^64-radix
 * block step four blocks per iteration (same result, not the same
 * schedule).
 *
 * st (uint64_t[5]): r0, r1 (clamped r, set by the glue), h0, h1, h2.
 */
#include "poly1305_p10.h"
#include <stddef.h>
#include <stdint.h>

typedef unsigned __int128 u128;

static inline uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void blocks(uint64_t *st, const uint8_t *m, size_t len, uint64_t hibit)
{
	uint64_t r0 = st[0], r1 = st[1], s1 = r1 + (r1 >> 2);
	uint64_t h0 = st[2], h1 = st[3], h2 = st[4];

	for (; len >= 16; len -= 16, m += 16) {
		u128 t = (u128)h0 + le64(m);
		u128 d0, d1;
		uint64_t d2, c;

		h0 = (uint64_t)t;
		t = (u128)h1 + le64(m + 8) + (uint64_t)(t >> 64);
		h1 = (uint64_t)t;
		h2 += (uint64_t)(t >> 64) + hibit;
		/* h * r mod 2^130 - 5, with r1's multiple of 5/4 folding the wrap */
		d0 = (u128)h0 * r0 + (u128)h1 * s1;
		d1 = (u128)h0 * r1 + (u128)h1 * r0 + (u128)h2 * s1;
		d2 = h2 * r0;
		d1 += (uint64_t)(d0 >> 64);
		d2 += (uint64_t)(d1 >> 64);
		h0 = (uint64_t)d0;
		h1 = (uint64_t)d1;
		h2 = d2 & 3;
		c = (d2 >> 2) * 5;
		t = (u128)h0 + c;
		h0 = (uint64_t)t;
		t = (u128)h1 + (uint64_t)(t >> 64);
		h1 = (uint64_t)t;
		h2 += (uint64_t)(t >> 64);
	}
	st[2] = h0;
	st[3] = h1;
	st[4] = h2;
}

void poly1305_64s(uint64_t *st, const uint8_t *m, size_t len, uint64_t highbit)
{
	blocks(st, m, len, highbit);
}

void poly1305_p10le_4blocks(uint64_t *st, const uint8_t *m, size_t len)
{
	for (; len >= 64; len -= 64, m += 64)
		blocks(st, m, 64, 1);
}

void poly1305_emit_64(const uint64_t *st, const uint8_t *s, uint8_t *mac)
{
	uint64_t h0 = st[2], h1 = st[3], h2 = st[4], g0, g1, g2, mask;
	u128 t;

	/* full reduction: h - p if h >= p = 2^130 - 5 */
	t = (u128)h0 + 5;
	g0 = (uint64_t)t;
	t = (u128)h1 + (uint64_t)(t >> 64);
	g1 = (uint64_t)t;
	g2 = h2 + (uint64_t)(t >> 64);
	mask = 0 - (g2 >> 2);          /* all ones when h + 5 >= 2^130 */
	h0 = (h0 & ~mask) | (g0 & mask);
	h1 = (h1 & ~mask) | (g1 & mask);
	t = (u128)h0 + le64(s);
	h0 = (uint64_t)t;
	h1 = h1 + le64(s + 8) + (uint64_t)(t >> 64);
	for (int i = 0; i < 8; i++) {
		mac[i] = (uint8_t)(h0 >> (8 * i));
		mac[8 + i] = (uint8_t)(h1 >> (8 * i));
	}
}
