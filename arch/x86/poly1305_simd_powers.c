/*
 * Powers of the Poly1305 key r in 26-bit limbs, for the multi-lane block
 * functions (poly1305_simd.h).  Scalar code: 32x32->64 products.
 */
#include "poly1305_simd.h"
#include "memzero.h"

/* out = a * b mod 2^130 - 5, limbs partly reduced (limb 1 may pass 2^26). */
static void p26_mul(uint32_t out[5], const uint32_t a[5], const uint32_t b[5])
{
	const uint32_t M = POLY1305_P26_MASK;
	uint64_t s1 = (uint64_t)b[1] * 5, s2 = (uint64_t)b[2] * 5;
	uint64_t s3 = (uint64_t)b[3] * 5, s4 = (uint64_t)b[4] * 5;
	uint64_t d[5], c;
	int i;

	d[0] = a[0] * (uint64_t)b[0] + a[1] * s4 + a[2] * s3 + a[3] * s2 + a[4] * s1;
	d[1] = a[0] * (uint64_t)b[1] + a[1] * (uint64_t)b[0] + a[2] * s4 + a[3] * s3 + a[4] * s2;
	d[2] = a[0] * (uint64_t)b[2] + a[1] * (uint64_t)b[1] + a[2] * (uint64_t)b[0] +
	       a[3] * s4 + a[4] * s3;
	d[3] = a[0] * (uint64_t)b[3] + a[1] * (uint64_t)b[2] + a[2] * (uint64_t)b[1] +
	       a[3] * (uint64_t)b[0] + a[4] * s4;
	d[4] = a[0] * (uint64_t)b[4] + a[1] * (uint64_t)b[3] + a[2] * (uint64_t)b[2] +
	       a[3] * (uint64_t)b[1] + a[4] * (uint64_t)b[0];
	for (i = 0; i < 4; i++) {
		d[i + 1] += d[i] >> 26;
		d[i] &= M;
	}
	c = d[4] >> 26;
	d[4] &= M;
	d[0] += c * 5;
	d[1] += d[0] >> 26;
	d[0] &= M;
	for (i = 0; i < 5; i++)
		out[i] = (uint32_t)d[i];
}

void poly1305_simd_powers_fill(struct poly1305_simd_powers *pw, const poly1305_core_key *key,
			       uint32_t n)
{
	struct p26_key k;

	if (pw->count == 0) {
		memcpy(&k, key, sizeof(k));
		memcpy(pw->r[0], k.r, sizeof(k.r));
		memzero_explicit(&k, sizeof(k));
		pw->count = 1;
	}
	while (pw->count < n && pw->count < POLY1305_SIMD_MAX_POWER) {
		p26_mul(pw->r[pw->count], pw->r[pw->count - 1], pw->r[0]);
		pw->count++;
	}
}
