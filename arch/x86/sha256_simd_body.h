/*
 * One SHA-256 block function for the SSSE3, AVX and AVX2 drivers of
 * arch/x86/crypto/sha256_ssse3_glue.c (sha256-ssse3 / -avx / -avx2; the
 * kernel's sha256-ssse3-asm.S, sha256-avx-asm.S, sha256-avx2-asm.S), included
 * by sha256_simd.c once per driver with
 *
 *   SHA_TARGET   the function attribute (X86_TARGET("..."))
 *   SHA_NAME(x)  the name of x for this driver
 *
 * The message schedule is extended four words at a time in 128-bit
 * registers (SSSE3's PSHUFB for the big-endian loads); the rounds are scalar
 * and take W[t] + K[t] from a small buffer.  The AVX build gets the VEX
 * forms of the same instructions, the AVX2 build BMI2's RORX for the round
 * rotations, as the kernel's -avx and -avx2 (rorx) variants do.
 */

#define SHA_ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

/* Each 32-bit lane rotated right by n. */
#define SHA_VROR(v, n) _mm_or_si128(_mm_srli_epi32((v), (n)), _mm_slli_epi32((v), 32 - (n)))

/* The next four schedule words from the last sixteen (x0 oldest). */
SHA_TARGET
static inline __m128i SHA_NAME(next4)(__m128i x0, __m128i x1, __m128i x2, __m128i x3)
{
	__m128i w15 = _mm_alignr_epi8(x1, x0, 4);	/* W[t-15 .. t-12] */
	__m128i w7 = _mm_alignr_epi8(x3, x2, 4);	/* W[t-7 .. t-4] */
	__m128i s0 = _mm_xor_si128(_mm_xor_si128(SHA_VROR(w15, 7), SHA_VROR(w15, 18)),
				   _mm_srli_epi32(w15, 3));
	__m128i t = _mm_add_epi32(_mm_add_epi32(x0, w7), s0);
	/* sigma1 of W[t-2], W[t-1] (x3's top lanes) into lanes 0, 1 ... */
	__m128i y = _mm_srli_si128(x3, 8);
	__m128i s1 = _mm_xor_si128(_mm_xor_si128(SHA_VROR(y, 17), SHA_VROR(y, 19)),
				   _mm_srli_epi32(y, 10));

	t = _mm_add_epi32(t, s1);			/* lanes 0, 1 are W[t], W[t+1] */
	/* ... then of the two new words into lanes 2, 3 */
	y = _mm_slli_si128(t, 8);
	s1 = _mm_xor_si128(_mm_xor_si128(SHA_VROR(y, 17), SHA_VROR(y, 19)),
			   _mm_srli_epi32(y, 10));
	return _mm_add_epi32(t, _mm_slli_si128(_mm_srli_si128(s1, 8), 8));
}

SHA_TARGET
void SHA_NAME(blocks)(uint32_t *state, const uint8_t *data, size_t nblocks)
{
	const __m128i bswap = _mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3);
	uint32_t wk[16] __attribute__((aligned(16)));
	__m128i x[4];
	int g, i;

	while (nblocks--) {
		uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
		uint32_t e = state[4], f = state[5], h = state[7], gg = state[6];

		/* unrolled whole, so that x[] stays in registers */
#pragma GCC unroll 16
		for (g = 0; g < 16; g++) {		/* four rounds per group */
			if (g < 4)
				x[g] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * g)),
							bswap);
			else
				x[g & 3] = SHA_NAME(next4)(x[g & 3], x[(g + 1) & 3], x[(g + 2) & 3],
							   x[(g + 3) & 3]);
			_mm_store_si128((__m128i *)&wk[4 * (g & 3)],
					_mm_add_epi32(x[g & 3],
						      _mm_load_si128((const __m128i *)&SHA256_K[4 * g])));
			for (i = 0; i < 4; i++) {
				uint32_t t1 = h + (SHA_ROR(e, 6) ^ SHA_ROR(e, 11) ^ SHA_ROR(e, 25)) +
					      ((e & f) ^ (~e & gg)) + wk[4 * (g & 3) + i];
				uint32_t t2 = (SHA_ROR(a, 2) ^ SHA_ROR(a, 13) ^ SHA_ROR(a, 22)) +
					      ((a & b) ^ (a & c) ^ (b & c));

				h = gg; gg = f; f = e; e = d + t1;
				d = c; c = b; b = a; a = t1 + t2;
			}
		}
		state[0] += a; state[1] += b; state[2] += c; state[3] += d;
		state[4] += e; state[5] += f; state[6] += gg; state[7] += h;
		data += SHA256_BLOCK_SIZE;
	}
	crypto_memzero(wk, sizeof(wk));
	crypto_memzero(x, sizeof(x));
}

#undef SHA_ROR
#undef SHA_VROR
