/*
 * SHA-256 and SHA-224 (FIPS 180-4): the descriptor state and entry points of
 * the userspace counterpart of crypto/sha256_generic.c.
 */
#ifndef CRYPTO_API_SHA256_GENERIC_H
#define CRYPTO_API_SHA256_GENERIC_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_BLOCK_SIZE 64
#define SHA256_DIGEST_SIZE 32
#define SHA224_DIGEST_SIZE 28

struct sha256_state {
	uint32_t state[8];
	uint64_t count;			/* bytes hashed so far */
	uint8_t buf[SHA256_BLOCK_SIZE];
};

/* nblocks 64-byte blocks into state (the compression function). */
typedef void (*sha256_blocks_fn)(uint32_t *state, const uint8_t *data, size_t nblocks);

void sha256_init(struct sha256_state *s);
void sha224_init(struct sha256_state *s);
void sha256_blocks_generic(uint32_t *state, const uint8_t *data, size_t nblocks);
void sha256_update(struct sha256_state *s, const uint8_t *data, size_t len, sha256_blocks_fn blocks);
/* Pads, writes digest_size bytes and wipes the state. */
void sha256_final(struct sha256_state *s, uint8_t *out, size_t digest_size, sha256_blocks_fn blocks);

#endif
