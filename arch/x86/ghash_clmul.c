/*
 * GHASH with carry-less multiplication (PCLMULQDQ).  Field elements are
 * byte-reversed on load, so bit m of the 128-bit register is the
 * coefficient of x^(127-m) ("reflected"); multiplying by x is then a right
 * shift.  The 128x128 carry-less product of two reflected elements, shifted
 * left by one bit, is the reflected 256-bit product: its high half holds
 * the coefficients of x^0..x^127, its low half L those of x^128..x^255.
 * Since x^128 = 1 + x + x^2 + x^7 modulo the GCM polynomial, L folds in as
 * L*(1 + x + x^2 + x^7); the bits that this pushes past x^127 are
 * O = the low bits of L placed at the top (L<<127 ^ L<<126 ^ L<<121), and
 * they fold the same way without overflowing again, so
 * result = high ^ fold(L ^ O) with fold(V) = V ^ V>>1 ^ V>>2 ^ V>>7.
 * Per-function target attribute: the glue checks the CPU before calling.
 */
#include "x86_common.h"
#include "ghash_clmul.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

#define TARGET_CLMUL X86_TARGET("pclmul,ssse3")

TARGET_CLMUL static inline __m128i bswap128(__m128i v)
{
	const __m128i rev = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);

	return _mm_shuffle_epi8(v, rev);
}

/* 128-bit shifts of a whole register (k in 1..63) */
TARGET_CLMUL static inline __m128i shr128(__m128i v, int k)
{
	return _mm_or_si128(_mm_srli_epi64(v, k), _mm_slli_epi64(_mm_srli_si128(v, 8), 64 - k));
}

TARGET_CLMUL static inline __m128i fold(__m128i v)
{
	return _mm_xor_si128(_mm_xor_si128(v, shr128(v, 1)),
			     _mm_xor_si128(shr128(v, 2), shr128(v, 7)));
}

TARGET_CLMUL static __m128i gf128_mul_reflected(__m128i a, __m128i b)
{
	__m128i lo = _mm_clmulepi64_si128(a, b, 0x00);
	__m128i hi = _mm_clmulepi64_si128(a, b, 0x11);
	__m128i mid = _mm_xor_si128(_mm_clmulepi64_si128(a, b, 0x01),
				    _mm_clmulepi64_si128(a, b, 0x10));
	__m128i top, ovf;

	lo = _mm_xor_si128(lo, _mm_slli_si128(mid, 8));
	hi = _mm_xor_si128(hi, _mm_srli_si128(mid, 8));
	/* the 256-bit hi:lo one bit to the left */
	top = _mm_srli_epi64(_mm_srli_si128(lo, 8), 63);		/* bit 127 of lo */
	hi = _mm_or_si128(_mm_or_si128(_mm_slli_epi64(hi, 1),
				       _mm_srli_epi64(_mm_slli_si128(hi, 8), 63)), top);
	lo = _mm_or_si128(_mm_slli_epi64(lo, 1), _mm_srli_epi64(_mm_slli_si128(lo, 8), 63));
	/* O: bits 0..6 of lo moved to the top (only the low 64-bit lane counts) */
	ovf = _mm_xor_si128(_mm_xor_si128(_mm_slli_epi64(lo, 63), _mm_slli_epi64(lo, 62)),
			    _mm_slli_epi64(lo, 57));
	ovf = _mm_slli_si128(ovf, 8);
	return _mm_xor_si128(hi, fold(_mm_xor_si128(lo, ovf)));
}

TARGET_CLMUL
void ghash_blocks_clmul(uint8_t *acc, const struct ghash_key *key,
			const uint8_t *data, size_t nblocks)
{
	__m128i h = _mm_set_epi64x((long long)key->hi, (long long)key->lo);
	__m128i y = bswap128(_mm_loadu_si128((const __m128i *)acc));

	for (; nblocks; nblocks--, data += 16) {
		y = _mm_xor_si128(y, bswap128(_mm_loadu_si128((const __m128i *)data)));
		y = gf128_mul_reflected(y, h);
	}
	_mm_storeu_si128((__m128i *)acc, bswap128(y));
}

#else /* not x86 */

#include <stdlib.h>

void ghash_blocks_clmul(uint8_t *acc, const struct ghash_key *key,
			const uint8_t *data, size_t nblocks)
{
	(void)acc; (void)key; (void)data; (void)nblocks;
	abort();
}

#endif
