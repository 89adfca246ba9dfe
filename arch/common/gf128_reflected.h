/*
 * The arithmetic-only half of GHASH over 64x64-bit carry-less products, for
 * every machine's GHASH core that forms those products with its own
 * instruction (arm64's PMULL and 8-bit PMULL, ghash_reflected.h; POWER8's
 * vpmsumd, arch/ppc64le/ghash_p8.c): the reduction of a reflected product
 * and the cffi entry points around a block function.  No kernel counterpart
 * as a file.
 *
 * A field element is "reflected" when its coefficient of x^i sits at bit
 * 127-i of a 128-bit value (a block read as one big-endian number), so that
 * multiplying by x is a right shift.  The carry-less product of two
 * reflected elements, shifted left one bit, is the reflected 256-bit
 * product: its upper 128 bits hold x^0..x^127, its lower 128 bits L hold
 * x^128..x^255.  With x^128 = 1 + x + x^2 + x^7 (mod the GCM polynomial) L
 * folds back as L * (1 + x + x^2 + x^7); the bits that fold pushes out past
 * x^127 are the low bits of L placed at the top (L<<127 ^ L<<126 ^
 * L<<121), which fold once more without overflowing.  So
 *     result = upper ^ fold(L ^ over),  fold(V) = V ^ V>>1 ^ V>>2 ^ V>>7.
 */
#ifndef CRYPTO_API_GF128_REFLECTED_H
#define CRYPTO_API_GF128_REFLECTED_H

#include <stddef.h>
#include <stdint.h>

#include "ghash_generic.h"

struct u128 {
	uint64_t lo, hi;
};

/* V ^ V>>1 ^ V>>2 ^ V>>7 on a 128-bit value */
static inline struct u128 gf128_fold(struct u128 v)
{
	struct u128 r = v;
	static const int k[3] = { 1, 2, 7 };
	int i;

	for (i = 0; i < 3; i++) {
		r.lo ^= (v.lo >> k[i]) | (v.hi << (64 - k[i]));
		r.hi ^= v.hi >> k[i];
	}
	return r;
}

/* The carry-less product w3:w2:w1:w0 (w0 lowest) of two reflected elements,
 * reduced to their reflected product in GF(2^128). */
static inline struct u128 gf128_reduce_reflected(uint64_t w0, uint64_t w1, uint64_t w2, uint64_t w3)
{
	struct u128 low, r;

	/* the 256-bit w3:w2:w1:w0 one bit to the left */
	w3 = (w3 << 1) | (w2 >> 63);
	w2 = (w2 << 1) | (w1 >> 63);
	w1 = (w1 << 1) | (w0 >> 63);
	w0 <<= 1;
	low.lo = w0;
	low.hi = w1 ^ (w0 << 63) ^ (w0 << 62) ^ (w0 << 57);
	low = gf128_fold(low);
	r.lo = w2 ^ low.lo;
	r.hi = w3 ^ low.hi;
	return r;
}

/*
 * The three entry points of a GHASH core whose block function is BLOCKS:
 * PREFIX_update, PREFIX_final and PREFIX_layout (declared in its header),
 * the descriptor logic being algs/ghash_generic.c's.
 */
#define GHASH_REFLECTED_ENTRIES(PREFIX, BLOCKS)						\
void PREFIX##_update(void *desc, const void *key, const uint8_t *src, size_t len)	\
{											\
	ghash_update(desc, key, src, len, BLOCKS);					\
}											\
void PREFIX##_final(void *desc, const void *key, uint8_t *out)				\
{											\
	ghash_final(desc, key, out, BLOCKS);						\
}											\
size_t PREFIX##_layout(void)								\
{											\
	return (sizeof(struct ghash_desc_ctx) << 8) | sizeof(struct ghash_key);		\
}

#endif
