/* NH with AArch64 Advanced SIMD (arch/common/nh_neon.c). */
#ifndef CRYPTO_API_ARM64_NH_NEON_H
#define CRYPTO_API_ARM64_NH_NEON_H

#include <stddef.h>
#include <stdint.h>

/* hash = NH(key, message): message_len a multiple of 16, 16..1024; hash 32 bytes. */
/* cdef: begin */
void nh_neon(const uint32_t *key, const uint8_t *message, size_t message_len,
	     uint8_t *hash);
/* cdef: end */

#endif
