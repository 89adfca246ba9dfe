/*
 * SHA-512 and SHA-384 (FIPS 180-4): the descriptor state and entry points of
 * the userspace counterpart of crypto/sha512_generic.c.
 */
#ifndef CRYPTO_API_SHA512_GENERIC_H
#define CRYPTO_API_SHA512_GENERIC_H

#include <stddef.h>
#include <stdint.h>

/* cdef: begin */
#define SHA512_BLOCK_SIZE 128
#define SHA512_DIGEST_SIZE 64
#define SHA384_DIGEST_SIZE 48

struct sha512_state {
	uint64_t state[8];
	uint64_t count[2];		/* bytes hashed so far, low word first */
	uint8_t buf[SHA512_BLOCK_SIZE];
};

void sha512_init(struct sha512_state *s);
void sha384_init(struct sha512_state *s);
/* nblocks 128-byte blocks into state (the compression function). */
void sha512_blocks_generic(uint64_t *state, const uint8_t *data, size_t nblocks);
void sha512_update(struct sha512_state *s, const uint8_t *data, size_t len);
/* Pads, writes digest_size bytes (64 or 48) and wipes the state. */
void sha512_final(struct sha512_state *s, uint8_t *out, size_t digest_size);
/* cdef: end */

/* The 80 round constants K (FIPS 180-4 section 4.2.3). */
extern const uint64_t SHA512_K[80];

/* cdef: begin */
/* sha512_update / sha512_final with another compression function (an
 * md_blocks_fn of include/md_buffer.h over the state words): the descriptor
 * code of the arm64 SHA-512 CE core and of the x86 SIMD drivers. */
typedef void (*sha512_blocks_fn)(void *state, const uint8_t *data, size_t nblocks);
void sha512_update_blocks(struct sha512_state *s, const uint8_t *data, size_t len,
			  sha512_blocks_fn blocks);
void sha512_final_blocks(struct sha512_state *s, uint8_t *out, size_t digest_size,
			 sha512_blocks_fn blocks);
/* sha512_blocks_generic as a sha512_blocks_fn (the SIMD drivers' fallback). */
void sha512_blocks_generic_fn(void *state, const uint8_t *data, size_t nblocks);
/* init (SHA-384 where digest_size is 48), update and final in one call over
 * ``blocks``, the state on the stack and wiped: the routine of the C entry
 * point (crypto_api/digest_call.h); ``handle`` is a struct sha512_call;
 * returns 0. */
struct sha512_call {
	sha512_blocks_fn blocks;
	size_t digest_size;
};
int sha512_digest_call(const void *handle, char *out, const char *data, size_t len);
/* cdef: end */

#endif
