/*
 * ChaCha20/XChaCha NEON core for 32-bit ARMv7, with the entry points and
 * contracts of arch/arm/crypto/chacha-neon-core.S in v5.0:
 *
 *   chacha_block_xor_neon   one 64-byte block, state untouched
 *   chacha_4block_xor_neon  exactly four blocks (256 bytes), counters +0..+3
 *                           as 32-bit lane adds (no carry into word 13),
 *                           state untouched
 *   hchacha_block_neon      HChaCha: words 0-3 and 12-15 of the permutation
 *   chacha_doneon           the v5.0 arm glue's chacha_doneon loop: 4-block
 *                           calls per 256 bytes, 1-block calls per 64, a
 *                           last partial block bounced through a buffer
 *
 * armv7 NEON (arm_neon.h) only: 32-bit lane rotations as shift + shift-
 * right-insert (vrev32 for 16), vtrn/vcombine transposes, no AArch64-only
 * intrinsic.
 */
#include <arm_neon.h>
#include <stdint.h>
#include <string.h>

#include "chacha_neon.h"

#define BLOCK 64

#define ROL(v, n) vsriq_n_u32(vshlq_n_u32((v), (n)), (v), 32 - (n))
#define ROL16(v) vreinterpretq_u32_u16(vrev32q_u16(vreinterpretq_u16_u32(v)))

#define QR(a, b, c, d) do {						\
	a = vaddq_u32(a, b); d = ROL16(veorq_u32(d, a));		\
	c = vaddq_u32(c, d); b = ROL(veorq_u32(b, c), 12);		\
	a = vaddq_u32(a, b); d = ROL(veorq_u32(d, a), 8);		\
	c = vaddq_u32(c, d); b = ROL(veorq_u32(b, c), 7);		\
} while (0)

/* One block as four row vectors: column round, rotate rows to diagonals, round, rotate back. */
static void rows_permute(uint32x4_t r[4], int nrounds)
{
	uint32x4_t a = r[0], b = r[1], c = r[2], d = r[3];

	for (int i = 0; i < nrounds; i += 2) {
		QR(a, b, c, d);
		b = vextq_u32(b, b, 1); c = vextq_u32(c, c, 2); d = vextq_u32(d, d, 3);
		QR(a, b, c, d);
		b = vextq_u32(b, b, 3); c = vextq_u32(c, c, 2); d = vextq_u32(d, d, 1);
	}
	r[0] = a; r[1] = b; r[2] = c; r[3] = d;
}

void chacha_block_xor_neon(const uint32_t *state, uint8_t *dst, const uint8_t *src, int nrounds)
{
	uint32x4_t r[4];

	for (int i = 0; i < 4; i++)
		r[i] = vld1q_u32(state + 4 * i);
	rows_permute(r, nrounds);
	for (int i = 0; i < 4; i++) {
		uint32x4_t ks = vaddq_u32(r[i], vld1q_u32(state + 4 * i));

		vst1q_u8(dst + 16 * i, veorq_u8(vld1q_u8(src + 16 * i), vreinterpretq_u8_u32(ks)));
	}
}

void hchacha_block_neon(const uint32_t *state, uint32_t *out, int nrounds)
{
	uint32x4_t r[4];

	for (int i = 0; i < 4; i++)
		r[i] = vld1q_u32(state + 4 * i);
	rows_permute(r, nrounds);
	vst1q_u32(out, r[0]);
	vst1q_u32(out + 4, r[3]);
}

/* Lane j of w[0..3] is word (4g + k) of block j: XOR each block's 16 bytes at offset 16g. */
static void xor_group(uint8_t *dst, const uint8_t *src, const uint32x4_t w[4], int g)
{
	uint32x4x2_t t01 = vtrnq_u32(w[0], w[1]);
	uint32x4x2_t t23 = vtrnq_u32(w[2], w[3]);
	uint32x4_t blk[4] = {
		vcombine_u32(vget_low_u32(t01.val[0]), vget_low_u32(t23.val[0])),
		vcombine_u32(vget_low_u32(t01.val[1]), vget_low_u32(t23.val[1])),
		vcombine_u32(vget_high_u32(t01.val[0]), vget_high_u32(t23.val[0])),
		vcombine_u32(vget_high_u32(t01.val[1]), vget_high_u32(t23.val[1])),
	};

	for (int j = 0; j < 4; j++) {
		int off = BLOCK * j + 16 * g;

		vst1q_u8(dst + off, veorq_u8(vld1q_u8(src + off), vreinterpretq_u8_u32(blk[j])));
	}
}

void chacha_4block_xor_neon(const uint32_t *state, uint8_t *dst, const uint8_t *src, int nrounds)
{
	static const uint32_t lanes[4] = { 0, 1, 2, 3 };
	uint32x4_t x[16];

	for (int i = 0; i < 16; i++)
		x[i] = vdupq_n_u32(state[i]);
	x[12] = vaddq_u32(x[12], vld1q_u32(lanes));
	const uint32x4_t ctr = x[12];

	for (int i = 0; i < nrounds; i += 2) {
		QR(x[0], x[4], x[8], x[12]);
		QR(x[1], x[5], x[9], x[13]);
		QR(x[2], x[6], x[10], x[14]);
		QR(x[3], x[7], x[11], x[15]);
		QR(x[0], x[5], x[10], x[15]);
		QR(x[1], x[6], x[11], x[12]);
		QR(x[2], x[7], x[8], x[13]);
		QR(x[3], x[4], x[9], x[14]);
	}
	for (int i = 0; i < 16; i++)
		x[i] = vaddq_u32(x[i], i == 12 ? ctr : vdupq_n_u32(state[i]));
	for (int g = 0; g < 4; g++)
		xor_group(dst, src, &x[4 * g], g);
}

void chacha_doneon(uint32_t *state, uint8_t *dst, const uint8_t *src, unsigned int bytes,
		   int nrounds)
{
	uint8_t buf[BLOCK];

	while (bytes >= 4 * BLOCK) {
		chacha_4block_xor_neon(state, dst, src, nrounds);
		bytes -= 4 * BLOCK; src += 4 * BLOCK; dst += 4 * BLOCK;
		state[12] += 4;
	}
	while (bytes >= BLOCK) {
		chacha_block_xor_neon(state, dst, src, nrounds);
		bytes -= BLOCK; src += BLOCK; dst += BLOCK;
		state[12]++;
	}
	if (bytes) {
		/* the last piece: no counter update (v5.0), the state dies with the request */
		memcpy(buf, src, bytes);
		chacha_block_xor_neon(state, buf, buf, nrounds);
		memcpy(dst, buf, bytes);
		memset(buf, 0, sizeof(buf));
		__asm__ __volatile__("" : : "r"(buf) : "memory");
	}
}
