/*
 * SHA-1 (FIPS 180-4): the descriptor state and entry points of the userspace
 * counterpart of crypto/sha1_generic.c.
 */
#ifndef CRYPTO_API_SHA1_GENERIC_H
#define CRYPTO_API_SHA1_GENERIC_H

#include <stddef.h>
#include <stdint.h>

/* cdef: begin */
#define SHA1_BLOCK_SIZE 64
#define SHA1_DIGEST_SIZE 20

struct sha1_state {
	uint32_t state[5];
	uint64_t count;			/* bytes hashed so far */
	uint8_t buf[SHA1_BLOCK_SIZE];
};

void sha1_init(struct sha1_state *s);
/* nblocks 64-byte blocks into state (the compression function). */
void sha1_blocks_generic(uint32_t *state, const uint8_t *data, size_t nblocks);
void sha1_update(struct sha1_state *s, const uint8_t *data, size_t len);
/* Pads, writes the 20-byte digest and wipes the state. */
void sha1_final(struct sha1_state *s, uint8_t *out);
/* cdef: end */

#endif
