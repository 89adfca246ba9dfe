/*
 * ChaCha with four blocks interleaved in AArch64 Advanced SIMD registers:
 * the design of libgcrypt's cipher/chacha20-aarch64.S (the 2020 "higher SIMD
 * interleaving" version: QUARTERROUND4), rewritten here in C intrinsics and
 * adapted to the kernel's conventions.
 *
 * Design: sixteen vectors X0..X15, vector i holding state word i of four
 * consecutive blocks (one block per 32-bit lane; the counter vector gets
 * +0..+3).  A double round is two QUARTERROUND4 steps, the four column
 * quarter-rounds and then the four diagonal ones, each step issuing every
 * operation for all four quarter-rounds back to back (four independent
 * dependency chains per instruction group).  Rotations: 16 by rev32 on
 * halfwords, 8 by a byte table lookup (tbl), 12 and 7 by shl + sri.  After
 * the rounds the input is added back and each group of four vectors is
 * transposed so that every block's words are contiguous for the XOR.
 *
 * Kernel conventions instead of libgcrypt's: the round count is a parameter
 * (12 for XChaCha12, 20); the block counter is the 32-bit word 12 alone,
 * incremented by 32-bit lane adds that wrap without carrying into word 13
 * (libgcrypt carries into word 13); the state is read-only (libgcrypt writes
 * the advanced counter back; here the glue advances it).  As in the seed,
 * only whole groups of four blocks are processed; the glue handles the rest.
 */
#include <arm_neon.h>

#include "chacha_neon4.h"

#define ADD4(a, b) do {                                                  \
	x[a##1] = vaddq_u32(x[a##1], x[b##1]); x[a##2] = vaddq_u32(x[a##2], x[b##2]); \
	x[a##3] = vaddq_u32(x[a##3], x[b##3]); x[a##4] = vaddq_u32(x[a##4], x[b##4]); \
} while (0)

#define XOR4(d, s) do {                                                  \
	t[0] = veorq_u32(x[d##1], x[s##1]); t[1] = veorq_u32(x[d##2], x[s##2]); \
	t[2] = veorq_u32(x[d##3], x[s##3]); t[3] = veorq_u32(x[d##4], x[s##4]); \
} while (0)

#define ROT4(d, how) do {                                                \
	x[d##1] = how(t[0]); x[d##2] = how(t[1]);                        \
	x[d##3] = how(t[2]); x[d##4] = how(t[3]);                        \
} while (0)

#define ROL16(v) vreinterpretq_u32_u16(vrev32q_u16(vreinterpretq_u16_u32(v)))
#define ROL8(v) vreinterpretq_u32_u8(vqtbl1q_u8(vreinterpretq_u8_u32(v), rot8))
#define ROL12(v) vsriq_n_u32(vshlq_n_u32(v, 12), v, 20)
#define ROL7(v) vsriq_n_u32(vshlq_n_u32(v, 7), v, 25)

/* Four quarter-rounds (a_k, b_k, c_k, d_k), k = 1..4, interleaved. */
#define QUARTERROUND4(a1, b1, c1, d1, a2, b2, c2, d2, a3, b3, c3, d3, a4, b4, c4, d4) do { \
	enum { A1 = a1, B1 = b1, C1 = c1, D1 = d1, A2 = a2, B2 = b2, C2 = c2, D2 = d2, \
	       A3 = a3, B3 = b3, C3 = c3, D3 = d3, A4 = a4, B4 = b4, C4 = c4, D4 = d4 }; \
	ADD4(A, B); XOR4(D, A); ROT4(D, ROL16);                          \
	ADD4(C, D); XOR4(B, C); ROT4(B, ROL12);                          \
	ADD4(A, B); XOR4(D, A); ROT4(D, ROL8);                           \
	ADD4(C, D); XOR4(B, C); ROT4(B, ROL7);                           \
} while (0)

static inline void transpose4(uint32x4_t *a, uint32x4_t *b, uint32x4_t *c, uint32x4_t *d)
{
	uint32x4_t t0 = vtrn1q_u32(*a, *b), t1 = vtrn2q_u32(*a, *b);
	uint32x4_t t2 = vtrn1q_u32(*c, *d), t3 = vtrn2q_u32(*c, *d);

#define LO64(p, q) vreinterpretq_u32_u64(vtrn1q_u64(vreinterpretq_u64_u32(p), vreinterpretq_u64_u32(q)))
#define HI64(p, q) vreinterpretq_u32_u64(vtrn2q_u64(vreinterpretq_u64_u32(p), vreinterpretq_u64_u32(q)))
	*a = LO64(t0, t2);
	*b = LO64(t1, t3);
	*c = HI64(t0, t2);
	*d = HI64(t1, t3);
#undef LO64
#undef HI64
}

void chacha_neon4_xor(const uint32_t *state, uint8_t *dst, const uint8_t *src,
		      size_t bytes, unsigned int nrounds)
{
	static const uint8_t rot8_idx[16] = { 3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14 };
	static const uint32_t lane_inc[4] = { 0, 1, 2, 3 };
	const uint8x16_t rot8 = vld1q_u8(rot8_idx);
	uint32x4_t ctr = vaddq_u32(vdupq_n_u32(state[12]), vld1q_u32(lane_inc));
	uint32x4_t x[16], t[4];
	unsigned int i, r;

	/*
	 * Only the sixteen working vectors, the four temporaries, the rotation
	 * table and the counters stay in registers; the input words are
	 * broadcast again from the state for the feed-forward (as the seed
	 * reloads its input block), so nothing spills inside the rounds.
	 */
	for (; bytes >= 256; bytes -= 256, src += 256, dst += 256) {
#pragma GCC unroll 16
		for (i = 0; i < 16; i++)
			x[i] = i == 12 ? ctr : vdupq_n_u32(state[i]);
		for (r = 0; r < nrounds; r += 2) {
			QUARTERROUND4(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
			QUARTERROUND4(0, 5, 10, 15, 1, 6, 11, 12, 2, 7, 8, 13, 3, 4, 9, 14);
		}
#pragma GCC unroll 16
		for (i = 0; i < 16; i++)
			x[i] = vaddq_u32(x[i], i == 12 ? ctr : vdupq_n_u32(state[i]));
#pragma GCC unroll 16
		for (i = 0; i < 16; i += 4)
			transpose4(&x[i], &x[i + 1], &x[i + 2], &x[i + 3]);
		/* now x[4g + b] is words 4g..4g+3 of block b */
#pragma GCC unroll 16
		for (i = 0; i < 16; i++) {
			unsigned int off = 64 * (i & 3) + 16 * (i >> 2);
			uint8x16_t ks = vreinterpretq_u8_u32(x[i]);

			vst1q_u8(dst + off, veorq_u8(vld1q_u8(src + off), ks));
		}
		ctr = vaddq_u32(ctr, vdupq_n_u32(4));	/* 32-bit lanes: wraps, no carry */
	}
}
