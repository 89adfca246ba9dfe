/*
 * GHASH on PMULL (see ghash_ce.h).  Each 16-byte block is byte-reversed on
 * load, so the field element's coefficient of x^i sits at bit 127-i of a
 * 128-bit value (the "reflected" order, in which multiplying by x is a
 * right shift).  The carry-less product of two reflected elements, shifted
 * left one bit, is the reflected 256-bit product: its upper 128 bits hold
 * x^0..x^127, its lower 128 bits L hold x^128..x^255.  With
 * x^128 = 1 + x + x^2 + x^7 (mod the GCM polynomial) L folds back as
 * L * (1 + x + x^2 + x^7); the bits that fold pushes out past x^127 are the
 * low bits of L placed at the top (L<<127 ^ L<<126 ^ L<<121), which fold
 * once more without overflowing.  So
 *     result = upper ^ fold(L ^ over),  fold(V) = V ^ V>>1 ^ V>>2 ^ V>>7.
 * The four 64x64 products are PMULL; the shifts and folds are done on
 * 64-bit words.  The descriptor logic (partial blocks, final padding, wipe)
 * is the generic C's, so a descriptor may move between the two block
 * functions between calls.
 */
#include <arm_neon.h>

#include "ghash_ce.h"
#include "memzero.h"

struct u128 {
	uint64_t lo, hi;
};

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

static inline uint64x2_t clmul(uint64_t a, uint64_t b)
{
	return vreinterpretq_u64_p128(vmull_p64((poly64_t)a, (poly64_t)b));
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

static struct u128 gf128_mul_pmull(struct u128 a, struct u128 b)
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

void ghash_blocks_pmull(uint8_t *acc, const struct ghash_key *key,
			const uint8_t *data, size_t nblocks)
{
	struct u128 h = { key->lo, key->hi };
	struct u128 y = load_reflected(acc);

	for (; nblocks; nblocks--, data += GHASH_BLOCK_SIZE) {
		struct u128 m = load_reflected(data);

		y.lo ^= m.lo;
		y.hi ^= m.hi;
		y = gf128_mul_pmull(y, h);
	}
	store_reflected(acc, y);
	memzero_explicit(&y, sizeof(y));
}

void ghash_ce_update(void *desc, const void *key, const uint8_t *src, size_t len)
{
	ghash_update(desc, key, src, len, ghash_blocks_pmull);
}

void ghash_ce_final(void *desc, const void *key, uint8_t *out)
{
	ghash_final(desc, key, out, ghash_blocks_pmull);
}

size_t ghash_ce_layout(void)
{
	return (sizeof(struct ghash_desc_ctx) << 8) | sizeof(struct ghash_key);
}
