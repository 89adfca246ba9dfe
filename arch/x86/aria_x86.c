/*
 * The x86 ARIA cores (the kernel's aria_aesni_avx, aria_aesni_avx2 and
 * aria_gfni_avx512 modules' assembler): the byte-sliced template
 * aria_simd.h instantiated for each (vector width, S-box method).
 *
 * AES-NI S-boxes: SB1 is the AES S-box, so AESENCLAST with a zero key after
 * an inverse-ShiftRows byte shuffle gives SB1 on every byte; AESDECLAST after
 * a ShiftRows shuffle gives X1 = SB1^-1.  SB2 and X2 share SB1's inversion:
 * SB2 = G(SB1(x)) and X2 = X1(H(x)) with G, H affine maps over GF(2), done as
 * two 16-entry nibble-table shuffles.  GFNI S-boxes: GF2P8AFFINEINVQB
 * computes an affine map of the inverse directly (SB1, SB2); the inverses
 * first undo the affine map with GF2P8AFFINEQB, then invert.  The matrices
 * and tables were derived from the S-box definitions (RFC 5794 2.4.2).
 */
#include "aria_x86.h"
#include "byteorder.h"

void aria_x86_round_key_words(uint32_t rk[][16], const uint32_t w[][4], int rounds)
{
	for (int i = 0; i <= rounds; i++)
		for (int j = 0; j < 16; j++)
			rk[i][j] = 0x01010101u * ((w[i][j / 4] >> (24 - 8 * (j % 4))) & 0xff);
}

void aria_x86_gf128_double(uint8_t *out, const uint8_t *in)
{
	uint8_t carry = in[15] >> 7;

	for (int i = 15; i > 0; i--)
		out[i] = (uint8_t)(in[i] << 1 | in[i - 1] >> 7);
	out[0] = (uint8_t)(in[0] << 1 ^ (carry ? 0x87 : 0));
}

/* All ones in the low quadword of every 128-bit lane. */
#define LOW_QWORD 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0
const uint8_t aria_x86_low_qwords[64] = {LOW_QWORD, LOW_QWORD, LOW_QWORD, LOW_QWORD};

#if defined(__x86_64__)
#include <immintrin.h>

/* GF(2) affine maps for GF2P8AFFINE(INV)QB (row i of the matrix in byte 7 - i). */
#define GF_SB1 0xf1e3c78f1f3e7cf8ULL	/* AES affine map (constant 0x63) */
#define GF_SB2 0xeafcb7c3c273c66fULL	/* B * Frobenius^3 (constant 0xe2) */
#define GF_SB1_INV 0xa44992254a942952ULL	/* undoes GF_SB1 (constant 0x05) */
#define GF_SB2_INV 0x186450c737d6bdc9ULL	/* undoes GF_SB2 (constant 0x2c) */
#define GF_IDENTITY 0x0102040810204080ULL

/* Nibble tables: G (SB1 output -> SB2 output) and H (X2 input -> X1 input). */
#define NIB_G_LO 0x88, 0x0d, 0x37, 0xb2, 0x00, 0x85, 0xbf, 0x3a, 0xa8, 0x2d, 0x17, 0x92, 0x20, 0xa5, 0x9f, 0x1a
#define NIB_G_HI 0x00, 0x3e, 0xd4, 0xea, 0x84, 0xba, 0x50, 0x6e, 0xcd, 0xf3, 0x19, 0x27, 0x49, 0x77, 0x9d, 0xa3
#define NIB_H_LO 0x04, 0x45, 0xee, 0xaf, 0x17, 0x56, 0xfd, 0xbc, 0x53, 0x12, 0xb9, 0xf8, 0x40, 0x01, 0xaa, 0xeb
#define NIB_H_HI 0x00, 0xb6, 0x08, 0xbe, 0xd6, 0x60, 0xde, 0x68, 0x53, 0xe5, 0x5b, 0xed, 0x85, 0x33, 0x8d, 0x3b
/* pshufb controls: ShiftRows and its inverse on an AES state. */
#define SHUF_SR 0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11
#define SHUF_ISR 0, 13, 10, 7, 4, 1, 14, 11, 8, 5, 2, 15, 12, 9, 6, 3

#define LANE4(...) {__VA_ARGS__, __VA_ARGS__, __VA_ARGS__, __VA_ARGS__}

/* Each table once per 128-bit lane of the widest vector. */
static const uint8_t nib_g_lo[64] = LANE4(NIB_G_LO), nib_g_hi[64] = LANE4(NIB_G_HI);
static const uint8_t nib_h_lo[64] = LANE4(NIB_H_LO), nib_h_hi[64] = LANE4(NIB_H_HI);
static const uint8_t shuf_sr[64] = LANE4(SHUF_SR), shuf_isr[64] = LANE4(SHUF_ISR);

#define T_AVX_AESNI X86_TARGET("avx,aes")
#define T_AVX_GFNI X86_TARGET("avx,gfni")
#define T_AVX2_AESNI X86_TARGET("avx2,aes")
#define T_AVX2_GFNI X86_TARGET("avx2,gfni")
#define T_AVX512_GFNI X86_TARGET("avx2,avx512f,avx512vl,avx512bw,gfni")

#define L128(p) _mm_loadu_si128((const __m128i *)(p))
#define L256(p) _mm256_loadu_si256((const __m256i *)(p))
#define L512(p) _mm512_loadu_si512((const void *)(p))

/* ---- AES-NI S-boxes, 128 bits ---- */
static T_AVX_AESNI inline __m128i nib_128(__m128i v, const uint8_t *lo, const uint8_t *hi)
{
	__m128i m = _mm_set1_epi8(0x0f);

	return _mm_xor_si128(_mm_shuffle_epi8(L128(lo), _mm_and_si128(v, m)),
			     _mm_shuffle_epi8(L128(hi), _mm_and_si128(_mm_srli_epi16(v, 4), m)));
}

static T_AVX_AESNI inline __m128i s1_aesni_128(__m128i x)
{
	return _mm_aesenclast_si128(_mm_shuffle_epi8(x, L128(shuf_isr)), _mm_setzero_si128());
}

static T_AVX_AESNI inline __m128i x1_aesni_128(__m128i x)
{
	return _mm_aesdeclast_si128(_mm_shuffle_epi8(x, L128(shuf_sr)), _mm_setzero_si128());
}

#define S2_AESNI_128(x) nib_128(s1_aesni_128(x), nib_g_lo, nib_g_hi)
#define X2_AESNI_128(x) x1_aesni_128(nib_128(x, nib_h_lo, nib_h_hi))

/* ---- AES-NI S-boxes, 256 bits (AES-NI works on 128-bit halves) ---- */
static T_AVX2_AESNI inline __m256i nib_256(__m256i v, const uint8_t *lo, const uint8_t *hi)
{
	__m256i m = _mm256_set1_epi8(0x0f);

	return _mm256_xor_si256(_mm256_shuffle_epi8(L256(lo), _mm256_and_si256(v, m)),
				_mm256_shuffle_epi8(L256(hi), _mm256_and_si256(_mm256_srli_epi16(v, 4), m)));
}

static T_AVX2_AESNI inline __m256i s1_aesni_256(__m256i x)
{
	__m128i z = _mm_setzero_si128();

	x = _mm256_shuffle_epi8(x, L256(shuf_isr));
	return _mm256_set_m128i(_mm_aesenclast_si128(_mm256_extracti128_si256(x, 1), z),
				_mm_aesenclast_si128(_mm256_castsi256_si128(x), z));
}

static T_AVX2_AESNI inline __m256i x1_aesni_256(__m256i x)
{
	__m128i z = _mm_setzero_si128();

	x = _mm256_shuffle_epi8(x, L256(shuf_sr));
	return _mm256_set_m128i(_mm_aesdeclast_si128(_mm256_extracti128_si256(x, 1), z),
				_mm_aesdeclast_si128(_mm256_castsi256_si128(x), z));
}

#define S2_AESNI_256(x) nib_256(s1_aesni_256(x), nib_g_lo, nib_g_hi)
#define X2_AESNI_256(x) x1_aesni_256(nib_256(x, nib_h_lo, nib_h_hi))

/* ---- GFNI S-boxes ---- */
#define SET64_ _mm_set1_epi64x
#define SET64_256 _mm256_set1_epi64x
#define SET64_512 _mm512_set1_epi64
#define GF_S(w, x, m, c) _mm##w##_gf2p8affineinv_epi64_epi8(x, SET64_##w((long long)(m)), c)
#define GF_X(w, x, m, c) GF_S(w, _mm##w##_gf2p8affine_epi64_epi8(x, SET64_##w((long long)(m)), c), \
			      GF_IDENTITY, 0)
#define S1_GFNI(w, x) GF_S(w, x, GF_SB1, 0x63)
#define S2_GFNI(w, x) GF_S(w, x, GF_SB2, 0xe2)
#define X1_GFNI(w, x) GF_X(w, x, GF_SB1_INV, 0x05)
#define X2_GFNI(w, x) GF_X(w, x, GF_SB2_INV, 0x2c)

/* ---- width helpers: unsigned byte compares as 0x00/0xff bytes ---- */
static T_AVX_AESNI inline __m128i ltu8_128(__m128i a, __m128i b)
{
	return _mm_andnot_si128(_mm_cmpeq_epi8(a, b), _mm_cmpeq_epi8(_mm_max_epu8(a, b), b));
}

static T_AVX2_AESNI inline __m256i ltu8_256(__m256i a, __m256i b)
{
	return _mm256_andnot_si256(_mm256_cmpeq_epi8(a, b), _mm256_cmpeq_epi8(_mm256_max_epu8(a, b), b));
}

/* ---- the five instantiations ---- */
/* AVX, AES-NI S-boxes (aria_aesni_avx_x86_64 without GFNI) */
#define ARIA_SUFFIX avx_aesni
#define ARIA_TARGET T_AVX_AESNI
#define ARIA_LANES 1
#define vec_t __m128i
#define V_LOAD(p) L128(p)
#define V_STORE(p, v) _mm_storeu_si128((__m128i *)(p), v)
#define V_XOR _mm_xor_si128
#define V_AND _mm_and_si128
#define V_BCAST8(b) _mm_set1_epi8((char)(b))
#define V_BCAST32(w) _mm_set1_epi32((int)(w))
#define V_UNPLO8 _mm_unpacklo_epi8
#define V_UNPHI8 _mm_unpackhi_epi8
#define V_ADD8 _mm_add_epi8
#define V_SUB8 _mm_sub_epi8
#define V_EQ8 _mm_cmpeq_epi8
#define V_LTU8 ltu8_128
#define V_NONE(v) _mm_testz_si128(v, v)
#define V_SLLI64 _mm_slli_epi64
#define V_SRLI64 _mm_srli_epi64
#define V_SWAP64(v) _mm_shuffle_epi32(v, 0x4e)
#define V_S1 s1_aesni_128
#define V_S2(x) S2_AESNI_128(x)
#define V_X1 x1_aesni_128
#define V_X2(x) X2_AESNI_128(x)
#include "aria_simd.h"
#undef ARIA_SUFFIX
#undef ARIA_TARGET
#undef V_S1
#undef V_S2
#undef V_X1
#undef V_X2

/* AVX, GFNI S-boxes */
#define ARIA_SUFFIX avx_gfni
#define ARIA_TARGET T_AVX_GFNI
#define V_S1(x) S1_GFNI(, x)
#define V_S2(x) S2_GFNI(, x)
#define V_X1(x) X1_GFNI(, x)
#define V_X2(x) X2_GFNI(, x)
#include "aria_simd.h"
#include "aria_simd_undef.h"

/* AVX2 (32 blocks), AES-NI S-boxes */
#define ARIA_SUFFIX avx2_aesni
#define ARIA_TARGET T_AVX2_AESNI
#define ARIA_LANES 2
#define vec_t __m256i
#define V_LOAD(p) L256(p)
#define V_STORE(p, v) _mm256_storeu_si256((__m256i *)(p), v)
#define V_XOR _mm256_xor_si256
#define V_AND _mm256_and_si256
#define V_BCAST8(b) _mm256_set1_epi8((char)(b))
#define V_BCAST32(w) _mm256_set1_epi32((int)(w))
#define V_UNPLO8 _mm256_unpacklo_epi8
#define V_UNPHI8 _mm256_unpackhi_epi8
#define V_ADD8 _mm256_add_epi8
#define V_SUB8 _mm256_sub_epi8
#define V_EQ8 _mm256_cmpeq_epi8
#define V_LTU8 ltu8_256
#define V_NONE(v) _mm256_testz_si256(v, v)
#define V_SLLI64 _mm256_slli_epi64
#define V_SRLI64 _mm256_srli_epi64
#define V_SWAP64(v) _mm256_shuffle_epi32(v, 0x4e)
#define V_S1 s1_aesni_256
#define V_S2(x) S2_AESNI_256(x)
#define V_X1 x1_aesni_256
#define V_X2(x) X2_AESNI_256(x)
#include "aria_simd.h"
#undef ARIA_SUFFIX
#undef ARIA_TARGET
#undef V_S1
#undef V_S2
#undef V_X1
#undef V_X2

/* AVX2, GFNI S-boxes */
#define ARIA_SUFFIX avx2_gfni
#define ARIA_TARGET T_AVX2_GFNI
#define V_S1(x) S1_GFNI(256, x)
#define V_S2(x) S2_GFNI(256, x)
#define V_X1(x) X1_GFNI(256, x)
#define V_X2(x) X2_GFNI(256, x)
#include "aria_simd.h"
#include "aria_simd_undef.h"

/* AVX-512 (64 blocks), GFNI S-boxes; VPTERNLOGD for the three-input XORs */
#define ARIA_SUFFIX avx512_gfni
#define ARIA_TARGET T_AVX512_GFNI
#define ARIA_LANES 4
#define vec_t __m512i
#define V_LOAD(p) L512(p)
#define V_STORE(p, v) _mm512_storeu_si512((void *)(p), v)
#define V_XOR _mm512_xor_si512
#define V_XOR3(a, b, c) _mm512_ternarylogic_epi32(a, b, c, 0x96)
#define V_AND _mm512_and_si512
#define V_BCAST8(b) _mm512_set1_epi8((char)(b))
#define V_BCAST32(w) _mm512_set1_epi32((int)(w))
#define V_UNPLO8 _mm512_unpacklo_epi8
#define V_UNPHI8 _mm512_unpackhi_epi8
#define V_ADD8 _mm512_add_epi8
#define V_SUB8 _mm512_sub_epi8
#define V_EQ8(a, b) _mm512_movm_epi8(_mm512_cmpeq_epi8_mask(a, b))
#define V_LTU8(a, b) _mm512_movm_epi8(_mm512_cmplt_epu8_mask(a, b))
#define V_NONE(v) (_mm512_test_epi8_mask(v, v) == 0)
#define V_SLLI64 _mm512_slli_epi64
#define V_SRLI64 _mm512_srli_epi64
#define V_SWAP64(v) _mm512_shuffle_epi32(v, (_MM_PERM_ENUM)0x4e)
#define V_S1(x) S1_GFNI(512, x)
#define V_S2(x) S2_GFNI(512, x)
#define V_X1(x) X1_GFNI(512, x)
#define V_X2(x) X2_GFNI(512, x)
#include "aria_simd.h"
#include "aria_simd_undef.h"

#else	/* not x86-64: the glue never calls these (its CPU checks fail) */

#define ARIA_X86_STUB(sfx)                                                              \
	void aria_##sfx##_ecb(const struct aria_ctx *ctx, uint8_t *out, const uint8_t *in,  \
			      size_t ncalls, int encrypt)                                   \
	{ (void)ctx; (void)out; (void)in; (void)ncalls; (void)encrypt; }                    \
	void aria_##sfx##_ctr(const struct aria_ctx *ctx, uint8_t *out, const uint8_t *in,  \
			      size_t ncalls, uint8_t iv[16])                                \
	{ (void)ctx; (void)out; (void)in; (void)ncalls; (void)iv; }                         \
	void aria_##sfx##_xts(const struct aria_ctx *ctx, uint8_t *out, const uint8_t *in,  \
			      size_t ncalls, uint8_t tweak[16], int encrypt)                \
	{ (void)ctx; (void)out; (void)in; (void)ncalls; (void)tweak; (void)encrypt; }
ARIA_X86_STUB(avx_aesni)
ARIA_X86_STUB(avx_gfni)
ARIA_X86_STUB(avx2_aesni)
ARIA_X86_STUB(avx2_gfni)
ARIA_X86_STUB(avx512_gfni)

#endif

static const struct aria_x86_width widths_gfni[3] = {
	{16, aria_avx_gfni_ecb, aria_avx_gfni_ctr, aria_avx_gfni_xts},
	{32, aria_avx2_gfni_ecb, aria_avx2_gfni_ctr, aria_avx2_gfni_xts},
	{64, aria_avx512_gfni_ecb, aria_avx512_gfni_ctr, aria_avx512_gfni_xts},
};
static const struct aria_x86_width widths_aesni[2] = {
	{16, aria_avx_aesni_ecb, aria_avx_aesni_ctr, aria_avx_aesni_xts},
	{32, aria_avx2_aesni_ecb, aria_avx2_aesni_ctr, aria_avx2_aesni_xts},
};

const struct aria_x86_width *aria_x86_widths(int gfni, int *level)
{
	if (!gfni && *level > 2)
		*level = 2;
	return gfni ? widths_gfni : widths_aesni;
}

void aria_x86_crypt_bytes(const struct aria_ctx *ctx, int level, int gfni, int mode,
			  char *dst, const char *src, size_t n, const char *iv_in)
{
	uint8_t *out = (uint8_t *)dst;
	const uint8_t *in = (const uint8_t *)src;
	const struct aria_x86_width *w = aria_x86_widths(gfni, &level);
	uint8_t iv[ARIA_BLOCK_SIZE];

	if (mode == ARIA_X86_CTR)
		memcpy(iv, iv_in, sizeof(iv));
	for (int i = level - 1; i >= 0; i--) {
		size_t bytes = 16 * w[i].nblocks, calls = n / bytes;

		if (!calls)
			continue;
		if (mode == ARIA_X86_CTR)
			w[i].ctr(ctx, out, in, calls, iv);
		else
			w[i].ecb(ctx, out, in, calls, mode == ARIA_X86_ECB_ENCRYPT);
		out += calls * bytes;
		in += calls * bytes;
		n -= calls * bytes;
	}
	if (mode == ARIA_X86_CTR)
		aria_ctr_generic(ctx, out, in, n, iv);
	else
		aria_ecb_generic(ctx, out, in, n / ARIA_BLOCK_SIZE, mode == ARIA_X86_ECB_ENCRYPT);
	memzero_explicit(iv, sizeof(iv));
}

void aria_x86_direct_bytes(const struct aria_x86_direct *h, char *dst, const char *src,
			   size_t n, const char *iv)
{
	aria_x86_crypt_bytes(h->key, h->level, h->gfni, h->mode, dst, src, n, iv);
}
