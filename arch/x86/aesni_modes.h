/*
 * AES-NI modes (aesni_modes.c) and the VAES/AVX2 bulk code (aesni_vaes.c)
 * over struct aesni_ctx (aesni.h).  ivs are 16 bytes; CBC and CTR leave the
 * next IV/counter in iv, XTS and XCTR leave iv untouched.
 */
#ifndef CRYPTO_API_AESNI_MODES_H
#define CRYPTO_API_AESNI_MODES_H

#include "aesni.h"

/* cdef: begin */
void aesni_cbc_encrypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in,
		       size_t nblocks, uint8_t *iv);
void aesni_cbc_decrypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in,
		       size_t nblocks, uint8_t *iv);
void aesni_ctr_crypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in,
		     size_t nbytes, uint8_t *iv);
int aesni_xts_crypt(const struct aesni_ctx *ctx, const struct aesni_ctx *tweak_ctx, uint8_t *out,
		    const uint8_t *in, size_t nbytes, const uint8_t *iv, int dec);
/* XCTR (HCTR2's counter mode): keystream block i, from 1, is E(iv ^ le32(i)); iv is not written. */
void aesni_xctr_crypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in,
		      size_t nbytes, const uint8_t *iv);
/* the VAES bulk code (aesni_vaes.c), one width each */
void aes_vaes_avx2_ctr_crypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in,
			     size_t nbytes, uint8_t *iv);
int aes_vaes_avx2_xts_crypt(const struct aesni_ctx *ctx, const struct aesni_ctx *tweak_ctx,
			    uint8_t *out, const uint8_t *in, size_t nbytes, const uint8_t *iv, int dec);
void aes_vaes_avx10_256_ctr_crypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in,
				  size_t nbytes, uint8_t *iv);
int aes_vaes_avx10_256_xts_crypt(const struct aesni_ctx *ctx, const struct aesni_ctx *tweak_ctx,
				 uint8_t *out, const uint8_t *in, size_t nbytes, const uint8_t *iv,
				 int dec);
void aes_vaes_avx2_xctr_crypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in,
			      size_t nbytes, const uint8_t *iv);
void aes_vaes_avx10_256_xctr_crypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in,
				   size_t nbytes, const uint8_t *iv);
void aes_vaes_avx10_512_xctr_crypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in,
				   size_t nbytes, const uint8_t *iv);
void aes_vaes_avx10_512_ctr_crypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in,
				  size_t nbytes, uint8_t *iv);
int aes_vaes_avx10_512_xts_crypt(const struct aesni_ctx *ctx, const struct aesni_ctx *tweak_ctx,
				 uint8_t *out, const uint8_t *in, size_t nbytes, const uint8_t *iv,
				 int dec);

#define AESNI_DIRECT_ECB 0
#define AESNI_DIRECT_CBC 1
#define AESNI_DIRECT_CTR 2
#define AESNI_DIRECT_XTS 3
#define AESNI_DIRECT_XCTR 4
struct aesni_direct {
	const struct aesni_ctx *ctx;
	void (*fn)(void);	/* the mode routine, cast back by mode */
	int mode;
	int dec;
};
int aesni_mode_direct(const struct aesni_direct *h, char *dst, const char *src, size_t n,
		      const char *iv);
/* cdef: end */

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
/* Shared between the two files of the extension. */
X86_INTERNAL X86_TARGET_AESNI __m128i aesni_xts_first_tweak(const struct aesni_ctx *tweak_ctx,
							     const uint8_t *iv);
/* XCTR from keystream block ctr on (aesni_xctr_crypt starts at 1; the VAES
 * code hands its tail here). */
X86_INTERNAL X86_TARGET_AESNI void aesni_xctr_from(const struct aesni_ctx *ctx, uint8_t *out,
						   const uint8_t *in, size_t nbytes,
						   const uint8_t *iv, uint32_t ctr);
X86_INTERNAL X86_TARGET_AESNI void aesni_xts_tail(const struct aesni_ctx *ctx, __m128i t,
						  uint8_t *out, const uint8_t *in, size_t nbytes,
						  int dec);

#define LD(p) _mm_loadu_si128((const __m128i *)(p))
#define ST(p, v) _mm_storeu_si128((__m128i *)(p), (v))

/* The round keys of ctx (dec: the decryption schedule), aligned; copied to
 * bounce (which the caller wipes) if ctx moved to another alignment. */
X86_TARGET_AESNI
static inline const __m128i *keys_of(const struct aesni_ctx *ctx, int dec, __m128i *bounce,
				     int *bounced)
{
	const uint8_t *p = ctx->raw + ctx->offset + (dec ? AESNI_MAX_ROUND_KEYS * 16 : 0);

	if ((uintptr_t)p & 15) {
		memcpy(bounce, p, 16 * (ctx->rounds + 1));
		*bounced = 1;
		return bounce;
	}
	*bounced = 0;
	return (const __m128i *)p;
}

/* The 128-bit big-endian counter as two host-order halves. */
static inline uint64_t load_be64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v = (v << 8) | p[i];
	return v;
}

static inline void store_be64(uint8_t *p, uint64_t v)
{
	int i;

	for (i = 7; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

X86_TARGET_AESNI
static inline __m128i ctr_block(uint64_t hi, uint64_t lo)
{
	return _mm_set_epi64x((long long)__builtin_bswap64(lo), (long long)__builtin_bswap64(hi));
}

/* T * x in GF(2^128), little-endian convention (gf128mul_x_ble). */
X86_TARGET_AESNI
static inline __m128i xts_mul_x(__m128i t)
{
	const __m128i poly = _mm_set_epi64x(1, 0x87);
	/* each 64-bit half's top bit, as 0/-1 in both dwords of that half */
	__m128i carry = _mm_shuffle_epi32(_mm_srai_epi32(t, 31), 0x13);

	carry = _mm_and_si128(carry, poly);
	return _mm_xor_si128(_mm_add_epi64(t, t), carry);
}
#endif

#endif
