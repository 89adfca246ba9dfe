/*
 * Poly1305 block function with AArch64 Advanced SIMD in radix 2^26: the role
 * of the NEON path of arch/arm64/crypto/poly1305-armv8.pl (5.5+, the
 * poly1305-neon shash).
 *
 * Two message blocks go into the two 32-bit lanes of five limb vectors.  The
 * lanes carry two interleaved Horner sums in r^2:
 *     A = [h + m1, m2];  A = A * [r^2, r^2] + [m3, m4];  ...
 * and the last pair is multiplied by [r^2, r] instead, so the lane sum is
 *     (h + m1) r^n + m2 r^(n-1) + ... + mn r,
 * the serial result.  Products are umull/umlal (32x32->64 per lane) with the
 * 5*r limbs for terms past 2^130; after each multiply a carry chain brings
 * the limbs back to 26 bits (limb 1 may exceed it slightly, as in the generic
 * core).  Fewer than four blocks, and an odd last block, go through the
 * generic core, whose key and accumulator layout this code shares (26-bit
 * limbs: r[5], 5*r[1..4]; h[5]; see algs/poly1305_core.c), so a descriptor
 * may move between the two cores between calls.
 */
#include <arm_neon.h>
#include <string.h>

#include "poly1305_neon.h"
#include "poly1305_desc.h"
#include "memzero.h"

#define MASK26 0x3ffffffu

/* algs/poly1305_core.c's private layout of poly1305_core_key / _state */
struct p26_key_view {
	uint32_t r[5];
	uint32_t r5[4];
};

struct p26_state_view {
	uint32_t h[5];
};

struct limbs2 {
	uint32x2_t l[5];
};

/* r^2 through the generic core: h = (0 + r) * r with no 2^128 bit. */
static void r_squared(const poly1305_core_key *key, const struct p26_key_view *k,
		      uint32_t r2[5])
{
	unsigned __int128 r = 0;
	poly1305_core_state sq;
	struct p26_state_view v;
	uint8_t rb[16];
	int i;

	for (i = 4; i >= 0; i--)
		r = (r << 26) | k->r[i];
	for (i = 0; i < 16; i++)
		rb[i] = (uint8_t)(r >> (8 * i));
	poly1305_generic_init(&sq);
	poly1305_generic_blocks(&sq, key, rb, 1, 0);
	memcpy(&v, &sq, sizeof(v));
	memcpy(r2, v.h, sizeof(v.h));
	memzero_explicit(rb, sizeof(rb));
	memzero_explicit(&sq, sizeof(sq));
}

/* Two blocks as limb vectors: lane 0 from src, lane 1 from src + 16. */
static inline struct limbs2 load_pair(const uint8_t *src, uint32_t hibit)
{
	uint32x2x4_t w = vld4_u32((const uint32_t *)(const void *)src);
	uint32x2_t m = vdup_n_u32(MASK26);
	struct limbs2 x;

	x.l[0] = vand_u32(w.val[0], m);
	x.l[1] = vand_u32(vorr_u32(vshr_n_u32(w.val[0], 26), vshl_n_u32(w.val[1], 6)), m);
	x.l[2] = vand_u32(vorr_u32(vshr_n_u32(w.val[1], 20), vshl_n_u32(w.val[2], 12)), m);
	x.l[3] = vand_u32(vorr_u32(vshr_n_u32(w.val[2], 14), vshl_n_u32(w.val[3], 18)), m);
	x.l[4] = vorr_u32(vshr_n_u32(w.val[3], 8), vdup_n_u32(hibit ? 1u << 24 : 0));
	return x;
}

/* a * r (lane-wise), with s[i] = 5 * r[i]; carried back to ~26-bit limbs. */
static inline struct limbs2 mul_reduce(struct limbs2 a, const uint32x2_t r[5],
				       const uint32x2_t s[5])
{
	uint64x2_t d0, d1, d2, d3, d4, c;
	const uint64x2_t m = vdupq_n_u64(MASK26);
	struct limbs2 h;

	d0 = vmull_u32(a.l[0], r[0]);
	d0 = vmlal_u32(d0, a.l[1], s[4]); d0 = vmlal_u32(d0, a.l[2], s[3]);
	d0 = vmlal_u32(d0, a.l[3], s[2]); d0 = vmlal_u32(d0, a.l[4], s[1]);
	d1 = vmull_u32(a.l[0], r[1]);
	d1 = vmlal_u32(d1, a.l[1], r[0]); d1 = vmlal_u32(d1, a.l[2], s[4]);
	d1 = vmlal_u32(d1, a.l[3], s[3]); d1 = vmlal_u32(d1, a.l[4], s[2]);
	d2 = vmull_u32(a.l[0], r[2]);
	d2 = vmlal_u32(d2, a.l[1], r[1]); d2 = vmlal_u32(d2, a.l[2], r[0]);
	d2 = vmlal_u32(d2, a.l[3], s[4]); d2 = vmlal_u32(d2, a.l[4], s[3]);
	d3 = vmull_u32(a.l[0], r[3]);
	d3 = vmlal_u32(d3, a.l[1], r[2]); d3 = vmlal_u32(d3, a.l[2], r[1]);
	d3 = vmlal_u32(d3, a.l[3], r[0]); d3 = vmlal_u32(d3, a.l[4], s[4]);
	d4 = vmull_u32(a.l[0], r[4]);
	d4 = vmlal_u32(d4, a.l[1], r[3]); d4 = vmlal_u32(d4, a.l[2], r[2]);
	d4 = vmlal_u32(d4, a.l[3], r[1]); d4 = vmlal_u32(d4, a.l[4], r[0]);

	d1 = vaddq_u64(d1, vshrq_n_u64(d0, 26)); d0 = vandq_u64(d0, m);
	d2 = vaddq_u64(d2, vshrq_n_u64(d1, 26)); d1 = vandq_u64(d1, m);
	d3 = vaddq_u64(d3, vshrq_n_u64(d2, 26)); d2 = vandq_u64(d2, m);
	d4 = vaddq_u64(d4, vshrq_n_u64(d3, 26)); d3 = vandq_u64(d3, m);
	c = vshrq_n_u64(d4, 26); d4 = vandq_u64(d4, m);
	d0 = vaddq_u64(d0, vaddq_u64(c, vshlq_n_u64(c, 2)));	/* + 5c */
	d1 = vaddq_u64(d1, vshrq_n_u64(d0, 26)); d0 = vandq_u64(d0, m);

	h.l[0] = vmovn_u64(d0); h.l[1] = vmovn_u64(d1); h.l[2] = vmovn_u64(d2);
	h.l[3] = vmovn_u64(d3); h.l[4] = vmovn_u64(d4);
	return h;
}

void poly1305_neon_blocks(poly1305_core_state *state, const poly1305_core_key *key,
			  const uint8_t *src, size_t nblocks, uint32_t hibit)
{
	struct p26_key_view k;
	struct p26_state_view st;
	uint32x2_t r[5], s[5];
	uint32_t r2[5], h[5], c;
	struct limbs2 a;
	size_t pairs = nblocks / 2, p;
	int i;

	if (nblocks < 4) {
		poly1305_generic_blocks(state, key, src, nblocks, hibit);
		return;
	}
	memcpy(&k, key, sizeof(k));
	memcpy(&st, state, sizeof(st));
	r_squared(key, &k, r2);
	for (i = 0; i < 5; i++) {
		r[i] = vdup_n_u32(r2[i]);
		s[i] = vdup_n_u32(r2[i] * 5);
		a.l[i] = vset_lane_u32(st.h[i], vdup_n_u32(0), 0);
	}
	for (p = 0; p < pairs; p++, src += 32) {
		struct limbs2 m = load_pair(src, hibit);

		for (i = 0; i < 5; i++)
			a.l[i] = vadd_u32(a.l[i], m.l[i]);
		if (p + 1 == pairs)	/* last pair: lane 1 takes r, not r^2 */
			for (i = 0; i < 5; i++) {
				r[i] = vset_lane_u32(k.r[i], r[i], 1);
				s[i] = vset_lane_u32(k.r[i] * 5, s[i], 1);
			}
		a = mul_reduce(a, r, s);
	}
	for (i = 0; i < 5; i++)
		h[i] = vget_lane_u32(a.l[i], 0) + vget_lane_u32(a.l[i], 1);
	c = h[0] >> 26; h[0] &= MASK26;
	h[1] += c; c = h[1] >> 26; h[1] &= MASK26;
	h[2] += c; c = h[2] >> 26; h[2] &= MASK26;
	h[3] += c; c = h[3] >> 26; h[3] &= MASK26;
	h[4] += c; c = h[4] >> 26; h[4] &= MASK26;
	h[0] += c * 5; c = h[0] >> 26; h[0] &= MASK26;
	h[1] += c;
	memcpy(st.h, h, sizeof(h));
	memcpy(state, &st, sizeof(st));
	memzero_explicit(&k, sizeof(k));
	memzero_explicit(r2, sizeof(r2));
	if (nblocks & 1)
		poly1305_generic_blocks(state, key, src, 1, hibit);
}

const poly1305_core_ops poly1305_neon_ops = {
	.name = "neon",
	.setkey = poly1305_generic_setkey,
	.init = poly1305_generic_init,
	.blocks = poly1305_neon_blocks,
	.emit = poly1305_generic_emit,
};

void poly1305_neon_update(void *desc, const uint8_t *src, size_t len)
{
	poly1305_desc_update(desc, src, len, &poly1305_neon_ops);
}

size_t poly1305_neon_desc_size(void)
{
	return sizeof(struct poly1305_desc);
}
