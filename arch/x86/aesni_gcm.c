/*
 * AES-GCM (NIST SP 800-38D) in one call per request, the role of the
 * kernel's AES-NI GCM assembly (arch/x86/crypto/aesni-intel_asm.S,
 * aesni-intel_avx-x86_64.S) behind generic-gcm-aesni and rfc4106-gcm-aesni.
 *
 * CTR reuses the mode code of this extension (aesni_ctr_crypt, or the VAES
 * 256/512-bit routines of aesni_vaes.c): the counter block is nonce ‖
 * be32(2) onwards, E_K(nonce ‖ be32(1)) masks the tag.  GHASH sums the
 * unreduced products of up to 8 blocks with precomputed powers of H and
 * reduces once per group (ghash_clmul_ops.h); where the CPU has VPCLMULQDQ,
 * 16 blocks at a time in 256-bit registers of two (the VAES/AVX2 form, and
 * the AVX10/256 one, whose CTR is the 256-bit EVEX code of aesni_vaes.c) or
 * 32 in 512-bit registers of four (with AVX-512).  Encryption runs
 * CTR over a chunk that stays in cache, then hashes the ciphertext of that
 * chunk; decryption hashes a chunk first and then decrypts it, so src and
 * dst may be the same buffer.  The tag is compared in constant time.
 */
#include "aesni_modes.h"
#include "aesni_gcm.h"

#if defined(__x86_64__) || defined(__i386__)

#include "ghash_clmul_ops.h"

/* Bytes en/decrypted before they are hashed: a multiple of 512 (the widest
 * GHASH step); 16 KiB of text and as much output stay in L1/L2 between the
 * passes (at 1 MiB, 4 KiB chunks measured ~6% slower, 32 KiB no faster). */
#define GCM_CHUNK 16384

#define TARGET_VPCLMUL X86_TARGET("vpclmulqdq,avx512f,avx512bw,avx512vl,avx2,pclmul,ssse3")
#define TARGET_VPCLMUL256 X86_TARGET("vpclmulqdq,avx2,pclmul,ssse3")

typedef void (*gcm_ctr_fn)(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in,
			   size_t nbytes, uint8_t *iv);

static gcm_ctr_fn ctr_of(uint32_t isa)
{
	if (isa == AESNI_GCM_ISA_AVX512)
		return aes_vaes_avx10_512_ctr_crypt;
	if (isa == AESNI_GCM_ISA_AVX10_256)
		return aes_vaes_avx10_256_ctr_crypt;
	if (isa == AESNI_GCM_ISA_VAES_AVX2)
		return aes_vaes_avx2_ctr_crypt;
	return aesni_ctr_crypt;
}

/* y after nblocks full blocks: groups of up to 8, one reduction each. */
TARGET_CLMUL
static __m128i ghash_blocks128(const struct aesni_gcm_ctx *ctx, __m128i y, const uint8_t *p,
			       size_t nblocks)
{
	while (nblocks) {
		size_t k = nblocks < 8 ? nblocks : 8, i;
		const uint8_t (*h)[16] = ctx->hpow + AESNI_GCM_POWERS - k;	/* h[i] = H^(k-i) */
		struct clmul_sum s;

		clmul_zero(&s);
		clmul_add(&s, _mm_xor_si128(y, bswap128(LD(p))), LD(h[0]));
		for (i = 1; i < k; i++)
			clmul_add(&s, bswap128(LD(p + 16 * i)), LD(h[i]));
		y = clmul_reduce(&s);
		p += 16 * k;
		nblocks -= k;
	}
	return y;
}

/* The four 128-bit lanes of v XORed together. */
TARGET_VPCLMUL
static inline __m128i lanes_xor(__m512i v)
{
	__m256i a = _mm256_xor_si256(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1));

	return _mm_xor_si128(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1));
}

/* The same with VPCLMULQDQ: 32 blocks (eight registers of four) per
 * reduction; the middle products are folded into the outer ones in each
 * lane before the lanes are summed. */
TARGET_VPCLMUL
static __m128i ghash_blocks512(const struct aesni_gcm_ctx *ctx, __m128i y, const uint8_t *p,
			       size_t nblocks)
{
	const __m512i rev = _mm512_broadcast_i32x4(_mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
								11, 12, 13, 14, 15));
	__m512i h[8], d, lo, mid, hi;
	struct clmul_sum s;
	int j;

	for (j = 0; j < 8; j++)		/* lanes of h[j]: H^(32-4j) .. H^(29-4j) */
		h[j] = _mm512_loadu_si512((const void *)ctx->hpow[4 * j]);
	for (; nblocks >= 32; nblocks -= 32, p += 512) {
		d = _mm512_shuffle_epi8(_mm512_loadu_si512((const void *)p), rev);
		d = _mm512_xor_si512(d, _mm512_inserti32x4(_mm512_setzero_si512(), y, 0));
		lo = _mm512_clmulepi64_epi128(d, h[0], 0x00);
		hi = _mm512_clmulepi64_epi128(d, h[0], 0x11);
		mid = _mm512_xor_si512(_mm512_clmulepi64_epi128(d, h[0], 0x01),
				       _mm512_clmulepi64_epi128(d, h[0], 0x10));
		for (j = 1; j < 8; j++) {
			d = _mm512_shuffle_epi8(_mm512_loadu_si512((const void *)(p + 64 * j)), rev);
			lo = _mm512_xor_si512(lo, _mm512_clmulepi64_epi128(d, h[j], 0x00));
			hi = _mm512_xor_si512(hi, _mm512_clmulepi64_epi128(d, h[j], 0x11));
			mid = _mm512_ternarylogic_epi64(mid, _mm512_clmulepi64_epi128(d, h[j], 0x01),
							_mm512_clmulepi64_epi128(d, h[j], 0x10), 0x96);
		}
		lo = _mm512_xor_si512(lo, _mm512_bslli_epi128(mid, 8));
		hi = _mm512_xor_si512(hi, _mm512_bsrli_epi128(mid, 8));
		s.lo = lanes_xor(lo);
		s.hi = lanes_xor(hi);
		s.mid = _mm_setzero_si128();
		y = clmul_reduce(&s);
	}
	return ghash_blocks128(ctx, y, p, nblocks);
}

/* The same with VPCLMULQDQ on 256-bit registers (the VAES/AVX2 form): 16
 * blocks (eight registers of two) per reduction. */
TARGET_VPCLMUL256
static __m128i ghash_blocks256(const struct aesni_gcm_ctx *ctx, __m128i y, const uint8_t *p,
			       size_t nblocks)
{
	const __m256i rev = _mm256_broadcastsi128_si256(_mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
								     10, 11, 12, 13, 14, 15));
	__m256i h[8], d, lo, mid, hi;
	struct clmul_sum s;
	int j;

	for (j = 0; j < 8; j++)		/* lanes of h[j]: H^(16-2j), H^(15-2j) */
		h[j] = _mm256_loadu_si256((const __m256i *)(const void *)ctx->hpow[16 + 2 * j]);
	for (; nblocks >= 16; nblocks -= 16, p += 256) {
		d = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(const void *)p), rev);
		d = _mm256_xor_si256(d, _mm256_inserti128_si256(_mm256_setzero_si256(), y, 0));
		lo = _mm256_clmulepi64_epi128(d, h[0], 0x00);
		hi = _mm256_clmulepi64_epi128(d, h[0], 0x11);
		mid = _mm256_xor_si256(_mm256_clmulepi64_epi128(d, h[0], 0x01),
				       _mm256_clmulepi64_epi128(d, h[0], 0x10));
		for (j = 1; j < 8; j++) {
			d = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(const void *)
								   (p + 32 * j)), rev);
			lo = _mm256_xor_si256(lo, _mm256_clmulepi64_epi128(d, h[j], 0x00));
			hi = _mm256_xor_si256(hi, _mm256_clmulepi64_epi128(d, h[j], 0x11));
			mid = _mm256_xor_si256(mid, _mm256_xor_si256(
				_mm256_clmulepi64_epi128(d, h[j], 0x01),
				_mm256_clmulepi64_epi128(d, h[j], 0x10)));
		}
		lo = _mm256_xor_si256(lo, _mm256_bslli_epi128(mid, 8));
		hi = _mm256_xor_si256(hi, _mm256_bsrli_epi128(mid, 8));
		s.lo = _mm_xor_si128(_mm256_castsi256_si128(lo), _mm256_extracti128_si256(lo, 1));
		s.hi = _mm_xor_si128(_mm256_castsi256_si128(hi), _mm256_extracti128_si256(hi, 1));
		s.mid = _mm_setzero_si128();
		y = clmul_reduce(&s);
	}
	return ghash_blocks128(ctx, y, p, nblocks);
}

/* y after n bytes, the last partial block zero-padded. */
static __m128i ghash_bytes(const struct aesni_gcm_ctx *ctx, __m128i y, const uint8_t *p, size_t n)
{
	size_t full = n / 16, tail = n % 16;
	uint8_t pad[16];

	if (full && ctx->isa == AESNI_GCM_ISA_AVX512)
		y = ghash_blocks512(ctx, y, p, full);
	else if (full && (ctx->isa == AESNI_GCM_ISA_VAES_AVX2 || ctx->isa == AESNI_GCM_ISA_AVX10_256))
		y = ghash_blocks256(ctx, y, p, full);
	else if (full)
		y = ghash_blocks128(ctx, y, p, full);
	if (tail) {
		memset(pad, 0, sizeof(pad));
		memcpy(pad, p + 16 * full, tail);
		y = ghash_blocks128(ctx, y, pad, 1);
		crypto_memzero(pad, sizeof(pad));
	}
	return y;
}

TARGET_CLMUL
static void set_powers(struct aesni_gcm_ctx *ctx, const uint8_t hkey[16])
{
	__m128i h = bswap128(LD(hkey)), p = h;
	int i;

	for (i = AESNI_GCM_POWERS - 1; i >= 0; i--) {
		ST(ctx->hpow[i], p);
		if (i)
			p = gf128_mul_reflected(p, h);
	}
}

int aesni_gcm_setkey(struct aesni_gcm_ctx *ctx, const uint8_t *key, size_t len, uint32_t isa)
{
	uint8_t h[16];
	int err = aesni_setkey(&ctx->aes, key, len);

	if (err)
		return err;
	memset(h, 0, sizeof(h));
	aesni_encrypt(&ctx->aes, h, h);
	set_powers(ctx, h);
	crypto_memzero(h, sizeof(h));
	ctx->authsize = 16;
	ctx->isa = isa;
	return 0;
}

/* nonce ‖ be32(n) */
static void counter_block(uint8_t out[16], const uint8_t nonce[12], uint8_t n)
{
	memcpy(out, nonce, 12);
	out[12] = out[13] = out[14] = 0;
	out[15] = n;
}

/* dst[0:len] = CTR(src); the full 16-byte tag into tag. */
TARGET_CLMUL
static void gcm_crypt(const struct aesni_gcm_ctx *ctx, const uint8_t nonce[12], const uint8_t *ad,
		      size_t adlen, const uint8_t *src, size_t len, uint8_t *dst, int enc,
		      uint8_t tag[16])
{
	gcm_ctr_fn ctr = ctr_of(ctx->isa);
	uint8_t counter[16], block[16];
	__m128i y = _mm_setzero_si128();
	size_t done, c;

	y = ghash_bytes(ctx, y, ad, adlen);
	counter_block(counter, nonce, 2);
	for (done = 0; done < len; done += c) {
		c = len - done < GCM_CHUNK ? len - done : GCM_CHUNK;
		if (enc) {
			ctr(&ctx->aes, dst + done, src + done, c, counter);
			y = ghash_bytes(ctx, y, dst + done, c);
		} else {
			y = ghash_bytes(ctx, y, src + done, c);
			ctr(&ctx->aes, dst + done, src + done, c, counter);
		}
	}
	store_be64(block, (uint64_t)adlen * 8);
	store_be64(block + 8, (uint64_t)len * 8);
	y = ghash_blocks128(ctx, y, block, 1);
	counter_block(counter, nonce, 1);
	aesni_encrypt(&ctx->aes, block, counter);		/* E_K(J0) */
	ST(tag, _mm_xor_si128(bswap128(y), LD(block)));
	crypto_memzero(block, sizeof(block));
	crypto_memzero(counter, sizeof(counter));
}

void aesni_gcm_seal(const uint8_t *key, const uint8_t nonce[12],
		    const uint8_t *ad, size_t adlen, const uint8_t *src, size_t len, uint8_t *dst)
{
	const struct aesni_gcm_ctx *ctx = (const struct aesni_gcm_ctx *)(const void *)key;
	uint8_t tag[16];

	gcm_crypt(ctx, nonce, ad, adlen, src, len, dst, 1, tag);
	memcpy(dst + len, tag, ctx->authsize);
	crypto_memzero(tag, sizeof(tag));
}

/* Decrypt; 0 or -EBADMSG (tag compared in constant time), dst zeroed on a
 * wrong tag where wipe. */
static int gcm_open(const struct aesni_gcm_ctx *ctx, const uint8_t nonce[12], const uint8_t *ad,
		    size_t adlen, const uint8_t *src, size_t len, const uint8_t *tag, uint8_t *dst,
		    int wipe)
{
	uint8_t want[16], diff = 0;
	size_t i;

	gcm_crypt(ctx, nonce, ad, adlen, src, len, dst, 0, want);
	for (i = 0; i < ctx->authsize && i < 16; i++)
		diff |= (uint8_t)(want[i] ^ tag[i]);
	crypto_memzero(want, sizeof(want));
	if (diff == 0)
		return 0;
	if (wipe)
		crypto_memzero(dst, len);
	return -AESNI_GCM_EBADMSG;
}

int aesni_gcm_open(const uint8_t *key, const uint8_t nonce[12],
		   const uint8_t *ad, size_t adlen, const uint8_t *src, size_t len,
		   const uint8_t *tag, uint8_t *dst)
{
	return gcm_open((const struct aesni_gcm_ctx *)(const void *)key, nonce, ad, adlen, src, len,
			tag, dst, 1);
}

int aesni_gcm_decrypt(const uint8_t *key, const uint8_t nonce[12],
		      const uint8_t *ad, size_t adlen, const uint8_t *src, size_t len,
		      const uint8_t *tag, uint8_t *dst)
{
	return gcm_open((const struct aesni_gcm_ctx *)(const void *)key, nonce, ad, adlen, src, len,
			tag, dst, 0);
}

#else /* not x86 */

#include <stdlib.h>

int aesni_gcm_setkey(struct aesni_gcm_ctx *ctx, const uint8_t *key, size_t len, uint32_t isa)
{
	(void)ctx; (void)key; (void)len; (void)isa;
	abort();
}

void aesni_gcm_seal(const uint8_t *key, const uint8_t nonce[12],
		    const uint8_t *ad, size_t adlen, const uint8_t *src, size_t len, uint8_t *dst)
{
	(void)key; (void)nonce; (void)ad; (void)adlen; (void)src; (void)len; (void)dst;
	abort();
}

int aesni_gcm_open(const uint8_t *key, const uint8_t nonce[12],
		   const uint8_t *ad, size_t adlen, const uint8_t *src, size_t len,
		   const uint8_t *tag, uint8_t *dst)
{
	(void)key; (void)nonce; (void)ad; (void)adlen; (void)src; (void)len; (void)tag; (void)dst;
	abort();
}

int aesni_gcm_decrypt(const uint8_t *key, const uint8_t nonce[12],
		      const uint8_t *ad, size_t adlen, const uint8_t *src, size_t len,
		      const uint8_t *tag, uint8_t *dst)
{
	(void)key; (void)nonce; (void)ad; (void)adlen; (void)src; (void)len; (void)tag; (void)dst;
	abort();
}

#endif
