/*
 * SHA-256 block function on the x86 SHA extensions (the role of the kernel's
 * arch/x86/crypto/sha256_ni_asm.S): the state is kept as ABEF/CDGH halves,
 * each SHA256RNDS2 does two rounds, SHA256MSG1/MSG2 extend the schedule
 * four words at a time.  Compiled with a per-function target attribute.
 */
#include "x86_common.h"
#include "sha256_x86.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

X86_TARGET("sha,sse4.1,ssse3")
void sha256_blocks_ni(uint32_t *state, const uint8_t *data, size_t nblocks)
{
	const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
	__m128i dcba = _mm_loadu_si128((const __m128i *)&state[0]);
	__m128i hgfe = _mm_loadu_si128((const __m128i *)&state[4]);
	__m128i cdab = _mm_shuffle_epi32(dcba, 0xb1);
	__m128i efgh = _mm_shuffle_epi32(hgfe, 0x1b);
	__m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
	__m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xf0);

	while (nblocks--) {
		__m128i w[4], abef0 = abef, cdgh0 = cdgh;

		/* unrolled whole, so that w[] stays in registers and no branch is left */
#pragma GCC unroll 16
		for (int g = 0; g < 16; g++) {
			__m128i m;

			if (g < 4) {
				w[g] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * g)), bswap);
			} else {
				/* W[t] from W[t-16] + s0(W[t-15]), W[t-7], s1(W[t-2]) */
				__m128i x = _mm_sha256msg1_epu32(w[g & 3], w[(g + 1) & 3]);

				x = _mm_add_epi32(x, _mm_alignr_epi8(w[(g + 3) & 3], w[(g + 2) & 3], 4));
				w[g & 3] = _mm_sha256msg2_epu32(x, w[(g + 3) & 3]);
			}
			m = _mm_add_epi32(w[g & 3], _mm_load_si128((const __m128i *)&SHA256_K[4 * g]));
			cdgh = _mm_sha256rnds2_epu32(cdgh, abef, m);
			abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(m, 0x0e));
		}
		abef = _mm_add_epi32(abef, abef0);
		cdgh = _mm_add_epi32(cdgh, cdgh0);
		data += SHA256_BLOCK_SIZE;
	}
	{
		__m128i feba = _mm_shuffle_epi32(abef, 0x1b);
		__m128i dchg = _mm_shuffle_epi32(cdgh, 0xb1);

		_mm_storeu_si128((__m128i *)&state[0], _mm_blend_epi16(feba, dchg, 0xf0));
		_mm_storeu_si128((__m128i *)&state[4], _mm_alignr_epi8(dchg, feba, 8));
	}
}

#else /* not x86 */

#include <stdlib.h>

void sha256_blocks_ni(uint32_t *state, const uint8_t *data, size_t nblocks)
{
	(void)state; (void)data; (void)nblocks;
	abort();
}

#endif
