/*
 * The 256-bit ChaCha pieces that the AVX2 and the AVX-512VL code share
 * (the kernel has them twice, in arch/x86/crypto/chacha-avx2-x86_64.S and
 * chacha-avx512vl-x86_64.S): the 2- and 4-block kernels in the row layout
 * (one state row of two blocks per register, diagonals by vpshufd), and the
 * in-lane transposes that put eight word-sliced blocks back in block order.
 *
 * Also the word-sliced state of eight blocks (words_bcast).
 *
 * A template: the including file defines, before including it,
 *   YMM_TARGET            the function attribute of its instruction set;
 *   YMM_ROT16/12/8/7(x)   the four rotations of a 32-bit lane;
 *   YMM_NAME(f)           its suffix on the kernels' names (f##_avx2);
 *   xor_tail256()         dst = src ^ ks over len < 32 * chunks bytes, the
 *                         last 32-byte chunk partial (a bounce buffer, or
 *                         AVX-512BW byte masks).
 * A partial result wipes its keystream copy before returning.
 */
#ifndef CHACHA_YMM_ROWS_H
#define CHACHA_YMM_ROWS_H

#define QR256(a, b, c, d)                                                        \
	do {                                                                     \
		a = _mm256_add_epi32(a, b); d = YMM_ROT16(_mm256_xor_si256(d, a));  \
		c = _mm256_add_epi32(c, d); b = YMM_ROT12(_mm256_xor_si256(b, c));  \
		a = _mm256_add_epi32(a, b); d = YMM_ROT8(_mm256_xor_si256(d, a));   \
		c = _mm256_add_epi32(c, d); b = YMM_ROT7(_mm256_xor_si256(b, c));   \
	} while (0)

#define DIAG256(b, c, d)                      \
	do {                                  \
		b = _mm256_shuffle_epi32(b, 0x39); \
		c = _mm256_shuffle_epi32(c, 0x4e); \
		d = _mm256_shuffle_epi32(d, 0x93); \
	} while (0)

#define UNDIAG256(b, c, d)                    \
	do {                                  \
		b = _mm256_shuffle_epi32(b, 0x93); \
		c = _mm256_shuffle_epi32(c, 0x4e); \
		d = _mm256_shuffle_epi32(d, 0x39); \
	} while (0)

YMM_TARGET
static inline __m256i load256(const uint8_t *p)
{
	return _mm256_loadu_si256((const __m256i *)p);
}

YMM_TARGET
static inline void store256(uint8_t *p, __m256i v)
{
	_mm256_storeu_si256((__m256i *)p, v);
}

/* dst = src ^ ks over len bytes: whole 32-byte chunks here, the rest by the
 * includer's xor_tail256; the keystream is wiped when the output is partial. */
YMM_TARGET
static inline void xor_ks256(uint8_t *dst, const uint8_t *src, size_t len,
			     __m256i *ks, size_t nks)
{
	size_t i;

	if (len >= 32 * nks) {
		for (i = 0; i < nks; i++)
			store256(dst + 32 * i, _mm256_xor_si256(load256(src + 32 * i), ks[i]));
		return;
	}
	for (i = 0; i + 32 <= len; i += 32)
		store256(dst + i, _mm256_xor_si256(load256(src + i), ks[i / 32]));
	if (i < len)
		xor_tail256(dst + i, src + i, len - i, ks[i / 32]);
	crypto_memzero(ks, nks * sizeof(*ks));
}

YMM_TARGET
static inline __m256i bcast_row(const uint32_t *row)
{
	return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)row));
}

/* Keystream for blocks (ctr+off, ctr+off+1) into ks[0..3] (32-byte chunks). */
YMM_TARGET
static inline void rows_to_ks(__m256i a, __m256i b, __m256i c, __m256i d,
			      __m256i *ks)
{
	ks[0] = _mm256_permute2x128_si256(a, b, 0x20);
	ks[1] = _mm256_permute2x128_si256(c, d, 0x20);
	ks[2] = _mm256_permute2x128_si256(a, b, 0x31);
	ks[3] = _mm256_permute2x128_si256(c, d, 0x31);
}

YMM_TARGET
static void YMM_NAME(chacha_2block_xor)(const uint32_t state[16], uint8_t *dst,
					const uint8_t *src, size_t len, int nrounds)
{
	const __m256i s0 = bcast_row(state + 0), s1 = bcast_row(state + 4);
	const __m256i s2 = bcast_row(state + 8);
	const __m256i s3 = _mm256_add_epi32(bcast_row(state + 12),
					    _mm256_setr_epi32(0, 0, 0, 0, 1, 0, 0, 0));
	__m256i a = s0, b = s1, c = s2, d = s3, ks[4];
	int i;

	for (i = 0; i < nrounds; i += 2) {
		QR256(a, b, c, d);
		DIAG256(b, c, d);
		QR256(a, b, c, d);
		UNDIAG256(b, c, d);
	}
	rows_to_ks(_mm256_add_epi32(a, s0), _mm256_add_epi32(b, s1),
		   _mm256_add_epi32(c, s2), _mm256_add_epi32(d, s3), ks);
	xor_ks256(dst, src, len, ks, 4);
}

YMM_TARGET
static void YMM_NAME(chacha_4block_xor)(const uint32_t state[16], uint8_t *dst,
					const uint8_t *src, size_t len, int nrounds)
{
	const __m256i s0 = bcast_row(state + 0), s1 = bcast_row(state + 4);
	const __m256i s2 = bcast_row(state + 8);
	const __m256i s3 = _mm256_add_epi32(bcast_row(state + 12),
					    _mm256_setr_epi32(0, 0, 0, 0, 1, 0, 0, 0));
	const __m256i t3 = _mm256_add_epi32(s3, _mm256_setr_epi32(2, 0, 0, 0, 2, 0, 0, 0));
	__m256i a0 = s0, b0 = s1, c0 = s2, d0 = s3;
	__m256i a1 = s0, b1 = s1, c1 = s2, d1 = t3;
	__m256i ks[8];
	int i;

	for (i = 0; i < nrounds; i += 2) {
		QR256(a0, b0, c0, d0);
		QR256(a1, b1, c1, d1);
		DIAG256(b0, c0, d0);
		DIAG256(b1, c1, d1);
		QR256(a0, b0, c0, d0);
		QR256(a1, b1, c1, d1);
		UNDIAG256(b0, c0, d0);
		UNDIAG256(b1, c1, d1);
	}
	rows_to_ks(_mm256_add_epi32(a0, s0), _mm256_add_epi32(b0, s1),
		   _mm256_add_epi32(c0, s2), _mm256_add_epi32(d0, s3), ks);
	rows_to_ks(_mm256_add_epi32(a1, s0), _mm256_add_epi32(b1, s1),
		   _mm256_add_epi32(c1, s2), _mm256_add_epi32(d1, t3), ks + 4);
	xor_ks256(dst, src, len, ks, 8);
}

/* Eight consecutive blocks' state, word-sliced: s[w] holds word w in every
 * lane, word 12 (the counter) plus 0..7 with 32-bit wrap-around. */
YMM_TARGET
static inline void words_bcast(__m256i s[16], const uint32_t state[16])
{
	int i;

	for (i = 0; i < 16; i++)
		s[i] = _mm256_set1_epi32((int)state[i]);
	s[12] = _mm256_add_epi32(s[12], _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

/* In-lane 4x4 word transpose of v[0..3]. */
YMM_TARGET
static inline void transpose4_256(__m256i *v)
{
	__m256i t0 = _mm256_unpacklo_epi32(v[0], v[1]);
	__m256i t1 = _mm256_unpacklo_epi32(v[2], v[3]);
	__m256i t2 = _mm256_unpackhi_epi32(v[0], v[1]);
	__m256i t3 = _mm256_unpackhi_epi32(v[2], v[3]);

	v[0] = _mm256_unpacklo_epi64(t0, t1);
	v[1] = _mm256_unpackhi_epi64(t0, t1);
	v[2] = _mm256_unpacklo_epi64(t2, t3);
	v[3] = _mm256_unpackhi_epi64(t2, t3);
}

/*
 * Eight word-sliced blocks (y[w] = word w of blocks 0..7, y is clobbered)
 * into ks[0..15] in block order.  After the in-lane transposes y[4g + k] =
 * [block k | block k+4] words 4g..4g+3; block k's first 32 bytes are groups
 * 0 and 1, its last 32 bytes groups 2 and 3.
 */
YMM_TARGET
static inline void words_to_ks(__m256i y[16], __m256i ks[16])
{
	int i;

	for (i = 0; i < 4; i++)
		transpose4_256(&y[4 * i]);
	for (i = 0; i < 4; i++) {
		ks[2 * i + 0] = _mm256_permute2x128_si256(y[i], y[4 + i], 0x20);
		ks[2 * i + 1] = _mm256_permute2x128_si256(y[8 + i], y[12 + i], 0x20);
		ks[2 * i + 8] = _mm256_permute2x128_si256(y[i], y[4 + i], 0x31);
		ks[2 * i + 9] = _mm256_permute2x128_si256(y[8 + i], y[12 + i], 0x31);
	}
}

#endif /* CHACHA_YMM_ROWS_H */
