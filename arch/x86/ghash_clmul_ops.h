/*
 * The PCLMULQDQ GF(2^128) arithmetic of GHASH, shared by ghash_clmul.c (one
 * block per multiplication) and aesni_gcm.c (products of several blocks
 * summed before one reduction).  Field elements are byte-reversed on load,
 * so bit m of the 128-bit register is the coefficient of x^(127-m)
 * ("reflected"); multiplying by x is then a right shift.  The 128x128
 * carry-less product of two reflected elements, shifted left by one bit, is
 * the reflected 256-bit product: its high half holds the coefficients of
 * x^0..x^127, its low half L those of x^128..x^255.  Since x^128 = 1 + x +
 * x^2 + x^7 modulo the GCM polynomial, L folds in as L*(1 + x + x^2 + x^7);
 * the bits that this pushes past x^127 are O = the low bits of L placed at
 * the top (L<<127 ^ L<<126 ^ L<<121), and they fold the same way without
 * overflowing again, so result = high ^ fold(L ^ O) with
 * fold(V) = V ^ V>>1 ^ V>>2 ^ V>>7.  The reduction is linear, so a sum of
 * unreduced products reduces to the sum of the reduced ones.
 * No kernel counterpart as a file (the kernel's are assembly).
 */
#ifndef CRYPTO_API_GHASH_CLMUL_OPS_H
#define CRYPTO_API_GHASH_CLMUL_OPS_H

/* cdef: begin */
/* cdef: end */

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

#include "x86_common.h"

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

/* An unreduced carry-less product: lo + mid*x^64 + hi*x^128 (each 128 bits). */
struct clmul_sum {
	__m128i lo, mid, hi;
};

TARGET_CLMUL static inline void clmul_zero(struct clmul_sum *s)
{
	s->lo = s->mid = s->hi = _mm_setzero_si128();
}

/* s += a * b (carry-less, unreduced) */
TARGET_CLMUL static inline void clmul_add(struct clmul_sum *s, __m128i a, __m128i b)
{
	s->lo = _mm_xor_si128(s->lo, _mm_clmulepi64_si128(a, b, 0x00));
	s->hi = _mm_xor_si128(s->hi, _mm_clmulepi64_si128(a, b, 0x11));
	s->mid = _mm_xor_si128(s->mid, _mm_xor_si128(_mm_clmulepi64_si128(a, b, 0x01),
						     _mm_clmulepi64_si128(a, b, 0x10)));
}

/* The reflected field element of an unreduced product sum. */
TARGET_CLMUL static inline __m128i clmul_reduce(const struct clmul_sum *s)
{
	__m128i lo = _mm_xor_si128(s->lo, _mm_slli_si128(s->mid, 8));
	__m128i hi = _mm_xor_si128(s->hi, _mm_srli_si128(s->mid, 8));
	__m128i top, ovf;

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

/* a * b in the field (reflected elements). */
TARGET_CLMUL static inline __m128i gf128_mul_reflected(__m128i a, __m128i b)
{
	struct clmul_sum s;

	clmul_zero(&s);
	clmul_add(&s, a, b);
	return clmul_reduce(&s);
}

#endif /* x86 */

#endif
