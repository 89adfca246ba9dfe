/*
 * The six exported mode functions of one arm64 aes-glue.c build (the
 * entries of arch/arm64/crypto/aes-modes.S that the glue calls), defined by
 * AES_BLK_ENTRIES(prefix, enc, dec) over arch/common/aes_modes.h's loops and
 * the core's one-block routines enc and dec; aes_ce_modes.c and
 * aes_neon_modes.c each expand it once (prototypes in their headers).
 *
 * Conventions of the exported functions: rk is the schedule the direction
 * needs (key_enc to encrypt, key_dec to decrypt, both in the layout of
 * struct crypto_aes_ctx); rounds is 10, 12 or 14; decrypt is 0 to encrypt.
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
 *   full and partial blocks.  The next tweak is left in iv (the glue keeps
 *   the request's IV unchanged).
 */
#ifndef CRYPTO_API_ARM64_AES_BLK_ENTRIES_H
#define CRYPTO_API_ARM64_AES_BLK_ENTRIES_H

#include "aes_modes.h"

#define AES_XTS_DECRYPT 1
#define AES_XTS_FIRST 2

#define AES_BLK_ENTRIES(prefix, enc, dec)							\
void prefix##_ecb(const uint32_t *rk, uint8_t *dst, const uint8_t *src, size_t nbytes,		\
		  unsigned int rounds, int decrypt)						\
{												\
	aes_ecb_loop(decrypt ? dec : enc, rk, dst, src, nbytes / AES_MODES_BLOCK, rounds);	\
}												\
void prefix##_cbc(const uint32_t *rk, uint8_t *dst, const uint8_t *src, size_t nbytes,		\
		  uint8_t *iv, unsigned int rounds, int decrypt)				\
{												\
	aes_cbc_loop(decrypt ? dec : enc, rk, dst, src, nbytes / AES_MODES_BLOCK, iv, rounds,	\
		     !decrypt);									\
}												\
void prefix##_cts(const uint32_t *rk, uint8_t *dst, const uint8_t *src, size_t nbytes,		\
		  const uint8_t *iv, unsigned int rounds, int decrypt)				\
{												\
	aes_cbc_cts_loop(enc, dec, rk, rk, dst, src, nbytes, iv, rounds, !decrypt);		\
}												\
void prefix##_ctr(const uint32_t *rk, uint8_t *dst, const uint8_t *src, size_t nbytes,		\
		  uint8_t *ctr, unsigned int rounds)						\
{												\
	aes_ctr_loop(enc, rk, dst, src, nbytes, ctr, rounds);					\
}												\
void prefix##_xts(const uint32_t *rk1, const uint32_t *rk2, uint8_t *dst, const uint8_t *src,	\
		  size_t nbytes, uint8_t *iv, unsigned int rounds, int flags)			\
{												\
	int decrypt = flags & AES_XTS_DECRYPT;							\
												\
	aes_xts_loop(enc, decrypt ? dec : enc, rk1, rk2, dst, src, nbytes, iv, rounds, !decrypt,	\
		     !!(flags & AES_XTS_FIRST));						\
}												\
void prefix##_essiv_cbc(const uint32_t *rk1, const uint32_t *rk2, uint8_t *dst,		\
			const uint8_t *src, size_t nbytes, uint8_t *iv, unsigned int rounds,	\
			int decrypt)								\
{												\
	aes_essiv_cbc_loop(enc, decrypt ? dec : enc, rk1, rk2, dst, src, nbytes / AES_MODES_BLOCK,	\
			   iv, rounds, !decrypt);						\
}

#endif
