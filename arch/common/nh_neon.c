/*
 * NH with AArch64 Advanced SIMD: the role of arch/arm64/crypto/nh-neon-core.S
 * (and, built for ARMv7 NEON, of arch/arm/crypto/nh-neon-core.S: the arm
 * machine's core compiles this same file).
 *
 * NH (Adiantum's hash, stride 2, four passes whose keys are shifted by four
 * words each): for every 16-byte message unit m0..m3 and pass p with key
 * words k = key[4*(unit + p) ...],
 *     sum[p] += (m0 + k0) * (m2 + k2) + (m1 + k1) * (m3 + k3)   (32-bit adds,
 * 32x32->64 products, 64-bit sums mod 2^64).
 *
 * One vector per pass holds that pass's four key words for the current unit.
 * Moving to the next unit, pass p needs what pass p+1 used, so the four key
 * vectors rotate and only one new vector is loaded per unit.  The main loop
 * takes 64 bytes (four units, one full rotation); 0-3 units follow.  Each
 * pass accumulates into two 64-bit lanes (umlal), added at the end.
 */
#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>

#include "nh_neon.h"

/* acc += (m + k)[0] * (m + k)[2], (m + k)[1] * (m + k)[3] as two u64 lanes. */
static inline uint64x2_t nh_unit_pass(uint64x2_t acc, uint32x4_t m, uint32x4_t k)
{
	uint32x4_t t = vaddq_u32(m, k);

	return vmlal_u32(acc, vget_low_u32(t), vget_high_u32(t));
}

/* Both lanes added (vaddvq_u64 is AArch64-only; the arm machine builds this file too). */
static inline uint64_t lanes_sum(uint64x2_t a)
{
	return vgetq_lane_u64(a, 0) + vgetq_lane_u64(a, 1);
}

void nh_neon(const uint32_t *key, const uint8_t *message, size_t message_len,
	     uint8_t *hash)
{
	uint64x2_t a0 = vdupq_n_u64(0), a1 = a0, a2 = a0, a3 = a0;
	uint32x4_t k0 = vld1q_u32(key), k1 = vld1q_u32(key + 4), k2 = vld1q_u32(key + 8);
	size_t units = message_len / 16;
	uint64_t sums[4];

	/*
	 * k0..k2 hold the key words of passes 0-2 of the current unit; each
	 * unit loads only the one its pass 3 needs, so nothing past the
	 * last word the message uses is read.
	 */
	key += 12;
	while (units >= 4) {
		uint32x4_t m0 = vreinterpretq_u32_u8(vld1q_u8(message));
		uint32x4_t m1 = vreinterpretq_u32_u8(vld1q_u8(message + 16));
		uint32x4_t m2 = vreinterpretq_u32_u8(vld1q_u8(message + 32));
		uint32x4_t m3 = vreinterpretq_u32_u8(vld1q_u8(message + 48));
		uint32x4_t k3 = vld1q_u32(key), k4 = vld1q_u32(key + 4);
		uint32x4_t k5 = vld1q_u32(key + 8), k6 = vld1q_u32(key + 12);

		/* unit 0: passes use k0..k3; unit 1: k1..k4; ... unit 3: k3..k6 */
		a0 = nh_unit_pass(a0, m0, k0); a1 = nh_unit_pass(a1, m0, k1);
		a2 = nh_unit_pass(a2, m0, k2); a3 = nh_unit_pass(a3, m0, k3);
		a0 = nh_unit_pass(a0, m1, k1); a1 = nh_unit_pass(a1, m1, k2);
		a2 = nh_unit_pass(a2, m1, k3); a3 = nh_unit_pass(a3, m1, k4);
		a0 = nh_unit_pass(a0, m2, k2); a1 = nh_unit_pass(a1, m2, k3);
		a2 = nh_unit_pass(a2, m2, k4); a3 = nh_unit_pass(a3, m2, k5);
		a0 = nh_unit_pass(a0, m3, k3); a1 = nh_unit_pass(a1, m3, k4);
		a2 = nh_unit_pass(a2, m3, k5); a3 = nh_unit_pass(a3, m3, k6);
		k0 = k4; k1 = k5; k2 = k6;
		key += 16;
		message += 64;
		units -= 4;
	}
	while (units--) {
		uint32x4_t m = vreinterpretq_u32_u8(vld1q_u8(message));
		uint32x4_t k3 = vld1q_u32(key);

		a0 = nh_unit_pass(a0, m, k0); a1 = nh_unit_pass(a1, m, k1);
		a2 = nh_unit_pass(a2, m, k2); a3 = nh_unit_pass(a3, m, k3);
		k0 = k1; k1 = k2; k2 = k3;
		key += 4;
		message += 16;
	}
	sums[0] = lanes_sum(a0);
	sums[1] = lanes_sum(a1);
	sums[2] = lanes_sum(a2);
	sums[3] = lanes_sum(a3);
	/* four little-endian 64-bit sums (arm and arm64 Linux are little-endian) */
	vst1q_u8(hash, vreinterpretq_u8_u64(vld1q_u64(sums)));
	vst1q_u8(hash + 16, vreinterpretq_u8_u64(vld1q_u64(sums + 2)));
}
