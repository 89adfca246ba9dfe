/* Linear-buffer form of the v5.0 x86 ChaCha glue loop; see chacha_glue_walk.c. */
#ifndef CRYPTO_API_CHACHA_GLUE_WALK_H
#define CRYPTO_API_CHACHA_GLUE_WALK_H

#include <stddef.h>
#include <stdint.h>

/* cdef: begin */
typedef void (*chacha_crypt_fn)(uint32_t *state, uint8_t *dst, const uint8_t *src,
				size_t bytes, int nrounds);

/*
 * Runs crypt over total bytes the way the v5.0 glue walks a request whose
 * src and dst start src_off / dst_off bytes into a page.  Writes the bytes of
 * each FPU section to sections[] (if not NULL, at most max_sections) and
 * returns the number of sections.
 */
size_t chacha_glue_walk_contiguous(chacha_crypt_fn crypt, uint32_t state[16], uint8_t *dst,
				   const uint8_t *src, size_t total, size_t src_off,
				   size_t dst_off, int nrounds, uint32_t *sections,
				   size_t max_sections);

typedef void (*hchacha_fn)(const uint32_t *state, uint32_t *out, int nrounds);

/*
 * The same, setting the state up first from the 32-byte key and the IV: a
 * 16-byte ChaCha IV when hchacha is NULL, else a 32-byte XChaCha IV whose
 * subkey comes from hchacha (the SSSE3 routine in the v5.0 glue).
 */
size_t chacha_glue_crypt_contiguous(chacha_crypt_fn crypt, hchacha_fn hchacha,
				    const uint8_t key[32], const uint8_t *iv, uint8_t *dst,
				    const uint8_t *src, size_t total, size_t src_off,
				    size_t dst_off, int nrounds, uint32_t *sections,
				    size_t max_sections);
/* cdef: end */

#endif
