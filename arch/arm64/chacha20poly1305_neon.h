/*
 * One-pass ("stitched") ChaCha20-Poly1305 for AArch64 (chacha20poly1305_neon.c),
 * the RFC 8439 AEAD construction with the bytes of the kernel's rfc7539
 * template; the kernel itself has no such driver.  Needs Advanced SIMD
 * (HWCAP asimd); the glue calls it inside one kernel_neon_begin/end section.
 */
#ifndef CRYPTO_API_ARM64_CHACHA20POLY1305_NEON_H
#define CRYPTO_API_ARM64_CHACHA20POLY1305_NEON_H

#include <stddef.h>
#include <stdint.h>

#define CP_NEON_EBADMSG 74

/* dst[0:len] = ChaCha20(key, nonce, counters 1, 2, ...) ^ src and
 * dst[len:len+16] = the tag over ad and the ciphertext.  dst may equal src. */
/* cdef: begin */
void chacha20poly1305_seal_neon(const uint8_t *key, const uint8_t *nonce,
				const uint8_t *ad, size_t adlen,
				const uint8_t *src, size_t len, uint8_t *dst);

/* src[0:len] = ciphertext, tag = the 16 bytes that came with it.  0 and
 * dst[0:len] = plaintext when the tag matches (compared in constant time),
 * else -EBADMSG and dst[0:len] all zeros.  dst may equal src. */
int chacha20poly1305_open_neon(const uint8_t *key, const uint8_t *nonce,
			       const uint8_t *ad, size_t adlen,
			       const uint8_t *src, size_t len, const uint8_t *tag,
			       uint8_t *dst);
/* cdef: end */

#endif
