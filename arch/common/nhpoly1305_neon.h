/* NHPoly1305 update with the NEON NH (arch/common/nhpoly1305_neon.c). */
#ifndef CRYPTO_API_ARM64_NHPOLY1305_NEON_H
#define CRYPTO_API_ARM64_NHPOLY1305_NEON_H

#include <stddef.h>
#include <stdint.h>

/* nhpoly1305_update (algs/nhpoly1305.c) with nh_neon and the generic Poly1305 core. */
/* cdef: begin */
void nhpoly1305_neon_update(void *state, const void *key, const uint8_t *src, size_t len);
size_t nhpoly1305_neon_state_size(void);
size_t nhpoly1305_neon_key_size(void);
/* cdef: end */

#endif
