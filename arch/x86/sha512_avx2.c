/*
 * The SHA-512 block function of sha512-avx2 (arch/x86/crypto/
 * sha512_ssse3_glue.c; the kernel's sha512-avx2-asm.S): two blocks at a
 * time.  Each 256-bit register holds a pair of schedule words of the first
 * block in its low 128-bit lane and the same pair of the second block in its
 * high lane; VPSHUFB and VPALIGNR work within lanes, so one pass of the
 * schedule serves both blocks.  The scalar rounds (sha512_rounds.h, with
 * BMI2's RORX) of the first block run interleaved with that schedule, those
 * of the second from the finished words.  An odd last block is scheduled in
 * both lanes and hashed once.  Call only on
 * a CPU with AVX (ymm state saved), AVX2 and BMI2, as the glue checks.
 */
#include "x86_common.h"
#include "sha512_x86.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

#include "sha512_rounds.h"

#define AVX2_TARGET X86_TARGET("avx2,bmi2")

/* Each 64-bit lane of v rotated right by n. */
#define VROR256(v, n) _mm256_or_si256(_mm256_srli_epi64((v), (n)), _mm256_slli_epi64((v), 64 - (n)))

/* The next schedule pair of both blocks; the arguments as sha512_simd_body.h's next2. */
AVX2_TARGET
static inline __m256i next2_x2(__m256i p16, __m256i p14, __m256i p8, __m256i p6, __m256i p2)
{
	__m256i s0 = _mm256_alignr_epi8(p14, p16, 8);
	__m256i s1 = p2;

	s0 = _mm256_xor_si256(_mm256_xor_si256(VROR256(s0, 1), VROR256(s0, 8)), _mm256_srli_epi64(s0, 7));
	s1 = _mm256_xor_si256(_mm256_xor_si256(VROR256(s1, 19), VROR256(s1, 61)), _mm256_srli_epi64(s1, 6));
	return _mm256_add_epi64(_mm256_add_epi64(p16, _mm256_alignr_epi8(p6, p8, 8)),
				_mm256_add_epi64(s0, s1));
}

/* Bytes 16j..16j+15 of block a (low lane) and of block b (high lane), each word byte-swapped. */
AVX2_TARGET
static inline __m256i load_pair(const uint8_t *a, const uint8_t *b, int j, __m256i bswap)
{
	__m256i v = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(a + 16 * j))),
					    _mm_loadu_si128((const __m128i *)(b + 16 * j)), 1);

	return _mm256_shuffle_epi8(v, bswap);
}

/* W[t] + K[t] of pair j of both blocks, into wk[0] (low lane) and wk[1] (high lane). */
AVX2_TARGET
static inline void store_wk(uint64_t wk[2][80], __m256i pair, int j)
{
	__m256i v = _mm256_add_epi64(pair, _mm256_broadcastsi128_si256(
					     _mm_loadu_si128((const __m128i *)&SHA512_K[2 * j])));

	_mm_store_si128((__m128i *)&wk[0][2 * j], _mm256_castsi256_si128(v));
	_mm_store_si128((__m128i *)&wk[1][2 * j], _mm256_extracti128_si256(v, 1));
}

AVX2_TARGET
void sha512_avx2_blocks(void *state, const uint8_t *data, size_t nblocks)
{
	const __m256i bswap = _mm256_broadcastsi128_si256(
		_mm_set_epi8(8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7));
	uint64_t *st = state;
	uint64_t wk[2][80] __attribute__((aligned(32)));
	__m256i p[8];
	int j;

	while (nblocks) {
		const uint8_t *second = nblocks > 1 ? data + SHA512_BLOCK_SIZE : data;
		uint64_t a = st[0], b = st[1], c = st[2], d = st[3];
		uint64_t e = st[4], f = st[5], g = st[6], h = st[7];
		uint64_t bc = b ^ c, tmp;

		for (j = 0; j < 8; j++) {
			p[j] = load_pair(data, second, j, bswap);
			store_wk(wk, p[j], j);
		}
		/*
		 * The first block's rounds, two at a time, each pair followed by
		 * the schedule pair (of both blocks) eight pairs ahead; unrolled
		 * whole, so that p[] stays in registers.
		 */
#pragma GCC unroll 40
		for (j = 0; j < 40; j++) {
			SHA512_TWO_ROUNDS(wk[0][2 * j], wk[0][2 * j + 1], bc, tmp);
			if (j < 32) {
				p[j & 7] = next2_x2(p[j & 7], p[(j + 1) & 7], p[(j + 4) & 7], p[(j + 5) & 7],
						    p[(j + 7) & 7]);
				store_wk(wk, p[j & 7], j + 8);
			}
		}
		st[0] += a; st[1] += b; st[2] += c; st[3] += d;
		st[4] += e; st[5] += f; st[6] += g; st[7] += h;
		if (nblocks == 1)
			break;
		sha512_rounds_wk(st, wk[1]);		/* the second block: its schedule is done */
		data += 2 * SHA512_BLOCK_SIZE;
		nblocks -= 2;
	}
	crypto_memzero(wk, sizeof(wk));
	crypto_memzero(p, sizeof(p));
}

#undef VROR256
#undef AVX2_TARGET

#else /* not x86: the glue never calls it */

#include <stdlib.h>

void sha512_avx2_blocks(void *state, const uint8_t *data, size_t nblocks)
{
	(void)state; (void)data; (void)nblocks;
	abort();
}

#endif
