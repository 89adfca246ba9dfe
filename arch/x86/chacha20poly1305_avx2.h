/*
 * One-pass ("stitched") ChaCha20-Poly1305 with AVX2, RFC 8439 AEAD
 * construction (the bytes of the kernel's rfc7539 template; the kernel itself
 * has no such stitched driver).  Call only where the CPU has AVX2 and the
 * OS saves YMM state, inside an FPU section.
 */
#ifndef CRYPTO_API_CHACHA20POLY1305_AVX2_H
#define CRYPTO_API_CHACHA20POLY1305_AVX2_H

#include <stddef.h>
#include <stdint.h>

/* cdef: begin */
#define CHACHAPOLY_KEY_SIZE 32
#define CHACHAPOLY_NONCE_SIZE 12
#define CHACHAPOLY_TAG_SIZE 16
#define CHACHAPOLY_EBADMSG 74

/* dst[0:len] = ChaCha20(key, nonce, counter 1) ^ src; dst[len:len+16] = tag.
 * dst may equal src. */
void chacha20poly1305_seal_avx2(const uint8_t key[32], const uint8_t nonce[12],
				const uint8_t *ad, size_t adlen,
				const uint8_t *src, size_t len, uint8_t *dst);

/* src = ciphertext (len bytes) || tag.  Checks the tag in constant time:
 * 0 and dst[0:len] = plaintext, or -EBADMSG and dst[0:len] zeroed.  dst may
 * equal src. */
int chacha20poly1305_open_avx2(const uint8_t key[32], const uint8_t nonce[12],
			       const uint8_t *ad, size_t adlen,
			       const uint8_t *src, size_t len, const uint8_t tag[16],
			       uint8_t *dst);

/* The same with the 16-block AVX-512F rounds (1024-byte chunks): call only
 * where the CPU also has AVX-512F/VL/BW and the OS saves ZMM state. */
void chacha20poly1305_seal_avx512(const uint8_t key[32], const uint8_t nonce[12],
				  const uint8_t *ad, size_t adlen,
				  const uint8_t *src, size_t len, uint8_t *dst);
int chacha20poly1305_open_avx512(const uint8_t key[32], const uint8_t nonce[12],
				 const uint8_t *ad, size_t adlen,
				 const uint8_t *src, size_t len, const uint8_t tag[16],
				 uint8_t *dst);
/* The AVX-512 form with the radix-2^44 IFMA Poly1305 (poly1305_ifma.h) for
 * texts of CHACHAPOLY_IFMA_MIN bytes or more: call only where the CPU also
 * has AVX512_IFMA. */
#define CHACHAPOLY_IFMA_MIN 4096
void chacha20poly1305_seal_avx512ifma(const uint8_t key[32], const uint8_t nonce[12],
				      const uint8_t *ad, size_t adlen,
				      const uint8_t *src, size_t len, uint8_t *dst);
int chacha20poly1305_open_avx512ifma(const uint8_t key[32], const uint8_t nonce[12],
				     const uint8_t *ad, size_t adlen,
				     const uint8_t *src, size_t len, const uint8_t tag[16],
				     uint8_t *dst);
/* cdef: end */

#endif
