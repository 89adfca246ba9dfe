/*
 * The 26-bit-limb form of the Poly1305 key and accumulator, as the portable
 * core (algs/poly1305_core.c) keeps them inside the opaque
 * poly1305_core_key / poly1305_core_state storage.  Shared with the x86
 * SIMD code (arch/x86/poly1305_simd_*.c), which works on the same
 * accumulator so that the generic and vectorised paths can take turns on
 * one descriptor, as v5.0's poly1305-simd falls back to the generic update.
 */
#ifndef CRYPTO_API_POLY1305_P26_H
#define CRYPTO_API_POLY1305_P26_H

#include <stdint.h>

#include "poly1305_core.h"

#define POLY1305_P26_MASK 0x3ffffffu

/* Clamped r as 26-bit limbs, plus 5*r[1..4] for the wrap-around terms. */
struct p26_key {
	uint32_t r[5];
	uint32_t r5[4];		/* r5[i] = 5 * r[i + 1] */
};

/* Accumulator as 26-bit limbs (limbs may briefly exceed 26 bits). */
struct p26_state {
	uint32_t h[5];
};

_Static_assert(sizeof(struct p26_key) <= sizeof(poly1305_core_key),
	       "poly1305_core_key too small for the 26-bit key");
_Static_assert(sizeof(struct p26_state) <= sizeof(poly1305_core_state),
	       "poly1305_core_state too small for the 26-bit accumulator");

#endif
