/*
 * NH and NHPoly1305 interface (the role of include/crypto/nhpoly1305.h).
 *
 * The streaming state machine (algs/nhpoly1305.c) is written once; an NH
 * implementation (generic, SSE2, AVX2) is passed in as a function pointer and
 * the Poly1305 core as an ops table.
 */
#ifndef CRYPTO_API_NHPOLY1305_H
#define CRYPTO_API_NHPOLY1305_H

#include "poly1305_core.h"

/* cdef: begin */
#define NH_PAIR_STRIDE 2
#define NH_MESSAGE_UNIT 16
#define NH_NUM_PASSES 4
#define NH_HASH_BYTES 32
#define NH_MESSAGE_BYTES 1024
#define NH_KEY_WORDS 268
#define NH_KEY_BYTES 1072			/* NH_KEY_WORDS * 4 */
#define NHPOLY1305_KEY_SIZE 1088		/* POLY1305_BLOCK_SIZE + NH_KEY_BYTES */
#define NHPOLY1305_DIGEST_SIZE 16

/* hash = NH(key, message); message_len is a multiple of 16, 16..1024. */
typedef void (*nh_fn_t)(const uint32_t *key, const uint8_t *message,
			size_t message_len, uint8_t hash[NH_HASH_BYTES]);

struct nhpoly1305_key {
	poly1305_core_key poly_key;
	uint32_t nh_key[NH_KEY_WORDS];
};

struct nhpoly1305_state {
	poly1305_core_state poly_state;
	uint8_t buffer[NH_MESSAGE_UNIT];
	uint32_t buflen;
	uint32_t nh_remaining;
	uint64_t nh_hash[NH_HASH_BYTES / 8];
};

void nh_generic(const uint32_t *key, const uint8_t *message, size_t message_len,
		uint8_t hash[NH_HASH_BYTES]);

/* key must be NHPOLY1305_KEY_SIZE bytes: clamped r (16) then 268 LE words. */
void nhpoly1305_setkey(struct nhpoly1305_key *key, const uint8_t *raw,
		       const poly1305_core_ops *poly);
void nhpoly1305_init(struct nhpoly1305_state *state, const poly1305_core_ops *poly);
void nhpoly1305_update(struct nhpoly1305_state *state, const struct nhpoly1305_key *key,
		       const uint8_t *src, size_t len, nh_fn_t nh,
		       const poly1305_core_ops *poly);
/* final always uses the given nh for the padded tail (the glue passes nh_generic). */
void nhpoly1305_final(struct nhpoly1305_state *state, const struct nhpoly1305_key *key,
		      uint8_t digest[NHPOLY1305_DIGEST_SIZE], nh_fn_t nh,
		      const poly1305_core_ops *poly);

/* init + update (with nh_bulk) + final (with nh_small) in one call. */
void nhpoly1305_digest(const struct nhpoly1305_key *key, const uint8_t *src, size_t len,
		       uint8_t digest[NHPOLY1305_DIGEST_SIZE], nh_fn_t nh_bulk, nh_fn_t nh_small,
		       const poly1305_core_ops *poly);

/* What the tfm.digest direct path's routine (nhpoly1305_digest_call, built
 * into crypto_api.algs._poly1305) digests with: the key, the bulk NH. */
struct nhpoly1305_call {
	const struct nhpoly1305_key *key;
	nh_fn_t nh_bulk;
	const poly1305_core_ops *poly;
};

/* nhpoly1305_digest with nh_generic for the tail (algs/nh_generic.c). */
void nhpoly1305_digest_nh(const struct nhpoly1305_key *key, const uint8_t *src, size_t len,
			  uint8_t digest[NHPOLY1305_DIGEST_SIZE], nh_fn_t nh_bulk,
			  const poly1305_core_ops *poly);
/* The same as the routine of the C entry point (crypto_api/digest_call.h):
 * the handle is a struct nhpoly1305_call; returns 0. */
int nhpoly1305_digest_call(const void *handle, char *digest, const char *src, size_t len);
/* cdef: end */

_Static_assert(NH_KEY_BYTES == NH_KEY_WORDS * 4, "NH key size");
_Static_assert(NHPOLY1305_KEY_SIZE == POLY1305_BLOCK_SIZE + NH_KEY_BYTES, "NHPoly1305 key size");

#endif
