/*
 * HCTR2 in one call over a contiguous buffer: the construction of the
 * kernel's crypto/hctr2.c (Linux 6.0 to 6.18) with the block cipher, XCTR
 * and POLYVAL reached through the C entries of whichever drivers the
 * template spawned (generic, SIMD or another implementation exposing the
 * same entry points).
 *
 * P = M || N, |M| = 16, tweak T (32 bytes).  Encryption:
 * MM = M ^ H(T, N);  UU = E(MM);  S = MM ^ UU ^ L;  V = XCTR_S(N);
 * U = UU ^ H(T, V);  C = U || V.  Decryption runs the same with D for E.
 * H(T, X) = POLYVAL_h(length block || T || X padded with 01 00.. to whole
 * blocks); the accumulator after the length block is kept from setkey.
 */
#include <string.h>

#include "hctr2_core.h"
#include "memzero.h"

#define BLOCK 16
#define TWEAK 32

static void xor16(uint8_t *r, const uint8_t *a, const uint8_t *b)
{
	for (int i = 0; i < BLOCK; i++)
		r[i] = a[i] ^ b[i];
}

/* The first block hashed: le64(2 * 8 * 32 + 2 + has_remainder) || 0^64. */
static void length_block(uint8_t block[BLOCK], int has_remainder)
{
	uint64_t v = (uint64_t)TWEAK * 8 * 2 + 2 + (uint64_t)has_remainder;

	memset(block, 0, BLOCK);
	for (int i = 0; i < 8; i++)
		block[i] = (uint8_t)(v >> (8 * i));
}

void hctr2_fast_setup(struct hctr2_fast *f, const uint8_t *L, polyval_blocks_fn setup_blocks)
{
	uint8_t block[BLOCK];

	memcpy(f->L, L, BLOCK);
	for (int r = 0; r < 2; r++) {
		f->hashed_tweaklen[r][0] = 0;
		f->hashed_tweaklen[r][1] = 0;
		length_block(block, r);
		setup_blocks(f->hashed_tweaklen[r], f->polyval_key, block, 1);
	}
}

/* H(T, X) over the len bytes of x, into out (16 bytes, little-endian words). */
static void hctr2_hash(const struct hctr2_fast *f, const uint8_t *tweak, const uint8_t *x,
		       size_t len, uint8_t out[BLOCK])
{
	size_t full = len / BLOCK, rem = len % BLOCK;
	uint64_t acc[2];
	uint8_t pad[BLOCK];

	memcpy(acc, f->hashed_tweaklen[rem != 0], sizeof(acc));
	f->polyval_blocks(acc, f->polyval_key, tweak, TWEAK / BLOCK);
	if (full)
		f->polyval_blocks(acc, f->polyval_key, x, full);
	if (rem) {
		memset(pad, 0, sizeof(pad));
		memcpy(pad, x + full * BLOCK, rem);
		pad[rem] = 1;
		f->polyval_blocks(acc, f->polyval_key, pad, 1);
		memzero_explicit(pad, sizeof(pad));
	}
	for (int i = 0; i < 8; i++) {	/* the accumulator's words, little endian */
		out[i] = (uint8_t)(acc[0] >> (8 * i));
		out[8 + i] = (uint8_t)(acc[1] >> (8 * i));
	}
	memzero_explicit(acc, sizeof(acc));
}

int hctr2_crypt(const struct hctr2_fast *f, uint8_t *dst, const uint8_t *src, size_t nbytes,
		const uint8_t *tweak, int enc)
{
	uint8_t h[BLOCK], mm[BLOCK], uu[BLOCK], s[BLOCK];
	size_t bulk_len;

	if (nbytes < BLOCK)
		return -22;
	bulk_len = nbytes - BLOCK;
	hctr2_hash(f, tweak, src + BLOCK, bulk_len, h);
	xor16(mm, src, h);
	(enc ? f->block_encrypt : f->block_decrypt)(f->block_ctx, uu, mm);
	xor16(s, mm, uu);
	xor16(s, s, f->L);
	if (bulk_len)
		f->xctr_crypt(f->xctr_key, dst + BLOCK, src + BLOCK, bulk_len, s);
	hctr2_hash(f, tweak, dst + BLOCK, bulk_len, h);
	xor16(dst, uu, h);
	memzero_explicit(h, sizeof(h));
	memzero_explicit(mm, sizeof(mm));
	memzero_explicit(uu, sizeof(uu));
	memzero_explicit(s, sizeof(s));
	return 0;
}

int hctr2_encrypt(const struct hctr2_fast *f, uint8_t *dst, const uint8_t *src, size_t nbytes,
		  const uint8_t *tweak)
{
	return hctr2_crypt(f, dst, src, nbytes, tweak, 1);
}

int hctr2_decrypt(const struct hctr2_fast *f, uint8_t *dst, const uint8_t *src, size_t nbytes,
		  const uint8_t *tweak)
{
	return hctr2_crypt(f, dst, src, nbytes, tweak, 0);
}
