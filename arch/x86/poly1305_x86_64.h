/*
 * The 64-bit-limb Poly1305 core (poly1305_x86_64.c): its ops table for the
 * generic descriptor code (algs/poly1305_desc.c, algs/nhpoly1305.c) plus the
 * same operations as plain functions.
 */
#ifndef CRYPTO_API_POLY1305_X86_64_H
#define CRYPTO_API_POLY1305_X86_64_H

#include "poly1305_core.h"

extern const poly1305_core_ops poly1305_x86_64_ops;
#ifdef CRYPTO_API_CFFI		/* a variable to cffi, as poly1305_generic_ops (poly1305_core.h) */
#define poly1305_x86_64_ops (*(poly1305_core_ops *)&poly1305_x86_64_ops)
#endif

/* cdef: begin */
/* cffi: extern poly1305_core_ops poly1305_x86_64_ops; */
void poly1305_x86_64_setkey(poly1305_core_key *key, const uint8_t raw_r[16]);
void poly1305_x86_64_init(poly1305_core_state *state);
void poly1305_x86_64_blocks(poly1305_core_state *state, const poly1305_core_key *key,
			    const uint8_t *src, size_t nblocks, uint32_t hibit);
void poly1305_x86_64_emit(const poly1305_core_state *state, uint8_t out[16]);

/* out = emit(h) after absorbing nblocks blocks (each + hibit*2^128) under
 * clamp(raw_r); no "+ s".  A one-shot helper for tests. */
void poly1305_x86_64_hash(const uint8_t raw_r[16], const uint8_t *src, size_t nblocks,
			  uint32_t hibit, uint8_t out[16]);
/* cdef: end */

#endif
