/*
 * AES with the ARMv8 Crypto Extensions, one block per call: the role of
 * arch/arm64/crypto/aes-ce-core.S and the key expansion of aes-ce-glue.c
 * (arm64's aes-ce cipher), and the block rounds under arm's aes-ce modes
 * (arch/arm/aes_ce_modes.c).  ACLE intrinsics only, so both machines build
 * it: arm64 with -march=armv8-a+crypto, arm (AArch32) with
 * -mfpu=crypto-neon-fp-armv8; only run on a CPU whose HWCAP (arm: HWCAP2)
 * has "aes" (elsewhere AESE raises SIGILL).
 *
 * AESE is AddRoundKey + ShiftRows + SubBytes, AESMC MixColumns; AESD and
 * AESIMC their inverses, so decryption runs the equivalent inverse cipher on
 * key_dec.  The key expansion gets SubWord from AESE with a zero round key
 * on a vector whose four columns all hold the word (ShiftRows then changes
 * nothing).  Round keys are stored in the generic layout (little-endian
 * column words, algs/aes_generic.h), so either schedule works with either
 * core.
 */
#include <arm_neon.h>
#include <stdint.h>
#include <string.h>

#include "aes_arm64.h"
#include "byteorder.h"

static inline uint8x16_t load_rk(const uint32_t *rk)
{
	return vreinterpretq_u8_u32(vld1q_u32(rk));
}

void aes_ce_encrypt(const uint32_t *rk, uint8_t *out, const uint8_t *in, unsigned int rounds)
{
	uint8x16_t s = vld1q_u8(in);
	unsigned int r;

	for (r = 0; r + 1 < rounds; r++)
		s = vaesmcq_u8(vaeseq_u8(s, load_rk(rk + 4 * r)));
	s = vaeseq_u8(s, load_rk(rk + 4 * r));
	vst1q_u8(out, veorq_u8(s, load_rk(rk + 4 * rounds)));
}

void aes_ce_decrypt(const uint32_t *rk, uint8_t *out, const uint8_t *in, unsigned int rounds)
{
	uint8x16_t s = vld1q_u8(in);
	unsigned int r;

	for (r = 0; r + 1 < rounds; r++)
		s = vaesimcq_u8(vaesdq_u8(s, load_rk(rk + 4 * r)));
	s = vaesdq_u8(s, load_rk(rk + 4 * r));
	vst1q_u8(out, veorq_u8(s, load_rk(rk + 4 * rounds)));
}

static uint32_t sub_word(uint32_t w)
{
	uint8x16_t v = vaeseq_u8(vreinterpretq_u8_u32(vdupq_n_u32(w)), vdupq_n_u8(0));

	return vgetq_lane_u32(vreinterpretq_u32_u8(v), 0);
}

int aes_ce_expandkey(uint32_t *key_enc, uint32_t *key_dec, const uint8_t *in_key,
		     unsigned int key_len)
{
	unsigned int nk = key_len / 4, rounds = 6 + nk, total = 4 * (rounds + 1), i;
	uint32_t rcon = 1;

	if (key_len != 16 && key_len != 24 && key_len != 32)
		return -22;
	for (i = 0; i < nk; i++)
		key_enc[i] = get_le32(in_key + 4 * i);
	for (i = nk; i < total; i++) {
		uint32_t t = key_enc[i - 1];

		if (i % nk == 0) {
			t = sub_word((t >> 8) | (t << 24)) ^ rcon;	/* RotWord, SubWord */
			rcon = (rcon << 1) ^ ((rcon & 0x80) ? 0x11b : 0);
		} else if (nk == 8 && i % 8 == 4) {
			t = sub_word(t);
		}
		key_enc[i] = key_enc[i - nk] ^ t;
	}
	/* equivalent inverse cipher: reversed order, InvMixColumns inside */
	memcpy(key_dec, key_enc + 4 * rounds, 16);
	for (i = 1; i < rounds; i++)
		vst1q_u32(key_dec + 4 * i, vreinterpretq_u32_u8(vaesimcq_u8(load_rk(key_enc + 4 * (rounds - i)))));
	memcpy(key_dec + 4 * rounds, key_enc, 16);
	return 0;
}
