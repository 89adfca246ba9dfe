/*
 * SHA-512 / SHA-384 with the ARMv8.2 SHA-512 instructions (SHA512H,
 * SHA512H2, SHA512SU0, SHA512SU1): the role of
 * arch/arm64/crypto/sha512-ce-core.S behind sha512-ce / sha384-ce.  Built
 * -march=armv8.2-a+sha3; only run on a CPU whose HWCAP has "sha512".
 */
#ifndef CRYPTO_API_ARM64_SHA512_CE_H
#define CRYPTO_API_ARM64_SHA512_CE_H

#include <stddef.h>
#include <stdint.h>

/* cdef: begin */
/* sha512_update / sha512_final (algs/sha512_generic.c) with the CE
 * compression function; desc: a struct sha512_state. */
void sha512_ce_update(void *desc, const uint8_t *src, size_t len);
void sha512_ce_final(void *desc, uint8_t *out, size_t digest_size);
/* sizeof(struct sha512_state) in this build (the glue checks it). */
size_t sha512_ce_desc_size(void);
/* cdef: end */

#endif
