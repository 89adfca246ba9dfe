/*
 * Poly1305 core interface shared by every Poly1305 implementation in the tree
 * (the role of include/crypto/poly1305.h's poly1305_core_* in the kernel).
 *
 * Key and state are opaque fixed-size storage, so that the 26-bit-limb generic
 * core (algs/poly1305_core.c) and the 64-bit-limb core
 * (arch/x86/poly1305_x86_64.c) fit the same descriptor structures and are
 * selected by an ops table.
 */
#ifndef CRYPTO_API_POLY1305_CORE_H
#define CRYPTO_API_POLY1305_CORE_H

#include <stddef.h>
#include <stdint.h>

/* cdef: begin */
#define POLY1305_BLOCK_SIZE 16
#define POLY1305_KEY_SIZE 32
#define POLY1305_DIGEST_SIZE 16

typedef struct { uint64_t w[6]; } poly1305_core_key;   /* clamped r, core-specific form */
typedef struct { uint64_t w[3]; } poly1305_core_state; /* accumulator h, core-specific form */

typedef struct poly1305_core_ops {
	const char *name;
	/* Clamp and store r (16 raw little-endian bytes). */
	void (*setkey)(poly1305_core_key *key, const uint8_t raw_r[16]);
	/* h = 0 */
	void (*init)(poly1305_core_state *state);
	/* Absorb nblocks whole 16-byte blocks, adding hibit * 2^128 to each. */
	void (*blocks)(poly1305_core_state *state, const poly1305_core_key *key,
		       const uint8_t *src, size_t nblocks, uint32_t hibit);
	/* Fully reduce h mod 2^130-5 and write its low 128 bits (no "+ s"). */
	void (*emit)(const poly1305_core_state *state, uint8_t out[16]);
} poly1305_core_ops;

/* cffi sees the const table as a variable, so that ffi.addressof gives its
 * address rather than a copy; its wrapper (CRYPTO_API_CFFI) casts the const
 * away below.  The table stays in read-only memory: Python only passes the
 * pointer on. */
/* cffi: extern poly1305_core_ops poly1305_generic_ops; */
/* cdef: end */

/* The portable 26-bit-limb core (algs/poly1305_core.c). */
extern const poly1305_core_ops poly1305_generic_ops;
#ifdef CRYPTO_API_CFFI
#define poly1305_generic_ops (*(poly1305_core_ops *)&poly1305_generic_ops)
#endif

#endif
