/*
 * Two-block Poly1305 with SSE2 (the role of v5.0's poly1305_2block_sse2 in
 * arch/x86/crypto/poly1305-sse2-x86_64.S): poly1305_lanes.h over 128-bit
 * vectors, pmuludq for the 32x32->64 products.  SSE2 is part of x86_64, so
 * this needs no target attribute.
 */
#include "poly1305_simd.h"

#if defined(__x86_64__)

#include <emmintrin.h>

#define PL_LANES 2
#define PL_V __m128i
#define PL_FN(name) name##_sse2
#define PL_ATTR
#define PL_add _mm_add_epi64
#define PL_mul _mm_mul_epu32
#define PL_and _mm_and_si128
#define PL_or _mm_or_si128
#define PL_srl _mm_srli_epi64
#define PL_sll _mm_slli_epi64
#define PL_set1(x) _mm_set1_epi64x((long long)(x))
#define PL_from(v) _mm_set_epi64x((long long)(v)[1], (long long)(v)[0])
#define PL_BLOCK_OF_LANE(j) (j)
#define PL_hsum(x) ((uint64_t)_mm_cvtsi128_si64(_mm_add_epi64((x), _mm_unpackhi_epi64((x), (x)))))
#define PL_load(src, lo, hi) do {						\
		__m128i b0_ = _mm_loadu_si128((const __m128i *)(src));		\
		__m128i b1_ = _mm_loadu_si128((const __m128i *)((src) + 16));	\
		(lo) = _mm_unpacklo_epi64(b0_, b1_);				\
		(hi) = _mm_unpackhi_epi64(b0_, b1_);				\
	} while (0)

#include "poly1305_lanes.h"

void poly1305_blocks_sse2(poly1305_core_state *h, const struct poly1305_simd_powers *pw,
			  const uint8_t *src, size_t steps, uint32_t hibit)
{
	pl_blocks_sse2(h, pw, src, steps, hibit);
}

#else /* not x86_64: never called there (the driver needs x86_64) */

#include <stdlib.h>

void poly1305_blocks_sse2(poly1305_core_state *h, const struct poly1305_simd_powers *pw,
			  const uint8_t *src, size_t steps, uint32_t hibit)
{
	(void)h; (void)pw; (void)src; (void)steps; (void)hibit;
	abort();
}

#endif
