/*
 * SHA-256 block function on the x86 SHA extensions (the role of the kernel's
 * arch/x86/crypto/sha256_ni_asm.S): the state is kept as ABEF/CDGH halves,
 * each SHA256RNDS2 does two rounds, SHA256MSG1/MSG2 extend the schedule
 * four words at a time.  Compiled with a per-function target attribute.
 */
#include "x86_common.h"
#include "sha256_generic.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

static const uint32_t K256[64] __attribute__((aligned(16))) = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

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
			m = _mm_add_epi32(w[g & 3], _mm_load_si128((const __m128i *)&K256[4 * g]));
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
