/*
 * POLYVAL blocks with the ARMv8 Crypto Extensions' 64x64-bit carry-less
 * multiply (PMULL/PMULL2): the work of the kernel's
 * arch/arm64/crypto/polyval-ce-core.S (6.0-6.18).  Built with
 * -march=armv8-a+crypto; only run on a CPU whose HWCAP has "pmull".
 *
 * RFC 8452's dot(a, b) = a * b * x^-128 mod P: a 256-bit carry-less product
 * in three parts (low, middle, high 128 bits, the middle straddling them),
 * then a Montgomery reduction by x^-128 in two folds of 64 bits with the
 * constant x^127 + x^126 + x^121 (the high word 0xc2 << 56).  dot is linear,
 * so a run of n <= 8 blocks is one sum
 *     dot(acc ^ X_1, H^n) ^ dot(X_2, H^(n-1)) ^ ... ^ dot(X_n, H)
 * over the key's powers (struct polyval_key's powers, H^16 .. H^1) with a
 * single reduction: 8 blocks per reduction, as the kernel's core.  The
 * streaming code around it is algs/polyval_generic.c, so the state and key
 * are the generic driver's, bit for bit.
 */
#include <arm_neon.h>

#include "polyval_ce.h"

#define RUN 8

static inline uint64x2_t clmul_lo(uint64x2_t a, uint64x2_t b)
{
	return vreinterpretq_u64_p128(vmull_p64((poly64_t)vgetq_lane_u64(a, 0),
						(poly64_t)vgetq_lane_u64(b, 0)));
}

static inline uint64x2_t clmul_hi(uint64x2_t a, uint64x2_t b)
{
	return vreinterpretq_u64_p128(vmull_high_p64(vreinterpretq_p64_u64(a),
						     vreinterpretq_p64_u64(b)));
}

/* v * x^-64 mod P: cancel the low word with a multiple of P, then swap halves. */
static inline uint64x2_t fold64(uint64x2_t v, uint64x2_t k)
{
	return veorq_u64(vextq_u64(v, v, 1), clmul_lo(v, k));
}

/* n blocks (1 <= n <= RUN) into s with the powers H^n .. H^1, one reduction. */
static uint64x2_t polyval_run(uint64x2_t s, const struct polyval_key *key, const uint8_t *data,
			      size_t n, uint64x2_t k)
{
	const uint8_t (*pw)[16] = key->powers + (POLYVAL_POWERS - n);
	const uint64x2_t zero = vdupq_n_u64(0);
	uint64x2_t lo = zero, mid = zero, hi = zero;

	for (size_t i = 0; i < n; i++) {
		uint64x2_t x = vreinterpretq_u64_u8(vld1q_u8(data + 16 * i));
		uint64x2_t h = vreinterpretq_u64_u8(vld1q_u8(pw[i]));

		if (i == 0)
			x = veorq_u64(x, s);
		lo = veorq_u64(lo, clmul_lo(x, h));
		hi = veorq_u64(hi, clmul_hi(x, h));
		/* Karatsuba: the middle part is (x0 ^ x1)(h0 ^ h1) ^ x0h0 ^ x1h1 */
		mid = veorq_u64(mid, clmul_lo(veorq_u64(x, vextq_u64(x, x, 1)),
					      veorq_u64(h, vextq_u64(h, h, 1))));
	}
	mid = veorq_u64(mid, veorq_u64(lo, hi));	/* the sums of x0h0 and x1h1, once */
	lo = veorq_u64(lo, vextq_u64(zero, mid, 1));	/* low half of mid into lo's high word */
	hi = veorq_u64(hi, vextq_u64(mid, zero, 1));	/* high half into hi's low word */
	lo = fold64(fold64(lo, k), k);
	return veorq_u64(hi, lo);
}

void polyval_blocks_pmull(uint64_t *acc, const struct polyval_key *key, const uint8_t *data,
			  size_t nblocks)
{
	const uint64x2_t k = vdupq_n_u64(0xc200000000000000ULL);
	uint64x2_t s = vld1q_u64(acc);

	while (nblocks) {
		size_t n = nblocks < RUN ? nblocks : RUN;

		s = polyval_run(s, key, data, n, k);
		data += 16 * n;
		nblocks -= n;
	}
	vst1q_u64(acc, s);
}

void polyval_ce_update(void *state, const void *key, const uint8_t *data, size_t len)
{
	polyval_update(state, key, data, len, polyval_blocks_pmull);
}

void polyval_ce_final(void *state, const void *key, uint8_t *out)
{
	polyval_final(state, key, out, polyval_blocks_pmull);
}

size_t polyval_ce_state_size(void)
{
	return sizeof(struct polyval_state);
}

size_t polyval_ce_key_size(void)
{
	return sizeof(struct polyval_key);
}
