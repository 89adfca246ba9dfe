/*
 * ChaCha / HChaCha with SSSE3 (128-bit vectors), the counterpart of the
 * kernel's arch/x86/crypto/chacha-ssse3-x86_64.S plus the SSSE3 part of the
 * v5.0 length dispatch in arch/x86/crypto/chacha_glue.c.
 *
 * Two kernels:
 *   - one block: the 4x4 state lives in four registers (one row each); the
 *     diagonal round is reached by rotating rows 1-3 with pshufd;
 *   - four blocks: sixteen registers, register i holding word i of four
 *     consecutive blocks (counters +0..+3), so every quarter-round is four
 *     independent lanes; the result is transposed back to block order.
 * Rotations by 16 and 8 are byte permutations (pshufb), 12 and 7 use shifts.
 *
 * This file is also compiled into the AVX2 and AVX-512 extensions, which use
 * it for HChaCha and short leftovers; its functions are SSSE3 code there too
 * (target attributes, see x86_common.h).  The exported entries wipe the
 * stack their worker used (keystream, spilled state) before returning.
 */
#include "chacha_x86.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

X86_TARGET_SSSE3
static inline __m128i rotl16_128(__m128i x)
{
	const __m128i m = _mm_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5,
					10, 11, 8, 9, 14, 15, 12, 13);
	return _mm_shuffle_epi8(x, m);
}

X86_TARGET_SSSE3
static inline __m128i rotl8_128(__m128i x)
{
	const __m128i m = _mm_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6,
					11, 8, 9, 10, 15, 12, 13, 14);
	return _mm_shuffle_epi8(x, m);
}

#define ROTL128(x, n) _mm_or_si128(_mm_slli_epi32((x), (n)), _mm_srli_epi32((x), 32 - (n)))

/* One quarter-round applied lane-wise to four vectors. */
#define QR128(a, b, c, d)                                                     \
	do {                                                                  \
		a = _mm_add_epi32(a, b); d = rotl16_128(_mm_xor_si128(d, a)); \
		c = _mm_add_epi32(c, d); b = _mm_xor_si128(b, c);             \
		b = ROTL128(b, 12);                                           \
		a = _mm_add_epi32(a, b); d = rotl8_128(_mm_xor_si128(d, a));  \
		c = _mm_add_epi32(c, d); b = _mm_xor_si128(b, c);             \
		b = ROTL128(b, 7);                                            \
	} while (0)

/*
 * Rounds on a row-per-register state (a = row 0 ... d = row 3).  The
 * diagonals are lined up in columns by turning rows a, c and d against b
 * (lane j then holds a[j-1], b[j], c[j+1], d[j+2]), not b, c and d against
 * a: b is the last row a quarter-round writes and the first the next one
 * reads, so a shuffle of b would sit on the dependency chain of every
 * round, while a, c and d are ready early (one cycle less per round; a
 * single block is bound by that chain, e.g. HChaCha).
 */
X86_TARGET_SSSE3
static inline void permute_rows(__m128i *pa, __m128i *pb, __m128i *pc,
				__m128i *pd, int nrounds)
{
	__m128i a = *pa, b = *pb, c = *pc, d = *pd;
	int i;

	for (i = 0; i < nrounds; i += 2) {
		QR128(a, b, c, d);
		a = _mm_shuffle_epi32(a, 0x93);		/* a3 a0 a1 a2 */
		c = _mm_shuffle_epi32(c, 0x39);		/* c1 c2 c3 c0 */
		d = _mm_shuffle_epi32(d, 0x4e);		/* d2 d3 d0 d1 */
		QR128(a, b, c, d);
		a = _mm_shuffle_epi32(a, 0x39);
		c = _mm_shuffle_epi32(c, 0x93);
		d = _mm_shuffle_epi32(d, 0x4e);
	}
	*pa = a; *pb = b; *pc = c; *pd = d;
}

X86_TARGET_SSSE3
static inline __m128i load128(const uint8_t *p)
{
	return _mm_loadu_si128((const __m128i *)p);
}

X86_TARGET_SSSE3
static inline void store128(uint8_t *p, __m128i v)
{
	_mm_storeu_si128((__m128i *)p, v);
}

/*
 * dst = src ^ ks for len bytes (len <= 16 * n), ks given as n 16-byte
 * chunks.  Whole chunks go straight to memory; a trailing partial chunk is
 * XORed in a stack buffer so nothing past src/dst + len is accessed.
 */
X86_TARGET_SSSE3
static inline void xor_chunks128(uint8_t *dst, const uint8_t *src, size_t len,
				 const __m128i *ks)
{
	size_t i;

	for (i = 0; i + 16 <= len; i += 16, ks++)
		store128(dst + i, _mm_xor_si128(load128(src + i), *ks));
	if (i < len) {
		uint8_t buf[16];

		memcpy(buf, src + i, len - i);
		store128(buf, _mm_xor_si128(load128(buf), *ks));
		memcpy(dst + i, buf, len - i);
		crypto_memzero(buf, sizeof(buf));
	}
}

X86_TARGET_SSSE3
void chacha_block_xor_ssse3(const uint32_t state[16], uint8_t *dst,
			    const uint8_t *src, size_t len, int nrounds)
{
	const __m128i s0 = _mm_loadu_si128((const __m128i *)(state + 0));
	const __m128i s1 = _mm_loadu_si128((const __m128i *)(state + 4));
	const __m128i s2 = _mm_loadu_si128((const __m128i *)(state + 8));
	const __m128i s3 = _mm_loadu_si128((const __m128i *)(state + 12));
	__m128i ks[4];

	ks[0] = s0; ks[1] = s1; ks[2] = s2; ks[3] = s3;
	permute_rows(&ks[0], &ks[1], &ks[2], &ks[3], nrounds);
	ks[0] = _mm_add_epi32(ks[0], s0);
	ks[1] = _mm_add_epi32(ks[1], s1);
	ks[2] = _mm_add_epi32(ks[2], s2);
	ks[3] = _mm_add_epi32(ks[3], s3);

	if (len >= 64) {
		store128(dst + 0, _mm_xor_si128(load128(src + 0), ks[0]));
		store128(dst + 16, _mm_xor_si128(load128(src + 16), ks[1]));
		store128(dst + 32, _mm_xor_si128(load128(src + 32), ks[2]));
		store128(dst + 48, _mm_xor_si128(load128(src + 48), ks[3]));
	} else {
		xor_chunks128(dst, src, len, ks);
		crypto_memzero(ks, sizeof(ks));
	}
}

/*
 * Transpose the 4x4 word matrix held in v[0..3] (v[i] = word i of blocks
 * 0..3) so that out[b] = those four words of block b.
 */
X86_TARGET_SSSE3
static inline void transpose4(__m128i *v)
{
	__m128i t0 = _mm_unpacklo_epi32(v[0], v[1]);
	__m128i t1 = _mm_unpacklo_epi32(v[2], v[3]);
	__m128i t2 = _mm_unpackhi_epi32(v[0], v[1]);
	__m128i t3 = _mm_unpackhi_epi32(v[2], v[3]);

	v[0] = _mm_unpacklo_epi64(t0, t1);
	v[1] = _mm_unpackhi_epi64(t0, t1);
	v[2] = _mm_unpacklo_epi64(t2, t3);
	v[3] = _mm_unpackhi_epi64(t2, t3);
}

X86_TARGET_SSSE3
void chacha_4block_xor_ssse3(const uint32_t state[16], uint8_t *dst,
			     const uint8_t *src, size_t len, int nrounds)
{
	__m128i x[16], y[16], ks[16];
	int i;

	for (i = 0; i < 16; i++)
		x[i] = _mm_set1_epi32((int)state[i]);
	x[12] = _mm_add_epi32(x[12], _mm_setr_epi32(0, 1, 2, 3));

	for (i = 0; i < nrounds; i += 2) {
		QR128(x[0], x[4], x[8], x[12]);
		QR128(x[1], x[5], x[9], x[13]);
		QR128(x[2], x[6], x[10], x[14]);
		QR128(x[3], x[7], x[11], x[15]);
		QR128(x[0], x[5], x[10], x[15]);
		QR128(x[1], x[6], x[11], x[12]);
		QR128(x[2], x[7], x[8], x[13]);
		QR128(x[3], x[4], x[9], x[14]);
	}

	/* x never has its address taken, so it can stay in registers */
	for (i = 0; i < 16; i++)
		y[i] = _mm_add_epi32(x[i], _mm_set1_epi32((int)state[i]));
	y[12] = _mm_add_epi32(y[12], _mm_setr_epi32(0, 1, 2, 3));

	/* group g (words 4g..4g+3) of block b becomes chunk 4b + g */
	for (i = 0; i < 4; i++) {
		transpose4(&y[4 * i]);
		ks[0 + i] = y[4 * i + 0];
		ks[4 + i] = y[4 * i + 1];
		ks[8 + i] = y[4 * i + 2];
		ks[12 + i] = y[4 * i + 3];
	}

	if (len >= 256) {
		for (i = 0; i < 16; i++)
			store128(dst + 16 * i,
				 _mm_xor_si128(load128(src + 16 * i), ks[i]));
	} else {
		xor_chunks128(dst, src, len, ks);
		crypto_memzero(ks, sizeof(ks));
	}
}

X86_TARGET_SSSE3
X86_INTERNAL __attribute__((noinline)) void
chacha_ssse3_blocks(uint32_t state[16], uint8_t *dst, const uint8_t *src, size_t bytes,
                    int nrounds)
{
	while (bytes >= 4 * CHACHA_BLOCK_SIZE) {
		chacha_4block_xor_ssse3(state, dst, src, 4 * CHACHA_BLOCK_SIZE,
					nrounds);
		bytes -= 4 * CHACHA_BLOCK_SIZE;
		src += 4 * CHACHA_BLOCK_SIZE;
		dst += 4 * CHACHA_BLOCK_SIZE;
		state[12] += 4;
	}
	if (bytes > CHACHA_BLOCK_SIZE) {
		chacha_4block_xor_ssse3(state, dst, src, bytes, nrounds);
		state[12] += chacha_blocks_for(bytes);
		return;
	}
	if (bytes) {
		chacha_block_xor_ssse3(state, dst, src, bytes, nrounds);
		state[12]++;
	}
}

X86_TARGET_SSSE3
static __attribute__((noinline)) void
hchacha_ssse3_rounds(const uint32_t state[16], uint32_t out[8], int nrounds)
{
	__m128i a = _mm_loadu_si128((const __m128i *)(state + 0));
	__m128i b = _mm_loadu_si128((const __m128i *)(state + 4));
	__m128i c = _mm_loadu_si128((const __m128i *)(state + 8));
	__m128i d = _mm_loadu_si128((const __m128i *)(state + 12));

	permute_rows(&a, &b, &c, &d, nrounds);
	_mm_storeu_si128((__m128i *)(out + 0), a);
	_mm_storeu_si128((__m128i *)(out + 4), d);
}

/* The exported entry: the worker, then the stack it used wiped (keystream, spills). */
void chacha_dosimd_ssse3(uint32_t state[16], uint8_t *dst, const uint8_t *src,
			size_t bytes, int nrounds)
{
	chacha_ssse3_blocks(state, dst, src, bytes, nrounds);
	memzero_stack(CHACHA_SSSE3_STACK_USE);
}

/* The exported entry: the worker, then the stack it used wiped (keystream, spills). */
void hchacha_block_ssse3(const uint32_t state[16], uint32_t out[8], int nrounds)
{
	hchacha_ssse3_rounds(state, out, nrounds);
	memzero_stack(HCHACHA_SSSE3_STACK_USE);
}

#else /* not x86: stubs so the extension still builds; never called */

#include <stdlib.h>

void chacha_block_xor_ssse3(const uint32_t state[16], uint8_t *dst,
			    const uint8_t *src, size_t len, int nrounds)
{
	(void)state; (void)dst; (void)src; (void)len; (void)nrounds;
	abort();
}

void chacha_4block_xor_ssse3(const uint32_t state[16], uint8_t *dst,
			     const uint8_t *src, size_t len, int nrounds)
{
	(void)state; (void)dst; (void)src; (void)len; (void)nrounds;
	abort();
}

void chacha_dosimd_ssse3(uint32_t state[16], uint8_t *dst, const uint8_t *src,
			 size_t bytes, int nrounds)
{
	(void)state; (void)dst; (void)src; (void)bytes; (void)nrounds;
	abort();
}

void hchacha_block_ssse3(const uint32_t state[16], uint32_t out[8], int nrounds)
{
	(void)state; (void)out; (void)nrounds;
	abort();
}

#endif
