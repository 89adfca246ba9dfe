/*
 * The scalar rounds of SHA-512 (FIPS 180-4 section 6.4.2, steps 2-4) over
 * wk[t] = W[t] + K[t]: one round, two rounds between schedule steps, or all
 * 80 from a finished schedule.  Shared by the x86 SHA-512 block functions,
 * which differ in how they build the schedule (sha512_simd_body.h: 128-bit
 * vectors; sha512_avx2.c: two blocks in 256-bit vectors).  Macros and an
 * always-inlined function, so that each caller's target (BMI2's RORX in the
 * AVX2 build) applies to the rounds too.
 */
#ifndef CRYPTO_API_SHA512_ROUNDS_H
#define CRYPTO_API_SHA512_ROUNDS_H

#include <stdint.h>

#define SHA512_RR(x, n) (((x) >> (n)) | ((x) << (64 - (n))))

/*
 * One round with the working variables renamed rather than moved: h takes
 * the new a, d the new e; the caller rotates the names by one each round.
 * Maj(a, b, c) is b ^ ((a ^ b) & (b ^ c)): ``bc`` holds b ^ c, and ``ab``
 * gets a ^ b, which is the next round's b ^ c (the caller swaps the two).
 */
#define SHA512_ROUND(a, b, c, d, e, f, g, h, wkt, bc, ab)					\
	do {											\
		uint64_t t1_ = (h) + (SHA512_RR(e, 14) ^ SHA512_RR(e, 18) ^ SHA512_RR(e, 41)) +	\
			       ((g) ^ ((e) & ((f) ^ (g)))) + (wkt);				\
		(ab) = (a) ^ (b);								\
		(d) += t1_;									\
		(h) = t1_ + (SHA512_RR(a, 28) ^ SHA512_RR(a, 34) ^ SHA512_RR(a, 39)) +		\
		      ((b) ^ ((ab) & (bc)));							\
	} while (0)

static inline __attribute__((always_inline))
void sha512_rounds_wk(uint64_t *st, const uint64_t *wk)
{
	uint64_t a = st[0], b = st[1], c = st[2], d = st[3];
	uint64_t e = st[4], f = st[5], g = st[6], h = st[7];
	uint64_t x = b ^ c, y;

	for (int t = 0; t < 80; t += 8) {
		SHA512_ROUND(a, b, c, d, e, f, g, h, wk[t], x, y);
		SHA512_ROUND(h, a, b, c, d, e, f, g, wk[t + 1], y, x);
		SHA512_ROUND(g, h, a, b, c, d, e, f, wk[t + 2], x, y);
		SHA512_ROUND(f, g, h, a, b, c, d, e, wk[t + 3], y, x);
		SHA512_ROUND(e, f, g, h, a, b, c, d, wk[t + 4], x, y);
		SHA512_ROUND(d, e, f, g, h, a, b, c, wk[t + 5], y, x);
		SHA512_ROUND(c, d, e, f, g, h, a, b, wk[t + 6], x, y);
		SHA512_ROUND(b, c, d, e, f, g, h, a, wk[t + 7], y, x);
	}
	st[0] += a; st[1] += b; st[2] += c; st[3] += d;
	st[4] += e; st[5] += f; st[6] += g; st[7] += h;
}

/*
 * Two rounds on the working variables a..h of the caller's scope (``bc``:
 * b ^ c before them, and after them for the next pair; ``tmp`` a scratch
 * variable), then the names moved on by two: for the loops that interleave
 * the schedule with the rounds and are unrolled whole, where the moves cost
 * nothing.
 */
#define SHA512_TWO_ROUNDS(wk0, wk1, bc, tmp)						\
	do {										\
		uint64_t n0_, n1_;							\
											\
		SHA512_ROUND(a, b, c, d, e, f, g, h, wk0, bc, tmp);			\
		SHA512_ROUND(h, a, b, c, d, e, f, g, wk1, tmp, bc);			\
		n0_ = g; n1_ = h;							\
		h = f; g = e; f = d; e = c; d = b; c = a; b = n1_; a = n0_;		\
	} while (0)

#endif
