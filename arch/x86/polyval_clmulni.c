/*
 * POLYVAL blocks with carry-less multiplication, the work of the kernel's
 * arch/x86/crypto/polyval-clmulni_asm.S.  A dot product dot(a, H) is a
 * 256-bit carry-less product followed by a reduction by x^-128 in two folds
 * with the constant x^127 + x^126 + x^121 (a Montgomery reduction), exactly
 * RFC 8452's dot.  Since dot is linear, a run of n blocks (n <= 16) is one
 * sum of products
 *     dot(acc ^ X_1, H^n) ^ dot(X_2, H^(n-1)) ^ ... ^ dot(X_n, H)
 * with the key's precomputed powers (struct polyval_key's powers) and a
 * single reduction: polyval_blocks_clmulni does that with PCLMULQDQ on one
 * 128-bit lane, polyval_blocks_vpclmul_avx512 with VPCLMULQDQ over four
 * lanes of 512-bit registers (16 blocks in four multiplies of each kind).
 * Compiled with per-function target attributes; the glue checks the CPU.
 */
#include "x86_common.h"
#include "polyval_clmulni.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

#define RUN POLYVAL_POWERS

X86_TARGET("pclmul,sse2")
static inline __m128i polyval_fold(__m128i lo, __m128i poly)
{
	/* lo * x^-64: clear the low 64 bits with a multiple of P, then swap halves */
	__m128i t = _mm_clmulepi64_si128(lo, poly, 0x10);

	return _mm_xor_si128(_mm_shuffle_epi32(lo, 0x4e), t);
}

/* The 256-bit sum hi:lo (mid already folded in) times x^-128, reduced. */
X86_TARGET("pclmul,sse2")
static inline __m128i polyval_reduce(__m128i lo, __m128i hi, __m128i poly)
{
	lo = polyval_fold(lo, poly);
	lo = polyval_fold(lo, poly);
	return _mm_xor_si128(hi, lo);
}

/* lo, mid, hi += the three parts of the carry-less product a * b. */
X86_TARGET("pclmul,sse2")
static inline void polyval_mul_add(__m128i a, __m128i b, __m128i *lo, __m128i *mid, __m128i *hi)
{
	*lo = _mm_xor_si128(*lo, _mm_clmulepi64_si128(a, b, 0x00));
	*hi = _mm_xor_si128(*hi, _mm_clmulepi64_si128(a, b, 0x11));
	*mid = _mm_xor_si128(*mid, _mm_xor_si128(_mm_clmulepi64_si128(a, b, 0x10),
						 _mm_clmulepi64_si128(a, b, 0x01)));
}

/* n blocks (1 <= n <= RUN) into s with the powers H^n .. H^1 and one reduction. */
X86_TARGET("pclmul,sse2")
static inline __m128i polyval_run(__m128i s, const struct polyval_key *key, const uint8_t *data,
				  size_t n, __m128i poly)
{
	const uint8_t (*pw)[16] = key->powers + (RUN - n);
	__m128i lo = _mm_setzero_si128(), mid = lo, hi = lo;

	for (size_t i = 0; i < n; i++) {
		__m128i x = _mm_loadu_si128((const __m128i *)(data + 16 * i));

		if (i == 0)
			x = _mm_xor_si128(x, s);
		polyval_mul_add(x, _mm_loadu_si128((const __m128i *)pw[i]), &lo, &mid, &hi);
	}
	lo = _mm_xor_si128(lo, _mm_slli_si128(mid, 8));
	hi = _mm_xor_si128(hi, _mm_srli_si128(mid, 8));
	return polyval_reduce(lo, hi, poly);
}

X86_TARGET("pclmul,sse2")
void polyval_blocks_clmulni(uint64_t *acc, const struct polyval_key *key, const uint8_t *data,
			    size_t nblocks)
{
	const __m128i poly = _mm_set_epi64x((long long)0xc200000000000000ULL, 1);
	__m128i s = _mm_loadu_si128((const __m128i *)acc);

	while (nblocks) {
		size_t n = nblocks < RUN ? nblocks : RUN;

		s = polyval_run(s, key, data, n, poly);
		data += 16 * n;
		nblocks -= n;
	}
	_mm_storeu_si128((__m128i *)acc, s);
}

#define AVX512_VPCLMUL "pclmul,sse2,avx2,avx512f,avx512vl,avx512bw,vpclmulqdq"

/* The four 128-bit lanes of v XOR-ed together. */
X86_TARGET(AVX512_VPCLMUL)
static inline __m128i lanes_xor(__m512i v)
{
	__m256i h = _mm256_xor_si256(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1));

	return _mm_xor_si128(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
}

X86_TARGET(AVX512_VPCLMUL)
void polyval_blocks_vpclmul_avx512(uint64_t *acc, const struct polyval_key *key,
				   const uint8_t *data, size_t nblocks)
{
	const __m128i poly = _mm_set_epi64x((long long)0xc200000000000000ULL, 1);
	__m128i s = _mm_loadu_si128((const __m128i *)acc);
	__m512i h[4];

	if (nblocks >= RUN) {
		for (int j = 0; j < 4; j++)	/* lane k of h[j]: the power of block 4j + k */
			h[j] = _mm512_loadu_si512((const void *)key->powers[4 * j]);
		for (; nblocks >= RUN; nblocks -= RUN, data += 16 * RUN) {
			__m512i x[4], lo, mid, hi;

			for (int j = 0; j < 4; j++)
				x[j] = _mm512_loadu_si512((const void *)(data + 64 * j));
			x[0] = _mm512_xor_si512(x[0], _mm512_zextsi128_si512(s));
			lo = _mm512_clmulepi64_epi128(x[0], h[0], 0x00);
			hi = _mm512_clmulepi64_epi128(x[0], h[0], 0x11);
			mid = _mm512_xor_si512(_mm512_clmulepi64_epi128(x[0], h[0], 0x10),
					       _mm512_clmulepi64_epi128(x[0], h[0], 0x01));
			for (int j = 1; j < 4; j++) {
				lo = _mm512_xor_si512(lo, _mm512_clmulepi64_epi128(x[j], h[j], 0x00));
				hi = _mm512_xor_si512(hi, _mm512_clmulepi64_epi128(x[j], h[j], 0x11));
				mid = _mm512_ternarylogic_epi64(mid,
					_mm512_clmulepi64_epi128(x[j], h[j], 0x10),
					_mm512_clmulepi64_epi128(x[j], h[j], 0x01), 0x96);
			}
			/* the middle halves into lo and hi in every lane, then the lanes summed */
			lo = _mm512_xor_si512(lo, _mm512_bslli_epi128(mid, 8));
			hi = _mm512_xor_si512(hi, _mm512_bsrli_epi128(mid, 8));
			s = polyval_reduce(lanes_xor(lo), lanes_xor(hi), poly);
		}
		for (int j = 0; j < 4; j++)
			h[j] = _mm512_setzero_si512();
	}
	if (nblocks)
		s = polyval_run(s, key, data, nblocks, poly);
	_mm_storeu_si128((__m128i *)acc, s);
}

#else /* not x86 */

#include <stdlib.h>

void polyval_blocks_clmulni(uint64_t *acc, const struct polyval_key *key, const uint8_t *data,
			    size_t nblocks)
{
	(void)acc; (void)key; (void)data; (void)nblocks;
	abort();
}

void polyval_blocks_vpclmul_avx512(uint64_t *acc, const struct polyval_key *key,
				   const uint8_t *data, size_t nblocks)
{
	(void)acc; (void)key; (void)data; (void)nblocks;
	abort();
}

#endif
