/*
 * GHASH with carry-less multiplication (PCLMULQDQ), one block per
 * multiplication; the field arithmetic is ghash_clmul_ops.h.
 * Per-function target attribute: the glue checks the CPU before calling.
 */
#include "x86_common.h"
#include "ghash_clmul.h"

#if defined(__x86_64__) || defined(__i386__)

#include "ghash_clmul_ops.h"

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
