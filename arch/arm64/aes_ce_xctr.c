/*
 * XCTR (HCTR2's counter mode) on the AES-CE block routine: the role of the
 * XCTR path of arch/arm64/crypto/aes-modes.S built with aes-ce.S (6.0+,
 * the xctr-aes-ce skcipher).  Built with -march=armv8-a+crypto; only run on
 * a CPU whose HWCAP has "aes".
 *
 * Block i of the request (from 1) is the IV with the little-endian block
 * number XOR-ed into its first 32 bits, encrypted with aes_ce_encrypt
 * (aes_ce.c); the keystream is XOR-ed in with NEON, a partial last block
 * byte by byte.
 */
#include <arm_neon.h>

#include "aes_arm64.h"
#include "aes_ce_xctr.h"

void aes_ce_xctr(const uint32_t *rk, uint8_t *dst, const uint8_t *src, size_t nbytes,
		 const uint8_t *iv, uint32_t byte_ctr, unsigned int rounds)
{
	const uint32x4_t base = vreinterpretq_u32_u8(vld1q_u8(iv));
	uint32_t ctr = byte_ctr / 16;
	uint8_t in[16], ks[16];

	while (nbytes) {
		size_t n = nbytes < 16 ? nbytes : 16;
		/* lane 0 is the IV's first four bytes read little endian */
		uint32x4_t blk = veorq_u32(base, vsetq_lane_u32(++ctr, vdupq_n_u32(0), 0));

		vst1q_u8(in, vreinterpretq_u8_u32(blk));
		aes_ce_encrypt(rk, ks, in, rounds);
		if (n == 16) {
			vst1q_u8(dst, veorq_u8(vld1q_u8(src), vld1q_u8(ks)));
		} else {
			for (size_t i = 0; i < n; i++)
				dst[i] = src[i] ^ ks[i];
		}
		src += n;
		dst += n;
		nbytes -= n;
	}
	vst1q_u8(ks, vdupq_n_u8(0));
}
