/*
 * NH with SSE2, the counterpart of the kernel's arch/x86/crypto/nh-sse2-x86_64.S
 * (used by the "nhpoly1305-sse2" shash through the generic streaming code).
 *
 * One 16-byte message unit per step, all four passes at once, each pass
 * accumulating into its own register of two 64-bit lanes.  Pairing words
 * (0,2) and (1,3) for pmuludq needs them in the even positions of the two
 * 64-bit lanes, i.e. the order (0,2,1,3).  That order is applied once to the
 * message unit and once to each 16-byte key chunk when it enters the sliding
 * window (each chunk serves four (unit, pass) pairs); since the reordering is
 * a lane permutation it commutes with the 32-bit additions.  Per pass and
 * unit that leaves paddd, psrlq, pmuludq and paddq.
 *
 * message_len is a multiple of 16 in 16..1024; key points at the key word
 * for the message's first byte (key + byte_offset / 4 for a piece of a
 * longer NH message) and only words up to key[message_len / 4 + 11] are read.
 */
#include "x86_common.h"
#include "nh_x86.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

#define NH_ORDER 0xd8 /* words (0,2,1,3) */

X86_TARGET_SSE2
static inline __m128i load_key(const uint32_t *k)
{
	return _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)k), NH_ORDER);
}

/* (m0+k0)*(m2+k2) in lane 0 and (m1+k1)*(m3+k3) in lane 1 */
X86_TARGET_SSE2
static inline __m128i nh_term(__m128i m, __m128i k)
{
	__m128i t = _mm_add_epi32(m, k);

	return _mm_mul_epu32(t, _mm_srli_epi64(t, 32));
}

X86_TARGET_SSE2
void nh_sse2(const uint32_t *key, const uint8_t *message, size_t message_len,
	     uint8_t hash[NH_HASH_BYTES])
{
	__m128i sum0 = _mm_setzero_si128(), sum1 = sum0, sum2 = sum0, sum3 = sum0;
	__m128i k0 = load_key(key + 0), k1 = load_key(key + 4);
	__m128i k2 = load_key(key + 8), k3, k4, m;

	/* two units per iteration: window k0..k4 covers both */
	for (; message_len >= 32; message_len -= 32, message += 32, key += 8) {
		k3 = load_key(key + 12);
		k4 = load_key(key + 16);
		m = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)message), NH_ORDER);
		sum0 = _mm_add_epi64(sum0, nh_term(m, k0));
		sum1 = _mm_add_epi64(sum1, nh_term(m, k1));
		sum2 = _mm_add_epi64(sum2, nh_term(m, k2));
		sum3 = _mm_add_epi64(sum3, nh_term(m, k3));
		m = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)(message + 16)),
				      NH_ORDER);
		sum0 = _mm_add_epi64(sum0, nh_term(m, k1));
		sum1 = _mm_add_epi64(sum1, nh_term(m, k2));
		sum2 = _mm_add_epi64(sum2, nh_term(m, k3));
		sum3 = _mm_add_epi64(sum3, nh_term(m, k4));
		k0 = k2;
		k1 = k3;
		k2 = k4;
	}
	if (message_len) {
		/* one unit left */
		k3 = load_key(key + 12);
		m = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)message), NH_ORDER);
		sum0 = _mm_add_epi64(sum0, nh_term(m, k0));
		sum1 = _mm_add_epi64(sum1, nh_term(m, k1));
		sum2 = _mm_add_epi64(sum2, nh_term(m, k2));
		sum3 = _mm_add_epi64(sum3, nh_term(m, k3));
	}

	/* fold the two lanes of each pass: [s0, s1] and [s2, s3] */
	_mm_storeu_si128((__m128i *)(hash + 0),
			 _mm_add_epi64(_mm_unpacklo_epi64(sum0, sum1),
				       _mm_unpackhi_epi64(sum0, sum1)));
	_mm_storeu_si128((__m128i *)(hash + 16),
			 _mm_add_epi64(_mm_unpacklo_epi64(sum2, sum3),
				       _mm_unpackhi_epi64(sum2, sum3)));
}

#else /* not x86 */

#include <stdlib.h>

void nh_sse2(const uint32_t *key, const uint8_t *message, size_t message_len,
	     uint8_t hash[NH_HASH_BYTES])
{
	(void)key; (void)message; (void)message_len; (void)hash;
	abort();
}

#endif
