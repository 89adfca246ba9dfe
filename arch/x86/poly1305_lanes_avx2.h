/*
 * poly1305_lanes.h instantiated for AVX2: four blocks per step in 256-bit
 * vectors (vpmuludq), every function marked target("avx2") so that the
 * includer may itself be built without -mavx2.  Included by
 * poly1305_avx2.c (the poly1305-simd block function) and by the stitched
 * ChaCha20-Poly1305 loop.
 */
#ifndef CRYPTO_API_POLY1305_LANES_AVX2_H
#define CRYPTO_API_POLY1305_LANES_AVX2_H

#include <immintrin.h>

#include "poly1305_simd.h"

#define PL_LANES 4
#define PL_V __m256i
#define PL_FN(name) name##_avx2
#define PL_ATTR __attribute__((target("avx2")))
#define PL_add _mm256_add_epi64
#define PL_mul _mm256_mul_epu32
#define PL_and _mm256_and_si256
#define PL_or _mm256_or_si256
#define PL_srl _mm256_srli_epi64
#define PL_sll _mm256_slli_epi64
#define PL_set1(x) _mm256_set1_epi64x((long long)(x))
#define PL_from(v) _mm256_set_epi64x((long long)(v)[3], (long long)(v)[2], \
				     (long long)(v)[1], (long long)(v)[0])
#define PL_hsum(x) poly1305_hsum_avx2(x)
/* unpack within 128-bit halves leaves blocks 0, 2, 1, 3 in lanes 0..3; the
 * final multipliers follow that order instead of a vpermq per load */
#define PL_BLOCK_OF_LANE(j) ((j) == 1 ? 2 : (j) == 2 ? 1 : (j))
#define PL_load(src, lo, hi) do {							\
		__m256i b01_ = _mm256_loadu_si256((const __m256i *)(src));		\
		__m256i b23_ = _mm256_loadu_si256((const __m256i *)((src) + 32));	\
		(lo) = _mm256_unpacklo_epi64(b01_, b23_);				\
		(hi) = _mm256_unpackhi_epi64(b01_, b23_);				\
	} while (0)

static inline __attribute__((target("avx2"))) uint64_t poly1305_hsum_avx2(__m256i x)
{
	__m128i s = _mm_add_epi64(_mm256_castsi256_si128(x), _mm256_extracti128_si256(x, 1));

	return (uint64_t)_mm_cvtsi128_si64(_mm_add_epi64(s, _mm_unpackhi_epi64(s, s)));
}

#include "poly1305_lanes.h"

#endif
