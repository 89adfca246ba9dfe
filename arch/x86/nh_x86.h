/*
 * The x86 NH functions (nh_sse2.c, nh_avx2.c; the kernel's
 * arch/x86/crypto/nh-sse2-x86_64.S and nh-avx2-x86_64.S): the nh_fn_t
 * signature of nhpoly1305.h, each in the extension of its own core.
 */
#ifndef CRYPTO_API_NH_X86_H
#define CRYPTO_API_NH_X86_H

#include "x86_common.h"
#include "nhpoly1305.h"

/* cdef: begin nh_sse2 */
void nh_sse2(const uint32_t *key, const uint8_t *message, size_t message_len, uint8_t hash[32]);
/* cdef: end */
/* cdef: begin nh_avx2 */
void nh_avx2(const uint32_t *key, const uint8_t *message, size_t message_len, uint8_t hash[32]);
/* cdef: end */

#endif
