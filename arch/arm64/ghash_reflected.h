/*
 * GHASH over 64x64-bit carry-less products, for the arm64 GHASH cores that
 * differ only in how they form such a product: ghash_ce.c (the 64-bit PMULL
 * of the Crypto Extensions) and ghash_neon.c (eight 8-bit PMULLs of plain
 * ASIMD).  No kernel counterpart as a file: the role of the reduction both
 * halves of arch/arm64/crypto/ghash-ce-core.S share.
 *
 * Each 16-byte block is byte-reversed on load, so the field element's
 * coefficient of x^i sits at bit 127-i of a 128-bit value (the "reflected"
 * order, in which multiplying by x is a right shift).  The carry-less
 * product of two reflected elements, shifted left one bit, is the reflected
 * 256-bit product: its upper 128 bits hold x^0..x^127, its lower 128 bits L
 * hold x^128..x^255.  With x^128 = 1 + x + x^2 + x^7 (mod the GCM
 * polynomial) L folds back as L * (1 + x + x^2 + x^7); the bits that fold
 * pushes out past x^127 are the low bits of L placed at the top
 * (L<<127 ^ L<<126 ^ L<<121), which fold once more without overflowing.  So
 *     result = upper ^ fold(L ^ over),  fold(V) = V ^ V>>1 ^ V>>2 ^ V>>7.
 * The descriptor logic (partial blocks, final padding, wipe) is the generic
 * C's (algs/ghash_generic.c), so a descriptor may move between block
 * functions between calls.
 */
#ifndef CRYPTO_API_ARM64_GHASH_REFLECTED_H
#define CRYPTO_API_ARM64_GHASH_REFLECTED_H

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>

#include "ghash_generic.h"
#include "memzero.h"

struct u128 {
	uint64_t lo, hi;
};

/* A 64x64 -> 128-bit carry-less product: lane 0 the low half, lane 1 the high. */
typedef uint64x2_t (*clmul64_fn)(uint64_t a, uint64_t b);

static inline struct u128 load_reflected(const uint8_t *p)
{
	uint64x2_t v = vreinterpretq_u64_u8(vrev64q_u8(vld1q_u8(p)));
	struct u128 r = { vgetq_lane_u64(v, 1), vgetq_lane_u64(v, 0) };

	return r;
}

static inline void store_reflected(uint8_t *p, struct u128 r)
{
	uint64x2_t v = vcombine_u64(vcreate_u64(r.hi), vcreate_u64(r.lo));

	vst1q_u8(p, vrev64q_u8(vreinterpretq_u8_u64(v)));
}

/* V ^ V>>1 ^ V>>2 ^ V>>7 on a 128-bit value */
static inline struct u128 fold(struct u128 v)
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

/* a * b in GF(2^128), both reflected: four carry-less products, then the fold */
static inline struct u128 gf128_mul_reflected(struct u128 a, struct u128 b, clmul64_fn clmul)
{
	uint64x2_t ll = clmul(a.lo, b.lo), hh = clmul(a.hi, b.hi);
	uint64x2_t mid = veorq_u64(clmul(a.lo, b.hi), clmul(a.hi, b.lo));
	uint64_t w0 = vgetq_lane_u64(ll, 0);
	uint64_t w1 = vgetq_lane_u64(ll, 1) ^ vgetq_lane_u64(mid, 0);
	uint64_t w2 = vgetq_lane_u64(hh, 0) ^ vgetq_lane_u64(mid, 1);
	uint64_t w3 = vgetq_lane_u64(hh, 1);
	struct u128 low, up, r;

	/* the 256-bit w3:w2:w1:w0 one bit to the left */
	w3 = (w3 << 1) | (w2 >> 63);
	w2 = (w2 << 1) | (w1 >> 63);
	w1 = (w1 << 1) | (w0 >> 63);
	w0 <<= 1;
	low.lo = w0;
	low.hi = w1 ^ (w0 << 63) ^ (w0 << 62) ^ (w0 << 57);
	up.lo = w2;
	up.hi = w3;
	low = fold(low);
	r.lo = up.lo ^ low.lo;
	r.hi = up.hi ^ low.hi;
	return r;
}

/* A ghash_blocks_fn body: acc = (acc ^ block) * H for each block. */
static inline void ghash_blocks_reflected(uint8_t *acc, const struct ghash_key *key,
					  const uint8_t *data, size_t nblocks, clmul64_fn clmul)
{
	struct u128 h = { key->lo, key->hi };
	struct u128 y = load_reflected(acc);

	for (; nblocks; nblocks--, data += GHASH_BLOCK_SIZE) {
		struct u128 m = load_reflected(data);

		y.lo ^= m.lo;
		y.hi ^= m.hi;
		y = gf128_mul_reflected(y, h, clmul);
	}
	store_reflected(acc, y);
	memzero_explicit(&y, sizeof(y));
}

/*
 * The three entry points of a GHASH core whose block function is BLOCKS:
 * PREFIX_update, PREFIX_final and PREFIX_layout (declared in its header).
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
