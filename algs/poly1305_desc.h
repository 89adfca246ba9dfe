/*
 * v5.0-style "poly1305" shash descriptor (no setkey: the first 32 bytes of
 * input are r then s) plus the plain entry points of the portable 26-bit core.
 */
#ifndef CRYPTO_API_POLY1305_DESC_H
#define CRYPTO_API_POLY1305_DESC_H

#include <stddef.h>
#include <stdint.h>

#include "poly1305_core.h"

/* cdef: begin */
#define POLY1305_ENOKEY 126

struct poly1305_desc {
	poly1305_core_key r;
	poly1305_core_state h;
	uint8_t s[16];
	uint8_t buf[16];
	uint32_t buflen;
	uint32_t rset;
	uint32_t sset;
};

void poly1305_desc_init(struct poly1305_desc *d);
void poly1305_desc_update(struct poly1305_desc *d, const uint8_t *src, size_t len,
			  const poly1305_core_ops *ops);
/* 0 on success; -ENOKEY (-126) unless both r and s were received. */
int poly1305_desc_final(struct poly1305_desc *d, uint8_t digest[16],
			const poly1305_core_ops *ops);

/* init + update + final in one call; 0 or -ENOKEY as poly1305_desc_final. */
int poly1305_desc_digest(const uint8_t *src, size_t len, uint8_t digest[16],
			 const poly1305_core_ops *ops);

/* The 26-bit core as plain functions (also reachable via poly1305_generic_ops). */
void poly1305_generic_setkey(poly1305_core_key *key, const uint8_t raw_r[16]);
void poly1305_generic_init(poly1305_core_state *state);
void poly1305_generic_blocks(poly1305_core_state *state, const poly1305_core_key *key,
			     const uint8_t *src, size_t nblocks, uint32_t hibit);
void poly1305_generic_emit(const poly1305_core_state *state, uint8_t out[16]);

/* out = emit(Poly1305 of nblocks whole blocks, hibit 1) under clamp(raw_r); no s. */
void poly1305_core_hash(const poly1305_core_ops *ops, const uint8_t raw_r[16],
			const uint8_t *src, size_t nblocks, uint8_t out[16]);

/* poly1305_desc_digest as the routine of the C entry point
 * (crypto_api/digest_call.h): the handle is the core's ops table; nonzero:
 * too short (the full path raises ENOKEY). */
int poly1305_digest_call(const void *handle, char *digest, const char *src, size_t len);
/* cdef: end */

#endif
