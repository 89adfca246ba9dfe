/*
 * Block-cipher mode loops over a one-block AES routine, for the cores of the
 * emulated machines whose kernel drivers run ECB, CBC, CBC-CTS, CTR, XTS and
 * ESSIV-CBC in assembly around their own AES rounds: arm's
 * arch/arm/crypto/aes-ce-core.S (core arch/arm/aes_ce_modes.c) and the two
 * builds of arm64's arch/arm64/crypto/aes-modes.S (arch/arm64/aes_ce_modes.c
 * and aes_neon_modes.c, through arch/arm64/aes_blk_entries.h).  Header-only
 * (static inline): each core passes its own block routines, which the
 * compiler inlines.  Plain C, no vector types, so any machine can build it.
 *
 * A block routine encrypts or decrypts one 16-byte block with the round
 * keys rk (struct crypto_aes_ctx's key_enc or key_dec layout) and the
 * round count; out may equal in.  dst may equal src in every loop.
 * Temporaries are wiped with memzero.h's routine.
 */
#ifndef CRYPTO_API_COMMON_AES_MODES_H
#define CRYPTO_API_COMMON_AES_MODES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "memzero.h"

typedef void (*aes_modes_block_fn)(const uint32_t *rk, uint8_t *out, const uint8_t *in, unsigned int rounds);

#define AES_MODES_BLOCK 16

static inline void aes_modes_xor(uint8_t *dst, const uint8_t *a, const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] = a[i] ^ b[i];
}

/* ECB over whole blocks. */
static inline void aes_ecb_loop(aes_modes_block_fn block, const uint32_t *rk, uint8_t *dst, const uint8_t *src,
				size_t blocks, unsigned int rounds)
{
	for (; blocks; blocks--, src += AES_MODES_BLOCK, dst += AES_MODES_BLOCK)
		block(rk, dst, src, rounds);
}

/* CBC encryption over whole blocks; iv becomes the last ciphertext block. */
static inline void aes_cbc_enc_loop(aes_modes_block_fn enc, const uint32_t *rk, uint8_t *dst, const uint8_t *src,
				    size_t blocks, uint8_t *iv, unsigned int rounds)
{
	for (; blocks; blocks--, src += AES_MODES_BLOCK, dst += AES_MODES_BLOCK) {
		aes_modes_xor(iv, iv, src, AES_MODES_BLOCK);
		enc(rk, iv, iv, rounds);
		memcpy(dst, iv, AES_MODES_BLOCK);
	}
}

/* CBC decryption over whole blocks; iv becomes the last ciphertext block. */
static inline void aes_cbc_dec_loop(aes_modes_block_fn dec, const uint32_t *rk, uint8_t *dst, const uint8_t *src,
				    size_t blocks, uint8_t *iv, unsigned int rounds)
{
	uint8_t c[AES_MODES_BLOCK], p[AES_MODES_BLOCK];

	for (; blocks; blocks--, src += AES_MODES_BLOCK, dst += AES_MODES_BLOCK) {
		memcpy(c, src, AES_MODES_BLOCK);
		dec(rk, p, c, rounds);
		aes_modes_xor(dst, p, iv, AES_MODES_BLOCK);
		memcpy(iv, c, AES_MODES_BLOCK);
	}
	memzero_explicit(p, sizeof(p));
}

/* CBC in the direction encrypt says; crypt is that direction's routine on rk. */
static inline void aes_cbc_loop(aes_modes_block_fn crypt, const uint32_t *rk, uint8_t *dst, const uint8_t *src,
				size_t blocks, uint8_t *iv, unsigned int rounds, int encrypt)
{
	if (encrypt)
		aes_cbc_enc_loop(crypt, rk, dst, src, blocks, iv, rounds);
	else
		aes_cbc_dec_loop(crypt, rk, dst, src, blocks, iv, rounds);
}

/* The ESSIV key is a SHA-256 digest: an AES-256 key whatever the data key's size. */
#define AES_MODES_ESSIV_ROUNDS 14

/*
 * ESSIV-CBC, the first part of a request: iv (the request's IV) is first
 * replaced by its encryption with enc under rk2 (the ESSIV key's key_enc),
 * then CBC runs as aes_cbc_loop over rk1 and leaves the chaining value in iv.
 */
static inline void aes_essiv_cbc_loop(aes_modes_block_fn enc, aes_modes_block_fn crypt, const uint32_t *rk1,
				      const uint32_t *rk2, uint8_t *dst, const uint8_t *src, size_t blocks,
				      uint8_t *iv, unsigned int rounds, int encrypt)
{
	enc(rk2, iv, iv, AES_MODES_ESSIV_ROUNDS);
	aes_cbc_loop(crypt, rk1, dst, src, blocks, iv, rounds, encrypt);
}

/* The 128-bit big-endian counter plus one, carrying through all 16 bytes. */
static inline void aes_ctr_inc(uint8_t *ctr)
{
	for (int i = AES_MODES_BLOCK - 1; i >= 0; i--)
		if (++ctr[i])
			break;
}

/*
 * CTR over nbytes (any length): keystream block i is E(ctr + i); a partial
 * last block uses the start of its keystream block.  ctr ends as the
 * counter after the last (partial) block.
 */
static inline void aes_ctr_loop(aes_modes_block_fn enc, const uint32_t *rk, uint8_t *dst, const uint8_t *src,
				size_t nbytes, uint8_t *ctr, unsigned int rounds)
{
	uint8_t ks[AES_MODES_BLOCK];

	while (nbytes) {
		size_t n = nbytes < AES_MODES_BLOCK ? nbytes : AES_MODES_BLOCK;

		enc(rk, ks, ctr, rounds);
		aes_ctr_inc(ctr);
		aes_modes_xor(dst, src, ks, n);
		src += n;
		dst += n;
		nbytes -= n;
	}
	memzero_explicit(ks, sizeof(ks));
}

/* The XTS tweak times x in GF(2^128), little-endian bytes (IEEE P1619). */
static inline void aes_xts_mul_x(uint8_t *t)
{
	uint8_t carry = t[AES_MODES_BLOCK - 1] >> 7;

	for (int i = AES_MODES_BLOCK - 1; i > 0; i--)
		t[i] = (uint8_t)((t[i] << 1) | (t[i - 1] >> 7));
	t[0] = (uint8_t)((t[0] << 1) ^ (carry ? 0x87 : 0));
}

static inline void aes_xts_one(aes_modes_block_fn crypt, const uint32_t *rk1, uint8_t *dst, const uint8_t *src,
			       const uint8_t *t, unsigned int rounds)
{
	uint8_t x[AES_MODES_BLOCK];

	aes_modes_xor(x, src, t, AES_MODES_BLOCK);
	crypt(rk1, x, x, rounds);
	aes_modes_xor(dst, x, t, AES_MODES_BLOCK);
	memzero_explicit(x, sizeof(x));
}

/*
 * XTS over nbytes (at least 16 where nbytes is not a multiple of 16: the
 * last full block and the tail are then done with ciphertext stealing).
 * first: iv holds the sector's IV, which is encrypted with rk2 (key_enc of
 * the tweak key, by ``enc``) into the first tweak; otherwise iv holds the
 * tweak of the first block, as an earlier call left it.  crypt is the data
 * direction's routine on rk1 (key_enc to encrypt, key_dec to decrypt).  iv
 * ends as the tweak of the block after the last one.
 */
static inline void aes_xts_loop(aes_modes_block_fn enc, aes_modes_block_fn crypt, const uint32_t *rk1,
				const uint32_t *rk2, uint8_t *dst, const uint8_t *src, size_t nbytes,
				uint8_t *iv, unsigned int rounds, int encrypt, int first)
{
	size_t tail = nbytes % AES_MODES_BLOCK;
	size_t blocks = nbytes / AES_MODES_BLOCK - (tail ? 1 : 0);
	uint8_t t[AES_MODES_BLOCK], t2[AES_MODES_BLOCK], cc[AES_MODES_BLOCK], pp[AES_MODES_BLOCK];

	if (first)
		enc(rk2, t, iv, rounds);
	else
		memcpy(t, iv, AES_MODES_BLOCK);
	for (; blocks; blocks--, src += AES_MODES_BLOCK, dst += AES_MODES_BLOCK) {
		aes_xts_one(crypt, rk1, dst, src, t, rounds);
		aes_xts_mul_x(t);
	}
	if (tail) {
		/* the full block takes the later tweak when decrypting */
		memcpy(t2, t, AES_MODES_BLOCK);
		aes_xts_mul_x(t2);
		aes_xts_one(crypt, rk1, cc, src, encrypt ? t : t2, rounds);
		memcpy(pp, src + AES_MODES_BLOCK, tail);
		memcpy(pp + tail, cc + tail, AES_MODES_BLOCK - tail);
		memcpy(dst + AES_MODES_BLOCK, cc, tail);
		aes_xts_one(crypt, rk1, dst, pp, encrypt ? t2 : t, rounds);
		memcpy(t, t2, AES_MODES_BLOCK);
		aes_xts_mul_x(t);
	}
	memcpy(iv, t, AES_MODES_BLOCK);
	memzero_explicit(cc, sizeof(cc));
	memzero_explicit(pp, sizeof(pp));
}

/*
 * The last two blocks of CBC with ciphertext stealing (CS3, the kernel's
 * cts(cbc) layout), 17..32 bytes: the full block then the tail of
 * nbytes - 16 bytes; the output's full block is the encryption of the
 * zero-padded tail, followed by the start of the block before it; other
 * lengths do nothing.  enc and dec take key_enc and key_dec; iv is read only.
 */
static inline void aes_cbc_cts_loop(aes_modes_block_fn enc, aes_modes_block_fn dec, const uint32_t *key_enc,
				    const uint32_t *key_dec, uint8_t *dst, const uint8_t *src, size_t nbytes,
				    const uint8_t *iv, unsigned int rounds, int encrypt)
{
	size_t tail = nbytes - AES_MODES_BLOCK;
	uint8_t x[AES_MODES_BLOCK], y[AES_MODES_BLOCK];

	if (nbytes <= AES_MODES_BLOCK || nbytes > 2 * AES_MODES_BLOCK)
		return;					/* not the last two blocks */
	if (encrypt) {
		aes_modes_xor(x, src, iv, AES_MODES_BLOCK);
		enc(key_enc, x, x, rounds);			/* X = E(P1 ^ IV) */
		memcpy(y, x, AES_MODES_BLOCK);
		aes_modes_xor(y, y, src + AES_MODES_BLOCK, tail);
		enc(key_enc, y, y, rounds);			/* Y = E((P2 || 0) ^ X) */
		memcpy(dst + AES_MODES_BLOCK, x, tail);
		memcpy(dst, y, AES_MODES_BLOCK);
	} else {
		dec(key_dec, y, src, rounds);			/* (P2 || 0) ^ X */
		memcpy(x, src + AES_MODES_BLOCK, tail);
		memcpy(x + tail, y + tail, AES_MODES_BLOCK - tail);
		aes_modes_xor(y, y, x, tail);			/* P2 */
		dec(key_dec, x, x, rounds);
		aes_modes_xor(dst, x, iv, AES_MODES_BLOCK);
		memcpy(dst + AES_MODES_BLOCK, y, tail);
	}
	memzero_explicit(x, sizeof(x));
	memzero_explicit(y, sizeof(y));
}

#endif
