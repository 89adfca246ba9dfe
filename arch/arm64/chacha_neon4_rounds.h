/*
 * The pieces of the 4-block interleaved AArch64 ChaCha (the seed's
 * QUARTERROUND4 design, see chacha_neon4.c), shared by chacha_neon4.c and
 * the stitched ChaCha20-Poly1305 (chacha20poly1305_neon.c), which issues
 * Poly1305 work between the half rounds.
 *
 * Sixteen vectors x[0..15]: vector i holds state word i of four consecutive
 * blocks, one block per 32-bit lane, the counter vector with +0..+3.  The
 * round macros work on arrays named ``x`` (working vectors) and ``t`` (four
 * temporaries) and a byte table ``rot8`` (chacha4_rot8()) in the caller's
 * scope, so everything stays in registers.
 */
#ifndef CRYPTO_API_ARM64_CHACHA_NEON4_ROUNDS_H
#define CRYPTO_API_ARM64_CHACHA_NEON4_ROUNDS_H

#include <arm_neon.h>
#include <stdint.h>

#define CHACHA4_GROUP 256	/* bytes of one group of four blocks */

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

/* The column half of a double round, then the diagonal half. */
#define CHACHA4_COLUMNS() QUARTERROUND4(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15)
#define CHACHA4_DIAGONALS() QUARTERROUND4(0, 5, 10, 15, 1, 6, 11, 12, 2, 7, 8, 13, 3, 4, 9, 14)

/* The byte table of the rotation by 8 (tbl). */
static inline uint8x16_t chacha4_rot8(void)
{
	static const uint8_t idx[16] = { 3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14 };

	return vld1q_u8(idx);
}

/* The counter vector of the group starting at state[12]: +0..+3 per lane. */
static inline uint32x4_t chacha4_counters(const uint32_t *state)
{
	static const uint32_t lane_inc[4] = { 0, 1, 2, 3 };

	return vaddq_u32(vdupq_n_u32(state[12]), vld1q_u32(lane_inc));
}

/* The next group's counters: 32-bit lane adds, wrapping without carry into word 13. */
static inline uint32x4_t chacha4_next(uint32x4_t ctr)
{
	return vaddq_u32(ctr, vdupq_n_u32(4));
}

/* x = the input of the four blocks (state broadcast, counters in x[12]). */
static inline void chacha4_load(uint32x4_t x[16], const uint32_t *state, uint32x4_t ctr)
{
	unsigned int i;

#pragma GCC unroll 16
	for (i = 0; i < 16; i++)
		x[i] = i == 12 ? ctr : vdupq_n_u32(state[i]);
}

static inline void chacha4_transpose(uint32x4_t *a, uint32x4_t *b, uint32x4_t *c, uint32x4_t *d)
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

/*
 * After the rounds: add the input back (the words broadcast again from the
 * state, as the seed reloads its input block), transpose so that each
 * block's words are contiguous, and dst[0..256) = src[0..256) ^ keystream.
 */
static inline void chacha4_finish_xor(uint32x4_t x[16], const uint32_t *state, uint32x4_t ctr,
				      uint8_t *dst, const uint8_t *src)
{
	unsigned int i;

#pragma GCC unroll 16
	for (i = 0; i < 16; i++)
		x[i] = vaddq_u32(x[i], i == 12 ? ctr : vdupq_n_u32(state[i]));
#pragma GCC unroll 16
	for (i = 0; i < 16; i += 4)
		chacha4_transpose(&x[i], &x[i + 1], &x[i + 2], &x[i + 3]);
	/* now x[4g + b] is words 4g..4g+3 of block b */
#pragma GCC unroll 16
	for (i = 0; i < 16; i++) {
		unsigned int off = 64 * (i & 3) + 16 * (i >> 2);

		vst1q_u8(dst + off, veorq_u8(vld1q_u8(src + off), vreinterpretq_u8_u32(x[i])));
	}
}

#endif
