/*
 * GHASH (NIST SP 800-38D §6.4): the hash key and descriptor state of the
 * userspace counterpart of crypto/ghash-generic.c.  The multiplication in
 * GF(2^128) is bitwise with masks (no table lookups indexed by secret data).
 */
#ifndef CRYPTO_API_GHASH_GENERIC_H
#define CRYPTO_API_GHASH_GENERIC_H

#include <stddef.h>
#include <stdint.h>

/* cdef: begin */
#define GHASH_BLOCK_SIZE 16
#define GHASH_DIGEST_SIZE 16

/* H as two big-endian 64-bit halves (hi holds the first 8 bytes of the key). */
struct ghash_key {
	uint64_t hi;
	uint64_t lo;
};

/* The accumulator Y and how many bytes of its current block were absorbed. */
struct ghash_desc_ctx {
	uint8_t acc[GHASH_BLOCK_SIZE];
	uint32_t pending;
};

/* For each of nblocks 16-byte blocks: acc = (acc XOR block) * H.  The
 * generic one here; the x86 PCLMULQDQ one in arch/x86/ghash_clmul.c. */
typedef void (*ghash_blocks_fn)(uint8_t *acc, const struct ghash_key *key,
				const uint8_t *data, size_t nblocks);

void ghash_setkey(struct ghash_key *key, const uint8_t *raw);
void ghash_init(struct ghash_desc_ctx *ctx);
void ghash_blocks_generic(uint8_t *acc, const struct ghash_key *key,
			  const uint8_t *data, size_t nblocks);
/* Absorb len bytes: each full block is XORed into Y, then Y = Y * H. */
void ghash_update(struct ghash_desc_ctx *ctx, const struct ghash_key *key,
		  const uint8_t *data, size_t len, ghash_blocks_fn blocks);
/* Zero-pad a partial block and multiply it in, write Y (16 bytes), wipe ctx. */
void ghash_final(struct ghash_desc_ctx *ctx, const struct ghash_key *key, uint8_t *out,
		 ghash_blocks_fn blocks);
/* cdef: end */

#endif
