/*
 * The round steps of table-lookup AES on plain NEON, shared by the forward
 * cipher (aes_neon_xctr.c) and the inverse one (aes_neon_modes.c): the
 * roles of arch/arm64/crypto/aes-neon.S's S-box lookup and MixColumns.
 * Header-only (static inline).
 *
 * The state is the 16 bytes in FIPS-197 order (column after column).
 * SubBytes looks every byte up in a 256-byte S-box held in four 64-byte TBL
 * tables: TBL answers indices 0..63 and zero elsewhere, each TBX after it
 * takes the next 64 with the index lowered by 64 (an index out of its range
 * leaves the lane as it was).  ShiftRows and its inverse are one TBL
 * permutation each.  MixColumns works on the four bytes of each 32-bit lane:
 * with r1/r2/r3 the column rotated by one, two and three bytes,
 * out = 2·(a ^ r1) ^ r1 ^ r2 ^ r3, doubling in GF(2^8) as a shift and a
 * conditional XOR of 0x1b.  InvMixColumns is MixColumns after adding
 * 4·(a ^ r2) to each column.  No table is indexed by a secret value outside
 * the vector registers (TBL reads all lanes alike).
 */
#ifndef CRYPTO_API_ARM64_AES_NEON_ROUNDS_H
#define CRYPTO_API_ARM64_AES_NEON_ROUNDS_H

#include <arm_neon.h>
#include <stdint.h>

/* Each 32-bit column rotated so that byte r holds the column's byte r + 1. */
static const uint8_t aes_neon_rot1_idx[16] = {1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12};

struct sbox_tables {
	uint8x16x4_t t[4];
};

static inline struct sbox_tables load_sbox(const uint8_t *table)
{
	struct sbox_tables s;

	for (int i = 0; i < 4; i++)
		s.t[i] = vld1q_u8_x4(table + 64 * i);
	return s;
}

static inline uint8x16_t sub_bytes(const struct sbox_tables *s, uint8x16_t x)
{
	const uint8x16_t step = vdupq_n_u8(64);
	uint8x16_t out = vqtbl4q_u8(s->t[0], x);

	x = vsubq_u8(x, step);
	out = vqtbx4q_u8(out, s->t[1], x);
	x = vsubq_u8(x, step);
	out = vqtbx4q_u8(out, s->t[2], x);
	x = vsubq_u8(x, step);
	return vqtbx4q_u8(out, s->t[3], x);
}

static inline uint8x16_t gf_double(uint8x16_t x)
{
	/* 0xff in the lanes whose top bit is set, then 0x1b there */
	uint8x16_t carry = vreinterpretq_u8_s8(vshrq_n_s8(vreinterpretq_s8_u8(x), 7));

	return veorq_u8(vshlq_n_u8(x, 1), vandq_u8(carry, vdupq_n_u8(0x1b)));
}

/* Each column rotated by two bytes (the 16-bit halves of each 32-bit lane swapped). */
static inline uint8x16_t rot2(uint8x16_t a)
{
	return vreinterpretq_u8_u16(vrev32q_u16(vreinterpretq_u16_u8(a)));
}

static inline uint8x16_t mix_columns(uint8x16_t a, uint8x16_t rot1)
{
	uint8x16_t r1 = vqtbl1q_u8(a, rot1);
	uint8x16_t r2 = rot2(a);
	uint8x16_t r3 = vqtbl1q_u8(r2, rot1);

	return veorq_u8(veorq_u8(gf_double(veorq_u8(a, r1)), r1), veorq_u8(r2, r3));
}

static inline uint8x16_t inv_mix_columns(uint8x16_t a, uint8x16_t rot1)
{
	return mix_columns(veorq_u8(a, gf_double(gf_double(veorq_u8(a, rot2(a))))), rot1);
}

static inline uint8x16_t round_key(const uint32_t *rk, unsigned int i)
{
	return vreinterpretq_u8_u32(vld1q_u32(rk + 4 * i));
}

/*
 * One block through the cipher (inverse: the equivalent inverse cipher on
 * key_dec): table is the S-box or its inverse, shift_idx the ShiftRows
 * permutation or its inverse (SubBytes and ShiftRows commute, so both
 * directions take the same shape).
 */
static inline void aes_neon_cipher(const uint8_t *table, const uint8_t *shift_idx, int inverse,
				   const uint32_t *rk, uint8_t *out, const uint8_t *in, unsigned int rounds)
{
	const struct sbox_tables s = load_sbox(table);
	const uint8x16_t shift = vld1q_u8(shift_idx);
	const uint8x16_t rot1 = vld1q_u8(aes_neon_rot1_idx);
	uint8x16_t x = veorq_u8(vld1q_u8(in), round_key(rk, 0));

	for (unsigned int r = 1; r < rounds; r++) {
		x = vqtbl1q_u8(sub_bytes(&s, x), shift);
		x = veorq_u8(inverse ? inv_mix_columns(x, rot1) : mix_columns(x, rot1), round_key(rk, r));
	}
	x = veorq_u8(vqtbl1q_u8(sub_bytes(&s, x), shift), round_key(rk, rounds));
	vst1q_u8(out, x);
}

#endif
