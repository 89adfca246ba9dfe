/*
 * POLYVAL (RFC 8452 section 3): the key, the descriptor state and the entry
 * points of the userspace counterpart of crypto/polyval-generic.c.
 *
 * Field elements are 16 bytes read little endian, bit i the coefficient of
 * x^i, modulo x^128 + x^127 + x^126 + x^121 + 1; dot(a, b) = a * b * x^-128.
 * The generic block function multiplies by the key's H * x^-128 (computed at
 * setkey), so each step is one plain field multiplication.
 */
#ifndef CRYPTO_API_POLYVAL_GENERIC_H
#define CRYPTO_API_POLYVAL_GENERIC_H

#include <stddef.h>
#include <stdint.h>

/* cdef: begin */
#define POLYVAL_BLOCK_SIZE 16
#define POLYVAL_DIGEST_SIZE 16

#define POLYVAL_POWERS 16

struct polyval_key {
	uint8_t raw[16];		/* H as given to setkey */
	uint64_t h_x[2];		/* H * x^-128 mod P, low word first */
	/* powers[i] = H^(16 - i) in dot's sense (H^1 = H, H^(k+1) = dot(H^k, H)),
	 * 16 bytes little endian each: for block functions that multiply up to
	 * 16 blocks by descending powers and reduce once (POLYVAL_POWERS) */
	uint8_t powers[16][16];
};

struct polyval_state {
	uint64_t acc[2];		/* the running value S, low word first */
	uint8_t buf[16];		/* a partial block waiting for more input */
	uint32_t partial;		/* bytes in buf */
};

/* nblocks 16-byte blocks into acc: acc = dot(acc ^ X_i, H) for each. */
typedef void (*polyval_blocks_fn)(uint64_t *acc, const struct polyval_key *key,
				  const uint8_t *data, size_t nblocks);

void polyval_setkey(struct polyval_key *key, const uint8_t *raw);
void polyval_blocks_generic(uint64_t *acc, const struct polyval_key *key, const uint8_t *data,
			    size_t nblocks);
void polyval_init(struct polyval_state *s);
void polyval_update(struct polyval_state *s, const struct polyval_key *key, const uint8_t *data,
		    size_t len, polyval_blocks_fn blocks);
/* A partial last block is zero-padded (the kernel's rule); writes 16 bytes
 * and wipes the state. */
void polyval_final(struct polyval_state *s, const struct polyval_key *key, uint8_t *out,
		   polyval_blocks_fn blocks);
/* cdef: end */

#endif
