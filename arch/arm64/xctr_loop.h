/*
 * The XCTR loop both arm64 XCTR cores run (aes_ce_xctr.c, aes_neon_xctr.c):
 * the counter-and-XOR part of arch/arm64/crypto/aes-modes.S's XCTR path,
 * over whichever one-block AES routine the core passes.  Header-only
 * (static inline), so each core inlines its own block routine.
 *
 * Keystream block i of the request (from 1) is AES of the IV with the
 * little-endian block number XOR-ed into its first 32 bits; it is XOR-ed
 * into the text with NEON, a partial last block byte by byte.  byte_ctr is
 * the bytes of the request done before this call (a multiple of 16).
 */
#ifndef CRYPTO_API_ARM64_XCTR_LOOP_H
#define CRYPTO_API_ARM64_XCTR_LOOP_H

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>

/* n (at most 16) bytes of src XOR-ed with the keystream block ks into dst. */
static inline void keystream_xor(uint8_t *dst, const uint8_t *src, const uint8_t *ks, size_t n)
{
	if (n == 16) {
		vst1q_u8(dst, veorq_u8(vld1q_u8(src), vld1q_u8(ks)));
	} else {
		for (size_t i = 0; i < n; i++)
			dst[i] = src[i] ^ ks[i];
	}
}

typedef void (*xctr_block_fn)(const uint32_t *rk, uint8_t *out, const uint8_t *in, unsigned int rounds);

static inline void xctr_loop(xctr_block_fn block, const uint32_t *rk, uint8_t *dst, const uint8_t *src,
			     size_t nbytes, const uint8_t *iv, uint32_t byte_ctr, unsigned int rounds)
{
	const uint32x4_t base = vreinterpretq_u32_u8(vld1q_u8(iv));
	uint32_t ctr = byte_ctr / 16;
	uint8_t in[16], ks[16];

	while (nbytes) {
		size_t n = nbytes < 16 ? nbytes : 16;
		/* lane 0 is the IV's first four bytes read little endian */
		uint32x4_t blk = veorq_u32(base, vsetq_lane_u32(++ctr, vdupq_n_u32(0), 0));

		vst1q_u8(in, vreinterpretq_u8_u32(blk));
		block(rk, ks, in, rounds);
		keystream_xor(dst, src, ks, n);
		src += n;
		dst += n;
		nbytes -= n;
	}
	vst1q_u8(ks, vdupq_n_u8(0));
}

#endif
