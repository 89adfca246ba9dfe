/*
 * GHASH over 64x64-bit carry-less products, for the arm64 GHASH cores that
 * differ only in how they form such a product: ghash_ce.c (the 64-bit PMULL
 * of the Crypto Extensions) and ghash_neon.c (eight 8-bit PMULLs of plain
 * ASIMD).  No kernel counterpart as a file: the role of the reduction both
 * halves of arch/arm64/crypto/ghash-ce-core.S share.
 *
 * Each 16-byte block is byte-reversed on load into the "reflected" order
 * (coefficient of x^i at bit 127-i); the reduction of a product and the
 * entry points are arch/common/gf128_reflected.h's, shared with the POWER8
 * vpmsumd core.  The descriptor logic (partial blocks, final padding, wipe) is the generic
 * C's (algs/ghash_generic.c), so a descriptor may move between block
 * functions between calls.
 */
#ifndef CRYPTO_API_ARM64_GHASH_REFLECTED_H
#define CRYPTO_API_ARM64_GHASH_REFLECTED_H

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>

#include "ghash_generic.h"
#include "gf128_reflected.h"
#include "memzero.h"

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

/* a * b in GF(2^128), both reflected: four carry-less products, then the fold */
static inline struct u128 gf128_mul_reflected(struct u128 a, struct u128 b, clmul64_fn clmul)
{
	uint64x2_t ll = clmul(a.lo, b.lo), hh = clmul(a.hi, b.hi);
	uint64x2_t mid = veorq_u64(clmul(a.lo, b.hi), clmul(a.hi, b.lo));
	uint64_t w0 = vgetq_lane_u64(ll, 0);
	uint64_t w1 = vgetq_lane_u64(ll, 1) ^ vgetq_lane_u64(mid, 0);
	uint64_t w2 = vgetq_lane_u64(hh, 0) ^ vgetq_lane_u64(mid, 1);
	uint64_t w3 = vgetq_lane_u64(hh, 1);

	return gf128_reduce_reflected(w0, w1, w2, w3);
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

#endif
