/*
 * poly1305-p10's core entry points (poly1305_p10.c; those of 6.5's
 * arch/powerpc/crypto/poly1305-p10le_64.S).  st (uint64_t[5]): r0, r1
 * (clamped r, set by the glue), h0, h1, h2.
 */
#ifndef CRYPTO_API_PPC_POLY1305_P10_H
#define CRYPTO_API_PPC_POLY1305_P10_H

#include <stddef.h>
#include <stdint.h>

/* cdef: begin */
void poly1305_64s(uint64_t *st, const uint8_t *m, size_t len, uint64_t highbit);
void poly1305_p10le_4blocks(uint64_t *st, const uint8_t *m, size_t len);
void poly1305_emit_64(const uint64_t *st, const uint8_t *s, uint8_t *mac);
/* cdef: end */

#endif
