/*
 * ChaCha with AVX2 (256-bit vectors), the counterpart of the kernel's
 * arch/x86/crypto/chacha-avx2-x86_64.S plus the AVX2 part of the v5.0 length
 * dispatch in arch/x86/crypto/chacha_glue.c.
 *
 * Kernels:
 *   - 2 blocks: each register holds one state row for two blocks (low
 *     128-bit lane = block n, high lane = block n+1); diagonals via vpshufd;
 *   - 4 blocks: two independent 2-block register sets, interleaved;
 *   - 8 blocks: register i holding word i of eight consecutive blocks;
 *     quarter-rounds two at a time, with two of the four "c" words kept on
 *     the stack (swapped twice per double round) and the byte-shuffle masks
 *     as memory operands, so that the sixteen registers hold the rest and
 *     the compiler spills nothing across the dependency chains (as
 *     OpenSSL's AVX2 8x code is laid out); 4x4 transposes inside each lane
 *     plus vperm2i128 put the keystream back in block order.
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

/* Byte shuffles by a mask in memory (vpshufb's memory operand): the masks
 * take no register, which the 8-block code has none of to spare. */
static const uint8_t rot16_mask[32] __attribute__((aligned(32))) = {
	2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,
	2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,
};
static const uint8_t rot8_mask[32] __attribute__((aligned(32))) = {
	3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14,
	3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14,
};
#define SHUF_MEM(x, mask) \
	__asm__("vpshufb %1, %0, %0" : "+x"(x) : "m"(*(const __m256i *)(mask)))

/*
 * Two quarter-rounds on word-sliced registers, interleaved op by op; the
 * rotations by 16 and 8 are byte shuffles, by 12 and 7 shift pairs.
 */
#define QR2_256(a0, b0, c0, d0, a1, b1, c1, d1)                                   \
	do {                                                                      \
		a0 = _mm256_add_epi32(a0, b0); a1 = _mm256_add_epi32(a1, b1);     \
		d0 = _mm256_xor_si256(d0, a0); d1 = _mm256_xor_si256(d1, a1);     \
		SHUF_MEM(d0, rot16_mask); SHUF_MEM(d1, rot16_mask);               \
		c0 = _mm256_add_epi32(c0, d0); c1 = _mm256_add_epi32(c1, d1);     \
		b0 = _mm256_xor_si256(b0, c0); b1 = _mm256_xor_si256(b1, c1);     \
		b0 = ROTL256(b0, 12); b1 = ROTL256(b1, 12);                       \
		a0 = _mm256_add_epi32(a0, b0); a1 = _mm256_add_epi32(a1, b1);     \
		d0 = _mm256_xor_si256(d0, a0); d1 = _mm256_xor_si256(d1, a1);     \
		SHUF_MEM(d0, rot8_mask); SHUF_MEM(d1, rot8_mask);                 \
		c0 = _mm256_add_epi32(c0, d0); c1 = _mm256_add_epi32(c1, d1);     \
		b0 = _mm256_xor_si256(b0, c0); b1 = _mm256_xor_si256(b1, c1);     \
		b0 = ROTL256(b0, 7); b1 = ROTL256(b1, 7);                         \
	} while (0)

X86_TARGET_AVX2
static void chacha_8block_xor_avx2(const uint32_t state[16], uint8_t *dst,
				   const uint8_t *src, size_t len, int nrounds)
{
	const __m256i ctr = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
	/* two of the four "c" words live on the stack at any time (14 state
	 * registers + 2 temporaries); the volatile stash keeps the compiler to
	 * that plan instead of spilling across the dependency chains */
	volatile __m256i stash[2];
	__m256i x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15;
	__m256i y[16], ks[16];
	int i;

	x0 = _mm256_set1_epi32((int)state[0]); x1 = _mm256_set1_epi32((int)state[1]);
	x2 = _mm256_set1_epi32((int)state[2]); x3 = _mm256_set1_epi32((int)state[3]);
	x4 = _mm256_set1_epi32((int)state[4]); x5 = _mm256_set1_epi32((int)state[5]);
	x6 = _mm256_set1_epi32((int)state[6]); x7 = _mm256_set1_epi32((int)state[7]);
	x8 = _mm256_set1_epi32((int)state[8]); x9 = _mm256_set1_epi32((int)state[9]);
	stash[0] = _mm256_set1_epi32((int)state[10]);
	stash[1] = _mm256_set1_epi32((int)state[11]);
	x12 = _mm256_add_epi32(_mm256_set1_epi32((int)state[12]), ctr);
	x13 = _mm256_set1_epi32((int)state[13]);
	x14 = _mm256_set1_epi32((int)state[14]); x15 = _mm256_set1_epi32((int)state[15]);

	for (i = 0; i < nrounds; i += 2) {
		/* columns 0 and 1 (x8, x9 in registers) */
		QR2_256(x0, x4, x8, x12, x1, x5, x9, x13);
		x10 = stash[0]; x11 = stash[1];
		stash[0] = x8; stash[1] = x9;
		/* columns 2 and 3 */
		QR2_256(x2, x6, x10, x14, x3, x7, x11, x15);
		/* diagonals (0,5,10,15) and (1,6,11,12) */
		QR2_256(x0, x5, x10, x15, x1, x6, x11, x12);
		x8 = stash[0]; x9 = stash[1];
		stash[0] = x10; stash[1] = x11;
		/* diagonals (2,7,8,13) and (3,4,9,14) */
		QR2_256(x2, x7, x8, x13, x3, x4, x9, x14);
	}
	x10 = stash[0]; x11 = stash[1];

	y[0] = x0; y[1] = x1; y[2] = x2; y[3] = x3; y[4] = x4; y[5] = x5; y[6] = x6; y[7] = x7;
	y[8] = x8; y[9] = x9; y[10] = x10; y[11] = x11; y[12] = x12; y[13] = x13; y[14] = x14;
	y[15] = x15;
	for (i = 0; i < 16; i++)
		y[i] = _mm256_add_epi32(y[i], _mm256_set1_epi32((int)state[i]));
	y[12] = _mm256_add_epi32(y[12], ctr);

	for (i = 0; i < 4; i++)
		transpose4_256(&y[4 * i]);
	if (len >= 512) {
		/* whole blocks: each group of four words straight to its two blocks */
		for (i = 0; i < 4; i++) {
			uint8_t *o = dst + 64 * i;
			const uint8_t *in = src + 64 * i;

			store256(o, _mm256_xor_si256(load256(in),
				 _mm256_permute2x128_si256(y[i], y[4 + i], 0x20)));
			store256(o + 32, _mm256_xor_si256(load256(in + 32),
				 _mm256_permute2x128_si256(y[8 + i], y[12 + i], 0x20)));
			store256(o + 256, _mm256_xor_si256(load256(in + 256),
				 _mm256_permute2x128_si256(y[i], y[4 + i], 0x31)));
			store256(o + 288, _mm256_xor_si256(load256(in + 288),
				 _mm256_permute2x128_si256(y[8 + i], y[12 + i], 0x31)));
		}
	} else {
		for (i = 0; i < 4; i++) {
			ks[2 * i + 0] = _mm256_permute2x128_si256(y[i], y[4 + i], 0x20);
			ks[2 * i + 1] = _mm256_permute2x128_si256(y[8 + i], y[12 + i], 0x20);
			ks[2 * i + 8] = _mm256_permute2x128_si256(y[i], y[4 + i], 0x31);
			ks[2 * i + 9] = _mm256_permute2x128_si256(y[8 + i], y[12 + i], 0x31);
		}
		xor_chunks256(dst, src, len, ks);
		crypto_memzero(ks, sizeof(ks));
	}
	/* (the stash is on the stack the entry point wipes) */
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
