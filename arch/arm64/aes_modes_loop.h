/*
 * The block-mode loops both arm64 aes-glue.c builds run (aes_ce_modes.c,
 * aes_neon_modes.c): the roles of arch/arm64/crypto/aes-modes.S's ECB, CBC,
 * CBC-CTS tail, CTR, XTS and ESSIV-CBC paths, over whichever one-block AES
 * routines the core passes.  Header-only (static inline), so each core
 * inlines its own block routines; AES_BLK_MODES(prefix, enc, dec) defines
 * the six exported functions of one core (prototypes in its header).
 *
 * Conventions of the exported functions: rk is the schedule the direction
 * needs (key_enc to encrypt, key_dec to decrypt, both in the layout of
 * struct crypto_aes_ctx); rounds is 10, 12 or 14; dec is 0 to encrypt.
 *
 * - ecb / cbc / essiv_cbc: nbytes is a multiple of 16.  cbc leaves the
 *   chaining value (the last ciphertext block) in iv.  essiv_cbc first
 *   replaces iv by its encryption under rk2 (the ESSIV key's key_enc, an
 *   AES-256 schedule whatever the data key's size), then runs cbc.
 * - cts: the last 17..32 bytes of a CBC-CS3 message (the part after the plain
 *   CBC blocks): the final full block and the partial one swapped, iv is the
 *   chaining value before them and is not changed.
 * - ctr: any length; the 128-bit big-endian counter in ctr is incremented
 *   once per block (a partial last block included) and left for the next call.
 * - xts: nbytes of at least 16; bit 0 of flags: decrypt, bit 1: first call
 *   of a request (iv is then the sector tweak, encrypted under rk2 here;
 *   otherwise iv already holds the running tweak).  A length that is not a
 *   multiple of 16 ends with ciphertext stealing (IEEE 1619) over its last
 *   full and partial blocks.  The next tweak is left in iv.
 */
#ifndef CRYPTO_API_ARM64_AES_MODES_LOOP_H
#define CRYPTO_API_ARM64_AES_MODES_LOOP_H

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "xctr_loop.h"		/* keystream_xor */

typedef void (*aes_block_fn)(const uint32_t *rk, uint8_t *out, const uint8_t *in, unsigned int rounds);

#define AES_MODE_BLOCK 16
#define AES_XTS_DECRYPT 1
#define AES_XTS_FIRST 2
/* the ESSIV key is a SHA-256 digest: always AES-256 */
#define AES_ESSIV_ROUNDS 14

static inline uint8x16_t aes_mode_run(aes_block_fn fn, const uint32_t *rk, uint8x16_t x, unsigned int rounds)
{
	uint8_t buf[AES_MODE_BLOCK];

	vst1q_u8(buf, x);
	fn(rk, buf, buf, rounds);
	x = vld1q_u8(buf);
	vst1q_u8(buf, vdupq_n_u8(0));
	return x;
}

static inline void aes_ecb_loop(aes_block_fn fn, const uint32_t *rk, uint8_t *dst, const uint8_t *src,
				size_t nbytes, unsigned int rounds)
{
	for (; nbytes >= AES_MODE_BLOCK; nbytes -= AES_MODE_BLOCK, src += AES_MODE_BLOCK, dst += AES_MODE_BLOCK)
		fn(rk, dst, src, rounds);
}

static inline void aes_cbc_loop(aes_block_fn fn, const uint32_t *rk, uint8_t *dst, const uint8_t *src,
				size_t nbytes, uint8_t *iv, unsigned int rounds, int dec)
{
	uint8x16_t chain = vld1q_u8(iv);

	for (; nbytes >= AES_MODE_BLOCK; nbytes -= AES_MODE_BLOCK, src += AES_MODE_BLOCK, dst += AES_MODE_BLOCK) {
		uint8x16_t in = vld1q_u8(src);

		if (dec) {
			vst1q_u8(dst, veorq_u8(aes_mode_run(fn, rk, in, rounds), chain));
			chain = in;
		} else {
			chain = aes_mode_run(fn, rk, veorq_u8(in, chain), rounds);
			vst1q_u8(dst, chain);
		}
	}
	vst1q_u8(iv, chain);
}

/* CS3 over the final 16 + d bytes (0 < d <= 16), chaining value iv. */
static inline void aes_cts_tail(aes_block_fn fn, const uint32_t *rk, uint8_t *dst, const uint8_t *src,
				size_t nbytes, const uint8_t *iv, unsigned int rounds, int dec)
{
	size_t d = nbytes - AES_MODE_BLOCK;
	uint8_t a[AES_MODE_BLOCK], b[AES_MODE_BLOCK];

	if (!dec) {
		/* a: the second-to-last block's CBC output; b: the padded last block chained on it */
		vst1q_u8(a, aes_mode_run(fn, rk, veorq_u8(vld1q_u8(src), vld1q_u8(iv)), rounds));
		memset(b, 0, sizeof(b));
		memcpy(b, src + AES_MODE_BLOCK, d);
		vst1q_u8(dst, aes_mode_run(fn, rk, veorq_u8(vld1q_u8(b), vld1q_u8(a)), rounds));
		memcpy(dst + AES_MODE_BLOCK, a, d);
	} else {
		/* a: the first stored block decrypted (last plaintext XOR the stolen ciphertext) */
		vst1q_u8(a, aes_mode_run(fn, rk, vld1q_u8(src), rounds));
		memcpy(b, a, sizeof(b));
		memcpy(b, src + AES_MODE_BLOCK, d);
		for (size_t i = 0; i < d; i++)
			a[i] ^= src[AES_MODE_BLOCK + i];
		vst1q_u8(dst, veorq_u8(aes_mode_run(fn, rk, vld1q_u8(b), rounds), vld1q_u8(iv)));
		memcpy(dst + AES_MODE_BLOCK, a, d);
	}
	vst1q_u8(a, vdupq_n_u8(0));
	vst1q_u8(b, vdupq_n_u8(0));
}

static inline void aes_ctr_inc(uint8_t *ctr)
{
	for (int i = AES_MODE_BLOCK - 1; i >= 0; i--)
		if (++ctr[i])
			break;
}

static inline void aes_ctr_loop(aes_block_fn fn, const uint32_t *rk, uint8_t *dst, const uint8_t *src,
				size_t nbytes, uint8_t *ctr, unsigned int rounds)
{
	uint8_t ks[AES_MODE_BLOCK];

	while (nbytes) {
		size_t n = nbytes < AES_MODE_BLOCK ? nbytes : AES_MODE_BLOCK;

		fn(rk, ks, ctr, rounds);
		aes_ctr_inc(ctr);
		keystream_xor(dst, src, ks, n);
		src += n;
		dst += n;
		nbytes -= n;
	}
	vst1q_u8(ks, vdupq_n_u8(0));
}

/* The tweak times x in GF(2^128), little-endian bit order (IEEE 1619). */
static inline uint8x16_t aes_xts_mul_x(uint8x16_t t)
{
	uint64x2_t v = vreinterpretq_u64_u8(t);
	uint64_t lo = vgetq_lane_u64(v, 0), hi = vgetq_lane_u64(v, 1);
	uint64_t carry = hi >> 63;

	hi = (hi << 1) | (lo >> 63);
	lo = (lo << 1) ^ (carry * 0x87);
	return vreinterpretq_u8_u64(vcombine_u64(vcreate_u64(lo), vcreate_u64(hi)));
}

static inline uint8x16_t aes_xts_one(aes_block_fn fn, const uint32_t *rk, uint8x16_t in, uint8x16_t t,
				     unsigned int rounds)
{
	return veorq_u8(aes_mode_run(fn, rk, veorq_u8(in, t), rounds), t);
}

static inline void aes_xts_loop(aes_block_fn fn, aes_block_fn tweak_fn, const uint32_t *rk1,
				const uint32_t *rk2, uint8_t *dst, const uint8_t *src, size_t nbytes,
				uint8_t *iv, unsigned int rounds, int flags)
{
	size_t tail = nbytes % AES_MODE_BLOCK;
	size_t whole = nbytes / AES_MODE_BLOCK - (tail ? 1 : 0);
	uint8x16_t t = vld1q_u8(iv);
	uint8_t a[AES_MODE_BLOCK];

	if (flags & AES_XTS_FIRST)
		t = aes_mode_run(tweak_fn, rk2, t, rounds);
	for (; whole; whole--, src += AES_MODE_BLOCK, dst += AES_MODE_BLOCK) {
		vst1q_u8(dst, aes_xts_one(fn, rk1, vld1q_u8(src), t, rounds));
		t = aes_xts_mul_x(t);
	}
	if (tail) {
		/* the last full block and the partial one: the decryption takes their tweaks swapped */
		uint8x16_t t_next = aes_xts_mul_x(t);
		uint8x16_t first = (flags & AES_XTS_DECRYPT) ? t_next : t;
		uint8x16_t second = (flags & AES_XTS_DECRYPT) ? t : t_next;

		vst1q_u8(a, aes_xts_one(fn, rk1, vld1q_u8(src), first, rounds));
		for (size_t i = 0; i < tail; i++) {
			uint8_t stolen = a[i];

			a[i] = src[AES_MODE_BLOCK + i];
			dst[AES_MODE_BLOCK + i] = stolen;
		}
		vst1q_u8(dst, aes_xts_one(fn, rk1, vld1q_u8(a), second, rounds));
		t = aes_xts_mul_x(t_next);
		vst1q_u8(a, vdupq_n_u8(0));
	}
	vst1q_u8(iv, t);
}

/* The six exported functions of one core, over its block routines enc and dec. */
#define AES_BLK_MODES(prefix, enc, dec)								\
void prefix##_ecb(const uint32_t *rk, uint8_t *dst, const uint8_t *src, size_t nbytes,		\
		  unsigned int rounds, int decrypt)						\
{												\
	aes_ecb_loop(decrypt ? dec : enc, rk, dst, src, nbytes, rounds);			\
}												\
void prefix##_cbc(const uint32_t *rk, uint8_t *dst, const uint8_t *src, size_t nbytes,		\
		  uint8_t *iv, unsigned int rounds, int decrypt)				\
{												\
	aes_cbc_loop(decrypt ? dec : enc, rk, dst, src, nbytes, iv, rounds, decrypt);		\
}												\
void prefix##_cts(const uint32_t *rk, uint8_t *dst, const uint8_t *src, size_t nbytes,		\
		  const uint8_t *iv, unsigned int rounds, int decrypt)				\
{												\
	aes_cts_tail(decrypt ? dec : enc, rk, dst, src, nbytes, iv, rounds, decrypt);		\
}												\
void prefix##_ctr(const uint32_t *rk, uint8_t *dst, const uint8_t *src, size_t nbytes,		\
		  uint8_t *ctr, unsigned int rounds)						\
{												\
	aes_ctr_loop(enc, rk, dst, src, nbytes, ctr, rounds);					\
}												\
void prefix##_xts(const uint32_t *rk1, const uint32_t *rk2, uint8_t *dst, const uint8_t *src,	\
		  size_t nbytes, uint8_t *iv, unsigned int rounds, int flags)			\
{												\
	aes_xts_loop((flags & AES_XTS_DECRYPT) ? dec : enc, enc, rk1, rk2, dst, src, nbytes,	\
		     iv, rounds, flags);							\
}												\
void prefix##_essiv_cbc(const uint32_t *rk1, const uint32_t *rk2, uint8_t *dst,		\
			const uint8_t *src, size_t nbytes, uint8_t *iv, unsigned int rounds,	\
			int decrypt)								\
{												\
	vst1q_u8(iv, aes_mode_run(enc, rk2, vld1q_u8(iv), AES_ESSIV_ROUNDS));			\
	aes_cbc_loop(decrypt ? dec : enc, rk1, dst, src, nbytes, iv, rounds, decrypt);		\
}

#endif
