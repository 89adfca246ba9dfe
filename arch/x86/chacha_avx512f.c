/*
 * ChaCha with AVX-512F (512-bit zmm vectors), sixteen blocks at a time.
 *
 * Beyond the v5.0 kernel: its x86 glue (arch/x86/crypto/chacha_glue.c) stops
 * at the AVX-512VL 8-block ymm code.  On CPUs with AVX-512F a zmm register
 * holds one state word of sixteen consecutive blocks, which halves the
 * instruction count per byte of the 8-block code; this file is the extra
 * path, with the same calling convention and the same bytes for every
 * length (see chacha_x86.h).
 *
 * 16-block kernel: register i holds word i of blocks n..n+15 (word 12 gets
 * the counters n+0..n+15); every rotation is a single vprold.  At the end a
 * 16x16 transpose of 32-bit words (vpunpck{l,h}dq, vpunpck{l,h}qdq, then two
 * rounds of vshufi32x4 on 128-bit lanes) leaves one block per register, and
 * a partial last block uses AVX-512BW byte masks, so no byte outside
 * src[0..len) / dst[0..len) is read or written.
 *
 * Dispatch per call: whole 1024-byte chunks with 16 blocks; a remainder of
 * more than CHACHA_AVX512_TAIL16 bytes with one more (partial) 16-block
 * call; anything shorter with the AVX-512VL 8/4/2-block code
 * (chacha_avx512vl.c, linked into the same extension).
 */
#include "chacha_x86.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

#include "poly1305_x86_64_asm.h"

/*
 * Remainders above this many bytes take one partial 16-block call rather
 * than the 8-block code.  Measured (Xeon, 12 and 20 rounds): at 520 and 576
 * bytes one 16-block call is 1.3x faster than 8 blocks + 2 blocks; at 320
 * and 448 bytes the 8-block call is 1.25x faster than 16 blocks (a
 * threshold of 256 bytes).  Whole 1024-byte chunks always use 16 blocks:
 * they win at every size from 1 KiB (1.5-1.7x the 8-block code).
 */
#ifndef CHACHA_AVX512_TAIL16
#define CHACHA_AVX512_TAIL16 (8 * CHACHA_BLOCK_SIZE)
#endif

#define QR512(a, b, c, d)                                                   \
	do {                                                                \
		a = _mm512_add_epi32(a, b); d = _mm512_xor_si512(d, a);     \
		d = _mm512_rol_epi32(d, 16);                                \
		c = _mm512_add_epi32(c, d); b = _mm512_xor_si512(b, c);     \
		b = _mm512_rol_epi32(b, 12);                                \
		a = _mm512_add_epi32(a, b); d = _mm512_xor_si512(d, a);     \
		d = _mm512_rol_epi32(d, 8);                                 \
		c = _mm512_add_epi32(c, d); b = _mm512_xor_si512(b, c);     \
		b = _mm512_rol_epi32(b, 7);                                 \
	} while (0)

#define DOUBLEROUND512()                                                    \
	do {                                                                \
		QR512(x0, x4, x8, x12);                                     \
		QR512(x1, x5, x9, x13);                                     \
		QR512(x2, x6, x10, x14);                                    \
		QR512(x3, x7, x11, x15);                                    \
		QR512(x0, x5, x10, x15);                                    \
		QR512(x1, x6, x11, x12);                                    \
		QR512(x2, x7, x8, x13);                                     \
		QR512(x3, x4, x9, x14);                                     \
	} while (0)

/*
 * The stitched form for the one-pass AEAD: after each quarter-round, the
 * next Poly1305 block while any is left (nb), in general-purpose registers
 * (poly1305_x86_64_asm.h), so the integer units hash while the vector units
 * make keystream.  Locals h0..h2, m, nb, t0..t3 and rk[] are the caller's.
 */
#define P512_SLOT()                                                         \
	do {                                                                \
		if (nb) {                                                   \
			__asm__(POLY1305_X86_64_BLOCK_ASM                   \
				: POLY1305_X86_64_BLOCK_OUTPUTS             \
				: POLY1305_X86_64_BLOCK_INPUTS,             \
				  "m"(*(const uint8_t (*)[16])m)            \
				: "cc", "rdx");                             \
			nb--;                                               \
		}                                                           \
	} while (0)

#define DOUBLEROUND512_POLY()                                               \
	do {                                                                \
		QR512(x0, x4, x8, x12); P512_SLOT();                        \
		QR512(x1, x5, x9, x13); P512_SLOT();                        \
		QR512(x2, x6, x10, x14); P512_SLOT();                       \
		QR512(x3, x7, x11, x15); P512_SLOT();                       \
		QR512(x0, x5, x10, x15); P512_SLOT();                       \
		QR512(x1, x6, x11, x12); P512_SLOT();                       \
		QR512(x2, x7, x8, x13); P512_SLOT();                        \
		QR512(x3, x4, x9, x14); P512_SLOT();                        \
	} while (0)

/*
 * 4x4 transpose of 128-bit lanes: a, b, c, d hold lane L of blocks
 * 4L+k (words 0-3, 4-7, 8-11, 12-15 respectively); afterwards a, b, c, d
 * are blocks k, 4+k, 8+k, 12+k, whole.
 */
#define LANES4(a, b, c, d)                                                  \
	do {                                                                \
		__m512i p0 = _mm512_shuffle_i32x4(a, b, 0x44);              \
		__m512i p1 = _mm512_shuffle_i32x4(a, b, 0xee);              \
		__m512i p2 = _mm512_shuffle_i32x4(c, d, 0x44);              \
		__m512i p3 = _mm512_shuffle_i32x4(c, d, 0xee);              \
		a = _mm512_shuffle_i32x4(p0, p2, 0x88);                     \
		b = _mm512_shuffle_i32x4(p0, p2, 0xdd);                     \
		c = _mm512_shuffle_i32x4(p1, p3, 0x88);                     \
		d = _mm512_shuffle_i32x4(p1, p3, 0xdd);                     \
	} while (0)

/*
 * In-lane 4x4 word transpose: a, b, c, d = words w..w+3 of 16 blocks;
 * afterwards lane L of a, b, c, d holds words w..w+3 of block 4L+0, 4L+1,
 * 4L+2, 4L+3.
 */
#define WORDS4(a, b, c, d)                                                  \
	do {                                                                \
		__m512i t0 = _mm512_unpacklo_epi32(a, b);                   \
		__m512i t1 = _mm512_unpackhi_epi32(a, b);                   \
		__m512i t2 = _mm512_unpacklo_epi32(c, d);                   \
		__m512i t3 = _mm512_unpackhi_epi32(c, d);                   \
		a = _mm512_unpacklo_epi64(t0, t2);                          \
		b = _mm512_unpackhi_epi64(t0, t2);                          \
		c = _mm512_unpacklo_epi64(t1, t3);                          \
		d = _mm512_unpackhi_epi64(t1, t3);                          \
	} while (0)

X86_TARGET_AVX512
static inline __m512i xor_block(const uint8_t *src, __m512i ks)
{
	return _mm512_xor_si512(_mm512_loadu_si512((const void *)src), ks);
}

/*
 * XOR the keystream of blocks state[12] .. state[12]+15 into src, len
 * bytes (1..1024), writing dst.  state is not modified.  With nb > 0 (the
 * stitched form; h and rk as in chacha_x86.h), nb Poly1305 blocks from m
 * are hashed during the rounds, before anything is written; every other
 * caller passes 0 and the slots compile away.
 */
X86_TARGET_AVX512
static inline __attribute__((always_inline)) void
chacha_16block_xor_avx512f(const uint32_t state[16], uint8_t *dst,
			   const uint8_t *src, size_t len, int nrounds,
			   uint64_t *h, const uint64_t *rk, const uint8_t *m, unsigned long nb)
{
	const __m512i ctr = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7,
					      8, 9, 10, 11, 12, 13, 14, 15);
	__m512i x0, x1, x2, x3, x4, x5, x6, x7;
	__m512i x8, x9, x10, x11, x12, x13, x14, x15;
	__m512i c12;
	int i;

	x0 = _mm512_set1_epi32((int)state[0]);
	x1 = _mm512_set1_epi32((int)state[1]);
	x2 = _mm512_set1_epi32((int)state[2]);
	x3 = _mm512_set1_epi32((int)state[3]);
	x4 = _mm512_set1_epi32((int)state[4]);
	x5 = _mm512_set1_epi32((int)state[5]);
	x6 = _mm512_set1_epi32((int)state[6]);
	x7 = _mm512_set1_epi32((int)state[7]);
	x8 = _mm512_set1_epi32((int)state[8]);
	x9 = _mm512_set1_epi32((int)state[9]);
	x10 = _mm512_set1_epi32((int)state[10]);
	x11 = _mm512_set1_epi32((int)state[11]);
	c12 = _mm512_add_epi32(_mm512_set1_epi32((int)state[12]), ctr);
	x12 = c12;
	x13 = _mm512_set1_epi32((int)state[13]);
	x14 = _mm512_set1_epi32((int)state[14]);
	x15 = _mm512_set1_epi32((int)state[15]);

#if defined(__x86_64__)
	if (nb) {
		uint64_t h0 = h[0], h1 = h[1], h2 = h[2], t0, t1, t2, t3;

		for (i = 0; i < nrounds; i += 2)
			DOUBLEROUND512_POLY();
		while (nb)		/* more blocks than slots */
			P512_SLOT();
		h[0] = h0;
		h[1] = h1;
		h[2] = h2;
	} else
#endif
	{
		(void)h; (void)rk; (void)m; (void)nb;
		for (i = 0; i < nrounds; i += 2)
			DOUBLEROUND512();
	}

	x0 = _mm512_add_epi32(x0, _mm512_set1_epi32((int)state[0]));
	x1 = _mm512_add_epi32(x1, _mm512_set1_epi32((int)state[1]));
	x2 = _mm512_add_epi32(x2, _mm512_set1_epi32((int)state[2]));
	x3 = _mm512_add_epi32(x3, _mm512_set1_epi32((int)state[3]));
	x4 = _mm512_add_epi32(x4, _mm512_set1_epi32((int)state[4]));
	x5 = _mm512_add_epi32(x5, _mm512_set1_epi32((int)state[5]));
	x6 = _mm512_add_epi32(x6, _mm512_set1_epi32((int)state[6]));
	x7 = _mm512_add_epi32(x7, _mm512_set1_epi32((int)state[7]));
	x8 = _mm512_add_epi32(x8, _mm512_set1_epi32((int)state[8]));
	x9 = _mm512_add_epi32(x9, _mm512_set1_epi32((int)state[9]));
	x10 = _mm512_add_epi32(x10, _mm512_set1_epi32((int)state[10]));
	x11 = _mm512_add_epi32(x11, _mm512_set1_epi32((int)state[11]));
	x12 = _mm512_add_epi32(x12, c12);
	x13 = _mm512_add_epi32(x13, _mm512_set1_epi32((int)state[13]));
	x14 = _mm512_add_epi32(x14, _mm512_set1_epi32((int)state[14]));
	x15 = _mm512_add_epi32(x15, _mm512_set1_epi32((int)state[15]));

	WORDS4(x0, x1, x2, x3);
	WORDS4(x4, x5, x6, x7);
	WORDS4(x8, x9, x10, x11);
	WORDS4(x12, x13, x14, x15);
	/* now x[4g + k], lane L = words 4g..4g+3 of block 4L + k */
	LANES4(x0, x4, x8, x12);	/* blocks 0, 4, 8, 12 */
	LANES4(x1, x5, x9, x13);	/* blocks 1, 5, 9, 13 */
	LANES4(x2, x6, x10, x14);	/* blocks 2, 6, 10, 14 */
	LANES4(x3, x7, x11, x15);	/* blocks 3, 7, 11, 15 */

	if (len >= 16 * CHACHA_BLOCK_SIZE) {
		_mm512_storeu_si512((void *)(dst + 0 * 64), xor_block(src + 0 * 64, x0));
		_mm512_storeu_si512((void *)(dst + 1 * 64), xor_block(src + 1 * 64, x1));
		_mm512_storeu_si512((void *)(dst + 2 * 64), xor_block(src + 2 * 64, x2));
		_mm512_storeu_si512((void *)(dst + 3 * 64), xor_block(src + 3 * 64, x3));
		_mm512_storeu_si512((void *)(dst + 4 * 64), xor_block(src + 4 * 64, x4));
		_mm512_storeu_si512((void *)(dst + 5 * 64), xor_block(src + 5 * 64, x5));
		_mm512_storeu_si512((void *)(dst + 6 * 64), xor_block(src + 6 * 64, x6));
		_mm512_storeu_si512((void *)(dst + 7 * 64), xor_block(src + 7 * 64, x7));
		_mm512_storeu_si512((void *)(dst + 8 * 64), xor_block(src + 8 * 64, x8));
		_mm512_storeu_si512((void *)(dst + 9 * 64), xor_block(src + 9 * 64, x9));
		_mm512_storeu_si512((void *)(dst + 10 * 64), xor_block(src + 10 * 64, x10));
		_mm512_storeu_si512((void *)(dst + 11 * 64), xor_block(src + 11 * 64, x11));
		_mm512_storeu_si512((void *)(dst + 12 * 64), xor_block(src + 12 * 64, x12));
		_mm512_storeu_si512((void *)(dst + 13 * 64), xor_block(src + 13 * 64, x13));
		_mm512_storeu_si512((void *)(dst + 14 * 64), xor_block(src + 14 * 64, x14));
		_mm512_storeu_si512((void *)(dst + 15 * 64), xor_block(src + 15 * 64, x15));
	} else {
		const __m512i ks[16] = { x0, x1, x2, x3, x4, x5, x6, x7,
					 x8, x9, x10, x11, x12, x13, x14, x15 };
		size_t off;

		for (i = 0, off = 0; off + CHACHA_BLOCK_SIZE <= len; i++, off += 64)
			_mm512_storeu_si512((void *)(dst + off), xor_block(src + off, ks[i]));
		if (off < len) {
			/* byte-masked: masked-off bytes are neither read nor written */
			const __mmask64 k = (__mmask64)((1ull << (len - off)) - 1);
			__m512i v = _mm512_maskz_loadu_epi8(k, src + off);

			_mm512_mask_storeu_epi8(dst + off, k, _mm512_xor_si512(v, ks[i]));
		}
	}
}

X86_TARGET_AVX512
X86_INTERNAL __attribute__((noinline)) void
chacha_avx512_blocks(uint32_t state[16], uint8_t *dst, const uint8_t *src, size_t bytes,
                     int nrounds)
{
	while (bytes >= 16 * CHACHA_BLOCK_SIZE) {
		chacha_16block_xor_avx512f(state, dst, src, 16 * CHACHA_BLOCK_SIZE,
					   nrounds, NULL, NULL, NULL, 0);
		bytes -= 16 * CHACHA_BLOCK_SIZE;
		src += 16 * CHACHA_BLOCK_SIZE;
		dst += 16 * CHACHA_BLOCK_SIZE;
		state[12] += 16;
	}
	if (bytes > CHACHA_AVX512_TAIL16) {
		chacha_16block_xor_avx512f(state, dst, src, bytes, nrounds, NULL, NULL, NULL, 0);
		state[12] += chacha_blocks_for(bytes);
		return;
	}
	if (bytes)
		chacha_avx512vl_blocks(state, dst, src, bytes, nrounds);
}

#if defined(__x86_64__)
/*
 * ChaCha20 over nchunks whole 1024-byte chunks with Poly1305 stitched into
 * the rounds, for the one-pass AEAD (chacha20poly1305_avx2.c): as
 * chacha_poly_8block_avx2 (chacha_avx2.c) with sixteen blocks a chunk and
 * 64 MAC blocks in its 80 slots.
 */
X86_TARGET("avx2,avx512f,avx512vl,avx512bw,bmi2")
void chacha_poly_16block_avx512(uint32_t state[16], uint8_t *dst, const uint8_t *src,
				size_t nchunks, uint64_t h[3], const uint64_t rk[4], int sealing)
{
	const size_t chunk = 16 * CHACHA_BLOCK_SIZE;
	size_t i;

	for (i = 0; i < nchunks; i++) {
		uint8_t *d = dst + chunk * i;
		const uint8_t *s = src + chunk * i;

		if (!sealing)
			chacha_16block_xor_avx512f(state, d, s, chunk, 20, h, rk, s, chunk / 16);
		else if (i)
			chacha_16block_xor_avx512f(state, d, s, chunk, 20, h, rk, d - chunk, chunk / 16);
		else
			chacha_16block_xor_avx512f(state, d, s, chunk, 20, NULL, NULL, NULL, 0);
		state[12] += 16;
	}
}
#endif

/* The exported entry: the worker, then the stack it used wiped (keystream, spills). */
void chacha_dosimd_avx512(uint32_t state[16], uint8_t *dst, const uint8_t *src,
			size_t bytes, int nrounds)
{
	chacha_avx512_blocks(state, dst, src, bytes, nrounds);
	memzero_stack(CHACHA_AVX512_STACK_USE);
}

#else /* not x86: stub so the extension still builds; never called */

#include <stdlib.h>

void chacha_dosimd_avx512(uint32_t state[16], uint8_t *dst, const uint8_t *src,
			  size_t bytes, int nrounds)
{
	(void)state; (void)dst; (void)src; (void)bytes; (void)nrounds;
	abort();
}

#endif
