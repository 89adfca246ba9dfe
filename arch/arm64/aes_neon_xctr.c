/*
 * AES encryption on plain NEON, and XCTR over it: the role of
 * arch/arm64/crypto/aes-neon.S with the XCTR path of aes-modes.S (the
 * aes-neon-blk build of aes-glue.c, 6.0+: the xctr-aes-neon skcipher).
 * Built with -march=armv8-a (no crypto extension); needs HWCAP asimd.
 *
 * The state is the 16 bytes in FIPS-197 order (column after column).
 * SubBytes looks every byte up in the 256-byte S-box held in four
 * 64-byte TBL tables: TBL answers indices 0..63 and zero elsewhere, each
 * TBX after it takes the next 64 with the index lowered by 64 (an index out
 * of its range leaves the lane as it was).  ShiftRows is one TBL
 * permutation.  MixColumns works on the four bytes of each 32-bit lane:
 * with r1/r2/r3 the column rotated by one, two and three bytes,
 * out = 2·(a ^ r1) ^ r1 ^ r2 ^ r3, doubling in GF(2^8) as a shift and a
 * conditional XOR of 0x1b.  No table is indexed by a secret value outside
 * the vector registers (TBL reads all lanes alike).
 */
#include <arm_neon.h>

#include "aes_neon_xctr.h"
#include "aes_sbox.h"
#include "xctr_loop.h"

#define AS_BYTE(s) (s),
static const uint8_t sbox[256] = { AES_SBOX_LIST(AS_BYTE) };

/* Byte i of the result is byte shift_rows_idx[i] of the state. */
static const uint8_t shift_rows_idx[16] = {0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11};
/* Each 32-bit column rotated so that byte r holds the column's byte r + 1. */
static const uint8_t rot1_idx[16] = {1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12};

struct sbox_tables {
	uint8x16x4_t t[4];
};

static inline struct sbox_tables load_sbox(void)
{
	struct sbox_tables s;

	for (int i = 0; i < 4; i++)
		s.t[i] = vld1q_u8_x4(sbox + 64 * i);
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

static inline uint8x16_t mix_columns(uint8x16_t a, uint8x16_t rot1)
{
	uint8x16_t r1 = vqtbl1q_u8(a, rot1);
	uint8x16_t r2 = vreinterpretq_u8_u16(vrev32q_u16(vreinterpretq_u16_u8(a)));
	uint8x16_t r3 = vqtbl1q_u8(r2, rot1);

	return veorq_u8(veorq_u8(gf_double(veorq_u8(a, r1)), r1), veorq_u8(r2, r3));
}

static inline uint8x16_t round_key(const uint32_t *rk, unsigned int i)
{
	return vreinterpretq_u8_u32(vld1q_u32(rk + 4 * i));
}

void aes_neon_encrypt(const uint32_t *rk, uint8_t *out, const uint8_t *in, unsigned int rounds)
{
	const struct sbox_tables s = load_sbox();
	const uint8x16_t shift = vld1q_u8(shift_rows_idx);
	const uint8x16_t rot1 = vld1q_u8(rot1_idx);
	uint8x16_t x = veorq_u8(vld1q_u8(in), round_key(rk, 0));

	for (unsigned int r = 1; r < rounds; r++)
		x = veorq_u8(mix_columns(vqtbl1q_u8(sub_bytes(&s, x), shift), rot1), round_key(rk, r));
	x = veorq_u8(vqtbl1q_u8(sub_bytes(&s, x), shift), round_key(rk, rounds));
	vst1q_u8(out, x);
}

void aes_neon_xctr(const uint32_t *rk, uint8_t *dst, const uint8_t *src, size_t nbytes,
		   const uint8_t *iv, uint32_t byte_ctr, unsigned int rounds)
{
	xctr_loop(aes_neon_encrypt, rk, dst, src, nbytes, iv, byte_ctr, rounds);
}
