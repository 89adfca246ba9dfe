/*
 * SHA-256 and SHA-224 (FIPS 180-4): the descriptor state and entry points of
 * the userspace counterpart of crypto/sha256_generic.c.
 */
#ifndef CRYPTO_API_SHA256_GENERIC_H
#define CRYPTO_API_SHA256_GENERIC_H

#include <stddef.h>
#include <stdint.h>

/* cdef: begin */
#define SHA256_BLOCK_SIZE 64
#define SHA256_DIGEST_SIZE 32
#define SHA224_DIGEST_SIZE 28

struct sha256_state {
	uint32_t state[8];
	uint64_t count;			/* bytes hashed so far */
	uint8_t buf[SHA256_BLOCK_SIZE];
};
/* cdef: end */

/* nblocks 64-byte blocks into state (the compression function). */
/* The round constants (FIPS 180-4 §4.2.2), for every SHA-256 block function. */
static const uint32_t SHA256_K[64] __attribute__((aligned(16))) = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

/* cdef: begin */
typedef void (*sha256_blocks_fn)(uint32_t *state, const uint8_t *data, size_t nblocks);

void sha256_init(struct sha256_state *s);
void sha224_init(struct sha256_state *s);
void sha256_blocks_generic(uint32_t *state, const uint8_t *data, size_t nblocks);
void sha256_update(struct sha256_state *s, const uint8_t *data, size_t len, sha256_blocks_fn blocks);
/* Pads, writes digest_size bytes and wipes the state. */
void sha256_final(struct sha256_state *s, uint8_t *out, size_t digest_size, sha256_blocks_fn blocks);
/* init (SHA-224 where digest_size is 28), update and final in one call, the
 * state on the stack and wiped: the one-call tfm.digest. */
void sha256_digest_bytes(const uint8_t *data, size_t len, uint8_t *out, size_t digest_size,
			 sha256_blocks_fn blocks);
/* The same as the routine of the C entry point (crypto_api/digest_call.h):
 * ``handle`` is a struct sha256_call; returns 0. */
struct sha256_call {
	sha256_blocks_fn blocks;
	size_t digest_size;
};
int sha256_digest_call(const void *handle, char *out, const char *data, size_t len);
/* cdef: end */

#endif
