/*
 * ChaCha20/XChaCha NEON core for arm64, with the entry points and contracts
 * of arch/arm64/crypto/chacha-neon-core.S in v5.0:
 *
 *   chacha_block_xor_neon   one 64-byte block, state untouched
 *   chacha_4block_xor_neon  five blocks ("4block" is the historical name):
 *                           block 0 in general-purpose registers, blocks 1-4
 *                           in NEON lanes (32-bit counter adds, no carry);
 *                           exactly `bytes` bytes, 64 < bytes <= 320
 *   hchacha_block_neon      HChaCha: words 0-3 and 12-15 of the permutation
 *   chacha_doneon           the v5.0 glue's chacha_doneon loop (kept in the
 *                           core so one walk step is one call to the core)
 *
 * Written with arm_neon.h intrinsics; the layout is this project's own.
 */
#include <arm_neon.h>
#include <stdint.h>
#include <string.h>

#include "chacha_neon.h"

#define CHACHA_BLOCK_SIZE 64

/* Rotations of every 32-bit lane. */
#define ROTL_Q(v, n) vsriq_n_u32(vshlq_n_u32((v), (n)), (v), 32 - (n))
#define ROTL16_Q(v) vreinterpretq_u32_u16(vrev32q_u16(vreinterpretq_u16_u32(v)))

static inline uint32_t rotl32(uint32_t v, int n)
{
	return (v << n) | (v >> (32 - n));
}

/* One quarter round on four vectors: a row layout (one block) or lanes (four blocks). */
#define QROUND_Q(a, b, c, d) do {					\
	a = vaddq_u32(a, b); d = veorq_u32(d, a); d = ROTL16_Q(d);	\
	c = vaddq_u32(c, d); b = veorq_u32(b, c); b = ROTL_Q(b, 12);	\
	a = vaddq_u32(a, b); d = veorq_u32(d, a); d = ROTL_Q(d, 8);	\
	c = vaddq_u32(c, d); b = veorq_u32(b, c); b = ROTL_Q(b, 7);	\
} while (0)

#define QROUND_S(a, b, c, d) do {				\
	a += b; d ^= a; d = rotl32(d, 16);			\
	c += d; b ^= c; b = rotl32(b, 12);			\
	a += b; d ^= a; d = rotl32(d, 8);			\
	c += d; b ^= c; b = rotl32(b, 7);			\
} while (0)

/* The double rounds of one block held as four row vectors. */
static inline void permute_rows(uint32x4_t x[4], int nrounds)
{
	uint32x4_t a = x[0], b = x[1], c = x[2], d = x[3];

	for (int i = 0; i < nrounds; i += 2) {
		QROUND_Q(a, b, c, d);
		b = vextq_u32(b, b, 1);
		c = vextq_u32(c, c, 2);
		d = vextq_u32(d, d, 3);
		QROUND_Q(a, b, c, d);
		b = vextq_u32(b, b, 3);
		c = vextq_u32(c, c, 2);
		d = vextq_u32(d, d, 1);
	}
	x[0] = a; x[1] = b; x[2] = c; x[3] = d;
}

/* The double rounds of one block in general-purpose registers (block 0 of five). */
static void permute_scalar(uint32_t x[16], int nrounds)
{
	for (int i = 0; i < nrounds; i += 2) {
		QROUND_S(x[0], x[4], x[8], x[12]);
		QROUND_S(x[1], x[5], x[9], x[13]);
		QROUND_S(x[2], x[6], x[10], x[14]);
		QROUND_S(x[3], x[7], x[11], x[15]);
		QROUND_S(x[0], x[5], x[10], x[15]);
		QROUND_S(x[1], x[6], x[11], x[12]);
		QROUND_S(x[2], x[7], x[8], x[13]);
		QROUND_S(x[3], x[4], x[9], x[14]);
	}
}

static inline void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}

/* dst[0..n) = src[0..n) ^ ks[0..n): whole vectors, then bytes; nothing past n is touched. */
static void xor_bytes(uint8_t *dst, const uint8_t *src, const uint8_t *ks, int n)
{
	int i = 0;

	for (; i + 16 <= n; i += 16)
		vst1q_u8(dst + i, veorq_u8(vld1q_u8(src + i), vld1q_u8(ks + i)));
	for (; i < n; i++)
		dst[i] = src[i] ^ ks[i];
}

void chacha_block_xor_neon(const uint32_t *state, uint8_t *dst, const uint8_t *src, int nrounds)
{
	uint32x4_t x[4], s[4];

	for (int i = 0; i < 4; i++)
		s[i] = x[i] = vld1q_u32(state + 4 * i);
	permute_rows(x, nrounds);
	for (int i = 0; i < 4; i++) {
		uint8x16_t ks = vreinterpretq_u8_u32(vaddq_u32(x[i], s[i]));

		vst1q_u8(dst + 16 * i, veorq_u8(vld1q_u8(src + 16 * i), ks));
	}
}

void hchacha_block_neon(const uint32_t *state, uint32_t *out, int nrounds)
{
	uint32x4_t x[4];

	for (int i = 0; i < 4; i++)
		x[i] = vld1q_u32(state + 4 * i);
	permute_rows(x, nrounds);
	vst1q_u32(out, x[0]);
	vst1q_u32(out + 4, x[3]);
}

/* Four vectors a..d (lane j = block j) -> per-block groups of four words. */
static inline void transpose4(uint32x4_t *a, uint32x4_t *b, uint32x4_t *c, uint32x4_t *d)
{
	uint64x2_t t0 = vreinterpretq_u64_u32(vtrn1q_u32(*a, *b));
	uint64x2_t t1 = vreinterpretq_u64_u32(vtrn2q_u32(*a, *b));
	uint64x2_t t2 = vreinterpretq_u64_u32(vtrn1q_u32(*c, *d));
	uint64x2_t t3 = vreinterpretq_u64_u32(vtrn2q_u32(*c, *d));

	*a = vreinterpretq_u32_u64(vtrn1q_u64(t0, t2));
	*b = vreinterpretq_u32_u64(vtrn1q_u64(t1, t3));
	*c = vreinterpretq_u32_u64(vtrn2q_u64(t0, t2));
	*d = vreinterpretq_u32_u64(vtrn2q_u64(t1, t3));
}

void chacha_4block_xor_neon(const uint32_t *state, uint8_t *dst, const uint8_t *src, int nrounds,
			    int bytes)
{
	static const uint32_t lane_ctr[4] = { 1, 2, 3, 4 };
	uint8_t ks[5 * CHACHA_BLOCK_SIZE];
	uint32x4_t x[16];
	uint32_t s[16];

	/* block 0, counter + 0: general-purpose registers */
	memcpy(s, state, sizeof(s));
	permute_scalar(s, nrounds);
	for (int i = 0; i < 16; i++)
		put_le32(ks + 4 * i, s[i] + state[i]);

	/* blocks 1-4, counters + 1..4 (32-bit lane adds): one block per lane */
	for (int i = 0; i < 16; i++)
		x[i] = vdupq_n_u32(state[i]);
	x[12] = vaddq_u32(x[12], vld1q_u32(lane_ctr));
	const uint32x4_t ctr = x[12];

	for (int i = 0; i < nrounds; i += 2) {
		QROUND_Q(x[0], x[4], x[8], x[12]);
		QROUND_Q(x[1], x[5], x[9], x[13]);
		QROUND_Q(x[2], x[6], x[10], x[14]);
		QROUND_Q(x[3], x[7], x[11], x[15]);
		QROUND_Q(x[0], x[5], x[10], x[15]);
		QROUND_Q(x[1], x[6], x[11], x[12]);
		QROUND_Q(x[2], x[7], x[8], x[13]);
		QROUND_Q(x[3], x[4], x[9], x[14]);
	}
	for (int i = 0; i < 16; i++)
		x[i] = vaddq_u32(x[i], i == 12 ? ctr : vdupq_n_u32(state[i]));
	for (int g = 0; g < 4; g++) {
		transpose4(&x[4 * g], &x[4 * g + 1], &x[4 * g + 2], &x[4 * g + 3]);
		for (int j = 0; j < 4; j++)
			vst1q_u8(ks + CHACHA_BLOCK_SIZE * (j + 1) + 16 * g, vreinterpretq_u8_u32(x[4 * g + j]));
	}
	xor_bytes(dst, src, ks, bytes);
	memset(ks, 0, sizeof(ks));
	__asm__ __volatile__("" : : "r"(ks) : "memory");
}

void chacha_doneon(uint32_t *state, uint8_t *dst, const uint8_t *src, unsigned int bytes,
		   int nrounds)
{
	uint8_t buf[CHACHA_BLOCK_SIZE];
	int left = (int)bytes;

	while (left > 0) {
		int l = left < 5 * CHACHA_BLOCK_SIZE ? left : 5 * CHACHA_BLOCK_SIZE;

		if (l <= CHACHA_BLOCK_SIZE) {
			/* the last, short piece: bounce through a full block */
			memset(buf, 0, sizeof(buf));
			memcpy(buf, src, (size_t)l);
			chacha_block_xor_neon(state, buf, buf, nrounds);
			memcpy(dst, buf, (size_t)l);
			state[12]++;
			break;
		}
		chacha_4block_xor_neon(state, dst, src, nrounds, l);
		/* v5.0 advances by 320 bytes and 5 blocks even for a short last piece */
		left -= 5 * CHACHA_BLOCK_SIZE;
		src += 5 * CHACHA_BLOCK_SIZE;
		dst += 5 * CHACHA_BLOCK_SIZE;
		state[12] += 5;
	}
	memset(buf, 0, sizeof(buf));
	__asm__ __volatile__("" : : "r"(buf) : "memory");
}
