/*
 * One SHA-512 block function for the SSSE3 and AVX drivers of
 * arch/x86/crypto/sha512_ssse3_glue.c (sha512-ssse3 / sha512-avx; the
 * kernel's sha512-ssse3-asm.S and sha512-avx-asm.S), included by
 * sha512_simd.c once per driver with
 *
 *   SHA512_TARGET   the function attribute (X86_TARGET("..."))
 *   SHA512_NAME(x)  the name of x for this driver
 *
 * The message schedule is built two 64-bit words per 128-bit register: the
 * sixteen words of the block in eight registers (PSHUFB swaps each word to
 * big-endian), then each pair W[t], W[t+1] from the pairs 16, 15, 7 and 2
 * back (PALIGNR joins the halves of neighbouring pairs), K added in the same
 * registers, each pair computed eight pairs ahead of the scalar rounds
 * (sha512_rounds.h's) that run between.  The AVX build gets the
 * three-operand VEX forms of the same instructions.
 */

/* Each 64-bit lane of v rotated right by n. */
#define SHA512_VROR(v, n) _mm_or_si128(_mm_srli_epi64((v), (n)), _mm_slli_epi64((v), 64 - (n)))

/*
 * W[t], W[t+1] from the pairs that start 16 (p16), 14 (p14), 8 (p8), 6 (p6)
 * and 2 (p2) words back: p16 + s0(W[t-15..t-14]) + W[t-7..t-6] + s1(p2).
 */
SHA512_TARGET
static inline __m128i SHA512_NAME(next2)(__m128i p16, __m128i p14, __m128i p8, __m128i p6, __m128i p2)
{
	__m128i w15 = _mm_alignr_epi8(p14, p16, 8);
	__m128i w7 = _mm_alignr_epi8(p6, p8, 8);
	__m128i s0 = _mm_xor_si128(_mm_xor_si128(SHA512_VROR(w15, 1), SHA512_VROR(w15, 8)),
				   _mm_srli_epi64(w15, 7));
	__m128i s1 = _mm_xor_si128(_mm_xor_si128(SHA512_VROR(p2, 19), SHA512_VROR(p2, 61)),
				   _mm_srli_epi64(p2, 6));

	return _mm_add_epi64(_mm_add_epi64(p16, s0), _mm_add_epi64(w7, s1));
}

SHA512_TARGET
void SHA512_NAME(blocks)(void *state, const uint8_t *data, size_t nblocks)
{
	const __m128i bswap = _mm_set_epi8(8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);
	uint64_t *st = state;
	uint64_t wk[80] __attribute__((aligned(16)));
	__m128i p[8];
	int j;

	while (nblocks--) {
		uint64_t a = st[0], b = st[1], c = st[2], d = st[3];
		uint64_t e = st[4], f = st[5], g = st[6], h = st[7];
		uint64_t bc = b ^ c, tmp;

		for (j = 0; j < 8; j++) {
			p[j] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * j)), bswap);
			_mm_store_si128((__m128i *)&wk[2 * j],
					_mm_add_epi64(p[j], _mm_loadu_si128((const __m128i *)&SHA512_K[2 * j])));
		}
		/*
		 * Two rounds, then the schedule pair eight pairs ahead, so that the
		 * vector unit works beside the scalar rounds; unrolled whole, so
		 * that p[] stays in registers and the renames cost nothing.
		 */
#pragma GCC unroll 40
		for (j = 0; j < 40; j++) {
			SHA512_TWO_ROUNDS(wk[2 * j], wk[2 * j + 1], bc, tmp);
			if (j < 32) {
				p[j & 7] = SHA512_NAME(next2)(p[j & 7], p[(j + 1) & 7], p[(j + 4) & 7],
							      p[(j + 5) & 7], p[(j + 7) & 7]);
				_mm_store_si128((__m128i *)&wk[2 * j + 16],
						_mm_add_epi64(p[j & 7],
							      _mm_loadu_si128((const __m128i *)&SHA512_K[2 * j + 16])));
			}
		}
		st[0] += a; st[1] += b; st[2] += c; st[3] += d;
		st[4] += e; st[5] += f; st[6] += g; st[7] += h;
		data += SHA512_BLOCK_SIZE;
	}
	crypto_memzero(wk, sizeof(wk));
	crypto_memzero(p, sizeof(p));
}

#undef SHA512_VROR
