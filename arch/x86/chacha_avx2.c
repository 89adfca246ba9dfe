/*
 * ChaCha with AVX2 (256-bit vectors), the counterpart of the kernel's
 * arch/x86/crypto/chacha-avx2-x86_64.S plus the AVX2 part of the v5.0 length
 * dispatch in arch/x86/crypto/chacha_glue.c.
 *
 * Kernels:
 *   - 2 blocks: each register holds one state row for two blocks (low
 *     128-bit lane = block n, high lane = block n+1); diagonals via vpshufd;
 *   - 4 blocks: two independent 2-block register sets, interleaved;
 *   - 8 blocks: sixteen registers, register i holding word i of eight
 *     consecutive blocks; 4x4 transposes inside each lane plus vperm2i128
 *     put the keystream back in block order.
 * Rotations by 16 and 8 use vpshufb, 12 and 7 shifts.  Remainders of 64
 * bytes or less go to the SSSE3 one-block code (chacha_ssse3.c, compiled
 * into this extension as SSSE3 code).  The exported entry wipes the stack
 * its worker used (keystream, spilled state) before returning.
 */
#include "chacha_x86.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

X86_TARGET_AVX2
static inline __m256i rotl16_256(__m256i x)
{
	const __m256i m = _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5,
					   10, 11, 8, 9, 14, 15, 12, 13,
					   2, 3, 0, 1, 6, 7, 4, 5,
					   10, 11, 8, 9, 14, 15, 12, 13);
	return _mm256_shuffle_epi8(x, m);
}

X86_TARGET_AVX2
static inline __m256i rotl8_256(__m256i x)
{
	const __m256i m = _mm256_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6,
					   11, 8, 9, 10, 15, 12, 13, 14,
					   3, 0, 1, 2, 7, 4, 5, 6,
					   11, 8, 9, 10, 15, 12, 13, 14);
	return _mm256_shuffle_epi8(x, m);
}

#define ROTL256(x, n) \
	_mm256_or_si256(_mm256_slli_epi32((x), (n)), _mm256_srli_epi32((x), 32 - (n)))

#define QR256(a, b, c, d)                                                        \
	do {                                                                     \
		a = _mm256_add_epi32(a, b); d = rotl16_256(_mm256_xor_si256(d, a)); \
		c = _mm256_add_epi32(c, d); b = _mm256_xor_si256(b, c);             \
		b = ROTL256(b, 12);                                                 \
		a = _mm256_add_epi32(a, b); d = rotl8_256(_mm256_xor_si256(d, a));  \
		c = _mm256_add_epi32(c, d); b = _mm256_xor_si256(b, c);             \
		b = ROTL256(b, 7);                                                  \
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

X86_TARGET_AVX2
static inline __m256i load256(const uint8_t *p)
{
	return _mm256_loadu_si256((const __m256i *)p);
}

X86_TARGET_AVX2
static inline void store256(uint8_t *p, __m256i v)
{
	_mm256_storeu_si256((__m256i *)p, v);
}

/* dst = src ^ ks over len bytes, ks as 32-byte chunks; bounce the tail. */
X86_TARGET_AVX2
static inline void xor_chunks256(uint8_t *dst, const uint8_t *src, size_t len,
				 const __m256i *ks)
{
	size_t i;

	for (i = 0; i + 32 <= len; i += 32, ks++)
		store256(dst + i, _mm256_xor_si256(load256(src + i), *ks));
	if (i < len) {
		uint8_t buf[32];

		memcpy(buf, src + i, len - i);
		store256(buf, _mm256_xor_si256(load256(buf), *ks));
		memcpy(dst + i, buf, len - i);
		crypto_memzero(buf, sizeof(buf));
	}
}

X86_TARGET_AVX2
static inline __m256i bcast_row(const uint32_t *row)
{
	return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)row));
}

/* Keystream for blocks (ctr+off, ctr+off+1) into ks[0..3] (32-byte chunks). */
X86_TARGET_AVX2
static inline void rows_to_ks(__m256i a, __m256i b, __m256i c, __m256i d,
			      __m256i *ks)
{
	ks[0] = _mm256_permute2x128_si256(a, b, 0x20);
	ks[1] = _mm256_permute2x128_si256(c, d, 0x20);
	ks[2] = _mm256_permute2x128_si256(a, b, 0x31);
	ks[3] = _mm256_permute2x128_si256(c, d, 0x31);
}

X86_TARGET_AVX2
static void chacha_2block_xor_avx2(const uint32_t state[16], uint8_t *dst,
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
	a = _mm256_add_epi32(a, s0);
	b = _mm256_add_epi32(b, s1);
	c = _mm256_add_epi32(c, s2);
	d = _mm256_add_epi32(d, s3);
	rows_to_ks(a, b, c, d, ks);
	if (len >= 128) {
		for (i = 0; i < 4; i++)
			store256(dst + 32 * i, _mm256_xor_si256(load256(src + 32 * i), ks[i]));
	} else {
		xor_chunks256(dst, src, len, ks);
		crypto_memzero(ks, sizeof(ks));
	}
}

X86_TARGET_AVX2
static void chacha_4block_xor_avx2(const uint32_t state[16], uint8_t *dst,
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
	a0 = _mm256_add_epi32(a0, s0);
	b0 = _mm256_add_epi32(b0, s1);
	c0 = _mm256_add_epi32(c0, s2);
	d0 = _mm256_add_epi32(d0, s3);
	a1 = _mm256_add_epi32(a1, s0);
	b1 = _mm256_add_epi32(b1, s1);
	c1 = _mm256_add_epi32(c1, s2);
	d1 = _mm256_add_epi32(d1, t3);
	rows_to_ks(a0, b0, c0, d0, ks);
	rows_to_ks(a1, b1, c1, d1, ks + 4);
	if (len >= 256) {
		for (i = 0; i < 8; i++)
			store256(dst + 32 * i, _mm256_xor_si256(load256(src + 32 * i), ks[i]));
	} else {
		xor_chunks256(dst, src, len, ks);
		crypto_memzero(ks, sizeof(ks));
	}
}

/* In-lane 4x4 word transpose of v[0..3]. */
X86_TARGET_AVX2
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

X86_TARGET_AVX2
static void chacha_8block_xor_avx2(const uint32_t state[16], uint8_t *dst,
				   const uint8_t *src, size_t len, int nrounds)
{
	const __m256i ctr = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
	__m256i x[16], y[16], ks[16];
	int i;

	for (i = 0; i < 16; i++)
		x[i] = _mm256_set1_epi32((int)state[i]);
	x[12] = _mm256_add_epi32(x[12], ctr);

	for (i = 0; i < nrounds; i += 2) {
		QR256(x[0], x[4], x[8], x[12]);
		QR256(x[1], x[5], x[9], x[13]);
		QR256(x[2], x[6], x[10], x[14]);
		QR256(x[3], x[7], x[11], x[15]);
		QR256(x[0], x[5], x[10], x[15]);
		QR256(x[1], x[6], x[11], x[12]);
		QR256(x[2], x[7], x[8], x[13]);
		QR256(x[3], x[4], x[9], x[14]);
	}

	/* (the working copy x never has its address taken, so it can stay in
	 * registers; the transposes below work on y) */
	for (i = 0; i < 16; i++)
		y[i] = _mm256_add_epi32(x[i], _mm256_set1_epi32((int)state[i]));
	y[12] = _mm256_add_epi32(y[12], ctr);

	/*
	 * After the in-lane transposes y[4g + k] = [block k | block k+4] words
	 * 4g..4g+3; block k's first 32 bytes are groups 0,1, the last 32 bytes
	 * groups 2,3.
	 */
	for (i = 0; i < 4; i++)
		transpose4_256(&y[4 * i]);
	for (i = 0; i < 4; i++) {
		ks[2 * i + 0] = _mm256_permute2x128_si256(y[i], y[4 + i], 0x20);
		ks[2 * i + 1] = _mm256_permute2x128_si256(y[8 + i], y[12 + i], 0x20);
		ks[2 * i + 8] = _mm256_permute2x128_si256(y[i], y[4 + i], 0x31);
		ks[2 * i + 9] = _mm256_permute2x128_si256(y[8 + i], y[12 + i], 0x31);
	}

	if (len >= 512) {
		for (i = 0; i < 16; i++)
			store256(dst + 32 * i, _mm256_xor_si256(load256(src + 32 * i), ks[i]));
	} else {
		xor_chunks256(dst, src, len, ks);
		crypto_memzero(ks, sizeof(ks));
	}
}

X86_TARGET_AVX2
X86_INTERNAL __attribute__((noinline)) void
chacha_avx2_blocks(uint32_t state[16], uint8_t *dst, const uint8_t *src, size_t bytes,
                   int nrounds)
{
	while (bytes >= 8 * CHACHA_BLOCK_SIZE) {
		chacha_8block_xor_avx2(state, dst, src, 8 * CHACHA_BLOCK_SIZE, nrounds);
		bytes -= 8 * CHACHA_BLOCK_SIZE;
		src += 8 * CHACHA_BLOCK_SIZE;
		dst += 8 * CHACHA_BLOCK_SIZE;
		state[12] += 8;
	}
	if (bytes > 4 * CHACHA_BLOCK_SIZE) {
		chacha_8block_xor_avx2(state, dst, src, bytes, nrounds);
		state[12] += chacha_blocks_for(bytes);
		return;
	}
	if (bytes > 2 * CHACHA_BLOCK_SIZE) {
		chacha_4block_xor_avx2(state, dst, src, bytes, nrounds);
		state[12] += chacha_blocks_for(bytes);
		return;
	}
	if (bytes > CHACHA_BLOCK_SIZE) {
		chacha_2block_xor_avx2(state, dst, src, bytes, nrounds);
		state[12] += chacha_blocks_for(bytes);
		return;
	}
	/* 0..64 bytes left: the SSSE3 path takes them (one block at most) */
	chacha_ssse3_blocks(state, dst, src, bytes, nrounds);
}

/* The exported entry: the worker, then the stack it used wiped (keystream, spills). */
void chacha_dosimd_avx2(uint32_t state[16], uint8_t *dst, const uint8_t *src,
			size_t bytes, int nrounds)
{
	chacha_avx2_blocks(state, dst, src, bytes, nrounds);
	memzero_stack(CHACHA_AVX2_STACK_USE);
}

#else /* not x86 */

#include <stdlib.h>

void chacha_dosimd_avx2(uint32_t state[16], uint8_t *dst, const uint8_t *src,
			size_t bytes, int nrounds)
{
	(void)state; (void)dst; (void)src; (void)bytes; (void)nrounds;
	abort();
}

#endif
