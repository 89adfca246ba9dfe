/*
 * NH with AVX2, the counterpart of the kernel's arch/x86/crypto/nh-avx2-x86_64.S
 * (used by the "nhpoly1305-avx2" shash through the generic streaming code).
 *
 * Two 16-byte message units per 256-bit register.  For units (u, u+1), pass
 * p needs key chunks (u+p, u+p+1), which is one unaligned 32-byte load; as
 * the loop advances two units, the key registers for passes 0 and 1 are the
 * previous iteration's passes 2 and 3, so only two new key registers are
 * loaded per iteration.  As in nh_sse2.c, words are put in the order
 * (0,2,1,3) (once per message register and once per key register) so each
 * pass is vpaddd, vpsrlq, vpmuludq, vpaddq.  Each pass sum holds four 64-bit
 * lanes that are folded at the end.
 *
 * Same contract as nh_sse2(): message_len a multiple of 16 in 16..1024, key
 * words read only up to key[message_len / 4 + 11].
 */
#include "x86_common.h"
#include "nh_x86.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

#define NH_ORDER 0xd8 /* words (0,2,1,3) in each 128-bit lane */

X86_TARGET_AVX2
static inline __m256i load_key2(const uint32_t *k)
{
	return _mm256_shuffle_epi32(_mm256_loadu_si256((const __m256i *)k), NH_ORDER);
}

X86_TARGET_AVX2
static inline __m256i nh_term2(__m256i m, __m256i k)
{
	__m256i t = _mm256_add_epi32(m, k);

	return _mm256_mul_epu32(t, _mm256_srli_epi64(t, 32));
}

X86_TARGET_AVX2
static inline __m128i nh_term1(__m128i m, __m128i k)
{
	__m128i t = _mm_add_epi32(m, k);

	return _mm_mul_epu32(t, _mm_srli_epi64(t, 32));
}

X86_TARGET_AVX2
void nh_avx2(const uint32_t *key, const uint8_t *message, size_t message_len,
	     uint8_t hash[NH_HASH_BYTES])
{
	__m256i sum0 = _mm256_setzero_si256(), sum1 = sum0, sum2 = sum0, sum3 = sum0;
	__m256i ka = load_key2(key + 0);	/* chunks u, u+1: pass 0 */
	__m256i kb = load_key2(key + 4);	/* chunks u+1, u+2: pass 1 */
	__m256i kc, kd, m;
	__m128i s0, s1, s2, s3;

	for (; message_len >= 32; message_len -= 32, message += 32, key += 8) {
		kc = load_key2(key + 8);	/* pass 2 */
		kd = load_key2(key + 12);	/* pass 3 */
		m = _mm256_shuffle_epi32(_mm256_loadu_si256((const __m256i *)message),
					 NH_ORDER);
		sum0 = _mm256_add_epi64(sum0, nh_term2(m, ka));
		sum1 = _mm256_add_epi64(sum1, nh_term2(m, kb));
		sum2 = _mm256_add_epi64(sum2, nh_term2(m, kc));
		sum3 = _mm256_add_epi64(sum3, nh_term2(m, kd));
		ka = kc;
		kb = kd;
	}

	s0 = _mm_add_epi64(_mm256_castsi256_si128(sum0), _mm256_extracti128_si256(sum0, 1));
	s1 = _mm_add_epi64(_mm256_castsi256_si128(sum1), _mm256_extracti128_si256(sum1, 1));
	s2 = _mm_add_epi64(_mm256_castsi256_si128(sum2), _mm256_extracti128_si256(sum2, 1));
	s3 = _mm_add_epi64(_mm256_castsi256_si128(sum3), _mm256_extracti128_si256(sum3, 1));

	if (message_len) {
		/* one unit left: its pass p key chunk is the low half of pass p's
		 * register; chunks for passes 2 and 3 are loaded as 16 bytes so
		 * nothing past key[message_len / 4 + 11] is touched */
		__m128i m1 = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)message),
					       NH_ORDER);
		__m128i kc1 = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)(key + 8)),
						NH_ORDER);
		__m128i kd1 = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)(key + 12)),
						NH_ORDER);

		s0 = _mm_add_epi64(s0, nh_term1(m1, _mm256_castsi256_si128(ka)));
		s1 = _mm_add_epi64(s1, nh_term1(m1, _mm256_castsi256_si128(kb)));
		s2 = _mm_add_epi64(s2, nh_term1(m1, kc1));
		s3 = _mm_add_epi64(s3, nh_term1(m1, kd1));
	}

	_mm_storeu_si128((__m128i *)(hash + 0),
			 _mm_add_epi64(_mm_unpacklo_epi64(s0, s1), _mm_unpackhi_epi64(s0, s1)));
	_mm_storeu_si128((__m128i *)(hash + 16),
			 _mm_add_epi64(_mm_unpacklo_epi64(s2, s3), _mm_unpackhi_epi64(s2, s3)));
}

#else /* not x86 */

#include <stdlib.h>

void nh_avx2(const uint32_t *key, const uint8_t *message, size_t message_len,
	     uint8_t hash[NH_HASH_BYTES])
{
	(void)key; (void)message; (void)message_len; (void)hash;
	abort();
}

#endif
