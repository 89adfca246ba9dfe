/*
 * POLYVAL blocks with carry-less multiplication (PCLMULQDQ), the work of
 * the kernel's arch/x86/crypto/polyval-clmulni_asm.S, one block at a time:
 * each step multiplies (acc ^ X) by the raw key H into 256 bits, then
 * reduces by x^-128 in two folds with the constant x^127 + x^126 + x^121
 * (a Montgomery reduction), which is exactly dot(acc ^ X, H) of RFC 8452.
 * Compiled with a per-function target attribute; the glue checks the CPU.
 */
#include "x86_common.h"
#include "polyval_clmulni.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

X86_TARGET("pclmul,sse2")
static inline __m128i polyval_fold(__m128i lo, __m128i poly)
{
	/* lo * x^-64: clear the low 64 bits with a multiple of P, then swap halves */
	__m128i t = _mm_clmulepi64_si128(lo, poly, 0x10);

	return _mm_xor_si128(_mm_shuffle_epi32(lo, 0x4e), t);
}

X86_TARGET("pclmul,sse2")
static inline __m128i polyval_dot(__m128i a, __m128i b, __m128i poly)
{
	__m128i lo = _mm_clmulepi64_si128(a, b, 0x00);
	__m128i hi = _mm_clmulepi64_si128(a, b, 0x11);
	__m128i mid = _mm_xor_si128(_mm_clmulepi64_si128(a, b, 0x10), _mm_clmulepi64_si128(a, b, 0x01));

	lo = _mm_xor_si128(lo, _mm_slli_si128(mid, 8));
	hi = _mm_xor_si128(hi, _mm_srli_si128(mid, 8));
	lo = polyval_fold(lo, poly);
	lo = polyval_fold(lo, poly);
	return _mm_xor_si128(hi, lo);
}

X86_TARGET("pclmul,sse2")
void polyval_blocks_clmulni(uint64_t *acc, const struct polyval_key *key, const uint8_t *data,
			    size_t nblocks)
{
	const __m128i poly = _mm_set_epi64x((long long)0xc200000000000000ULL, 1);
	__m128i h = _mm_loadu_si128((const __m128i *)key->raw);
	__m128i s = _mm_loadu_si128((const __m128i *)acc);

	for (size_t i = 0; i < nblocks; i++, data += 16)
		s = polyval_dot(_mm_xor_si128(s, _mm_loadu_si128((const __m128i *)data)), h, poly);
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

#endif
