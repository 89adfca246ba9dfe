/*
 * Portable ChaCha / HChaCha core (userspace counterpart of the kernel's
 * include/crypto/chacha.h generic entry points).
 */
#ifndef CRYPTO_API_CHACHA_GENERIC_H
#define CRYPTO_API_CHACHA_GENERIC_H

#include <stddef.h>
#include <stdint.h>

/* cdef: begin */
#define CHACHA_BLOCK_SIZE 64
#define CHACHA_KEY_SIZE 32
#define CHACHA_IV_SIZE 16
#define XCHACHA_IV_SIZE 32
#define CHACHA_STATE_WORDS 16
#define HCHACHA_OUT_WORDS 8

/* state = "expand 32-byte k" || key words || iv as 4 little-endian words. */
void chacha_init_state(uint32_t state[16], const uint32_t key[8], const uint8_t iv[16]);

/* Same, with the key given as 32 raw bytes (8 little-endian words). */
void chacha_setup(uint32_t state[16], const uint8_t key[32], const uint8_t iv[16]);

/*
 * dst = src XOR keystream, for any byte count; dst may equal src.  Word 12 of
 * the state is advanced once per 64-byte block, a trailing partial block
 * included (32-bit wrap, word 13 untouched).  nrounds: 8, 12 or 20 (even).
 */
void chacha_crypt_generic(uint32_t state[16], uint8_t *dst, const uint8_t *src,
			  size_t bytes, int nrounds);

/* HChaCha: permute a copy of state (no feed-forward); out = words 0-3, 12-15. */
void hchacha_block_generic(const uint32_t state[16], uint32_t out[8], int nrounds);

/*
 * XChaCha: iv = nonce(24) || le64 stream position.  Derives the subkey with
 * HChaCha(key, iv[0:16]) and writes the ChaCha state for it, with words 12-15
 * = iv[24:32] || iv[16:24].  Feed the result to chacha_crypt_generic().
 */
void xchacha_setup(uint32_t state[16], const uint8_t key[32], const uint8_t iv[32],
		   int nrounds);

typedef void (*chacha_stream_fn)(uint32_t *state, uint8_t *dst, const uint8_t *src,
				 size_t bytes, int nrounds);
typedef void (*chacha_hchacha_fn)(const uint32_t *state, uint32_t *out, int nrounds);

/*
 * What one request over one contiguous buffer needs, fixed at setkey: the
 * bulk routine (generic or SIMD), HChaCha (NULL for ChaCha20 with its
 * 16-byte IV; else XChaCha with a 32-byte IV), the key and the rounds.
 */
struct chacha_direct {
	chacha_stream_fn crypt;
	chacha_hchacha_fn hchacha;
	const uint8_t *key;
	int nrounds;
};
/* cdef: end */

/* A whole request in one call: state from key and IV, then crypt(). */
void chacha_crypt_direct(const struct chacha_direct *c, uint8_t *dst, const uint8_t *src,
			 size_t bytes, const uint8_t *iv);

#endif
