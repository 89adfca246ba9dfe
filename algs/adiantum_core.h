/*
 * Adiantum over one contiguous buffer in one call (the algorithm of
 * crypto/adiantum.c, Linux v5.0), driving the C entry points of the inner
 * drivers that the template spawned.
 */
#ifndef CRYPTO_API_ADIANTUM_CORE_H
#define CRYPTO_API_ADIANTUM_CORE_H

#include "nhpoly1305.h"

/* cdef: begin */
typedef void (*adiantum_stream_fn)(uint32_t *state, uint8_t *dst, const uint8_t *src,
				   size_t bytes, int nrounds);
typedef void (*adiantum_hchacha_fn)(const uint32_t *state, uint32_t *out, int nrounds);
typedef void (*adiantum_block_fn)(const void *ctx, uint8_t *out, const uint8_t *in);
/* Eight streams at once (one per lane; see chacha_lanes_xor_avx2). */
typedef void (*adiantum_hchacha_lanes_fn)(const uint32_t *states, uint32_t *out, unsigned lanes,
					  int nrounds);
typedef void (*adiantum_stream_lanes_fn)(uint32_t *states, uint8_t *dst, const uint8_t *src,
					 size_t stride, size_t bytes, unsigned lanes, int nrounds);

#define ADIANTUM_LANES 8

struct adiantum_fast {
	/* the stream cipher (XChaCha): bulk routine, routine for requests of
	 * 64 bytes or less, HChaCha, rounds and the 32-byte key */
	adiantum_stream_fn stream_crypt;
	adiantum_stream_fn stream_small;
	adiantum_hchacha_fn hchacha;
	adiantum_hchacha_fn hchacha_small;
	int nrounds;
	const uint8_t *stream_key;
	/* the same over up to ADIANTUM_LANES messages at once, or NULL */
	adiantum_hchacha_lanes_fn hchacha_lanes;
	adiantum_stream_lanes_fn stream_lanes;
	/* the block cipher (AES-256) */
	adiantum_block_fn block_encrypt;
	adiantum_block_fn block_decrypt;
	const void *block_ctx;
	/* the hash (NHPoly1305): NH for updates of 64 bytes or more, NH for the
	 * rest and for final, its Poly1305 core and its key */
	nh_fn_t nh_bulk;
	nh_fn_t nh_small;
	const poly1305_core_ops *hash_poly;
	const struct nhpoly1305_key *hash_key;
	/* the header hash: raw K_T (on the hash's Poly1305 core: any core
	 * gives the same value) */
	const uint8_t *header_r;
};

/* 0, or -EINVAL (-22) when nbytes < 16.  dst may equal src. */
int adiantum_crypt(const struct adiantum_fast *f, uint8_t *dst, const uint8_t *src,
		   size_t nbytes, const uint8_t *tweak, size_t tweak_len, int enc);
/*
 * count messages of nbytes bytes each, one after another from src to dst
 * (dst may equal src), message k with the tweak at tweaks + k * tweak_stride:
 * the same bytes as adiantum_crypt on each.  Up to ADIANTUM_LANES messages
 * at a time share one HChaCha pass and make their streams together where the
 * stream cipher has lanes code (hchacha_lanes and stream_lanes), else one
 * message at a time.  0, or -EINVAL (-22) when nbytes < 16 (nothing done).
 */
/* adiantum_crypt with the kernel's 32-byte tweak, encrypting or decrypting. */
int adiantum_encrypt(const struct adiantum_fast *f, uint8_t *dst, const uint8_t *src,
		     size_t nbytes, const uint8_t *tweak);
int adiantum_decrypt(const struct adiantum_fast *f, uint8_t *dst, const uint8_t *src,
		     size_t nbytes, const uint8_t *tweak);
int adiantum_crypt_many(const struct adiantum_fast *f, uint8_t *dst, const uint8_t *src,
			size_t nbytes, const uint8_t *tweaks, size_t tweak_stride, size_t tweak_len,
			size_t count, int enc);
/* cdef: end */

#endif
