/*
 * HCTR2 over one contiguous buffer in one call (the construction of
 * crypto/hctr2.c, Linux 6.0 to 6.18), driving the C entries of the block
 * cipher, XCTR and POLYVAL drivers that the template spawned.
 */
#ifndef CRYPTO_API_HCTR2_CORE_H
#define CRYPTO_API_HCTR2_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "polyval_generic.h"

/* cdef: begin */
typedef void (*hctr2_block_fn)(const void *ctx, uint8_t *out, const uint8_t *in);
/* XCTR from block number 1 over nbytes (any length); iv (16 bytes) unchanged. */
typedef void (*hctr2_xctr_fn)(const void *key, uint8_t *out, const uint8_t *in, size_t nbytes,
			      const uint8_t *iv);

struct hctr2_fast {
	/* the block cipher: one block each way, and its key schedule */
	hctr2_block_fn block_encrypt;
	hctr2_block_fn block_decrypt;
	const void *block_ctx;
	/* the XCTR skcipher over the same cipher and key */
	hctr2_xctr_fn xctr_crypt;
	const void *xctr_key;
	/* POLYVAL keyed with h = E(0) */
	polyval_blocks_fn polyval_blocks;
	const struct polyval_key *polyval_key;
	/* L = E(1 || 0^120), and POLYVAL's accumulator after the length block
	 * for a bulk of whole blocks [0] or with a partial last block [1]
	 * (hctr2_fast_setup fills these) */
	uint8_t L[16];
	uint64_t hashed_tweaklen[2][2];
};

/* Copy L (16 bytes) and fill hashed_tweaklen with POLYVAL's blocks
 * function setup_blocks over f's key (the generic one: no SIMD section). */
void hctr2_fast_setup(struct hctr2_fast *f, const uint8_t *L, polyval_blocks_fn setup_blocks);
/* 0, or -EINVAL (-22) when nbytes < 16.  dst may equal src; tweak 32 bytes. */
int hctr2_crypt(const struct hctr2_fast *f, uint8_t *dst, const uint8_t *src, size_t nbytes,
		const uint8_t *tweak, int enc);
int hctr2_encrypt(const struct hctr2_fast *f, uint8_t *dst, const uint8_t *src, size_t nbytes,
		  const uint8_t *tweak);
int hctr2_decrypt(const struct hctr2_fast *f, uint8_t *dst, const uint8_t *src, size_t nbytes,
		  const uint8_t *tweak);
/* cdef: end */

#endif
