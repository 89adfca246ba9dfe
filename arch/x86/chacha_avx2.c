/*
 * ChaCha with AVX2 (256-bit vectors), the counterpart of the kernel's
 * arch/x86/crypto/chacha-avx2-x86_64.S plus the AVX2 part of the v5.0 length
 * dispatch in arch/x86/crypto/chacha_glue.c.
 *
 * Kernels:
 *   - 2 blocks: each register holds one state row for two blocks (low
 *     128-bit lane = block n, high lane = block n+1); diagonals via vpshufd;
 *   - 4 blocks: two independent 2-block register sets, interleaved;
 *   - 8 blocks: register i holding word i of eight consecutive blocks; the
 *     double rounds in asm with a fixed register plan (two of the four "c"
 *     words on the stack, swapped twice per double round, as OpenSSL's AVX2
 *     8x code is laid out), the state broadcast once per call and the
 *     counter lanes stepped per 512-byte chunk; 4x4 transposes inside each
 *     lane plus vperm2i128 put the keystream back in block order;
 *   - 9 blocks (beyond the kernel, whose AVX2 code stops at 8): the 8-block
 *     rounds with a ninth block computed in the general-purpose registers
 *     between their instructions, for whole 576-byte chunks.  The vector
 *     rounds leave the integer ALUs idle, so the ninth block comes nearly
 *     free (about 1.1x the 8-block throughput on the Zen 4 measured).
 * Rotations by 16 and 8 use vpshufb, 12 and 7 shifts (rol for the scalar
 * block).  Remainders of 64 bytes or less go to the SSSE3 one-block code
 * (chacha_ssse3.c, compiled into this extension as SSSE3 code).  The
 * exported entry wipes the stack its worker used (keystream, spilled state)
 * before returning.
 */
#include "chacha_x86.h"

#if defined(__x86_64__)

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

/* Byte-shuffle masks for the rotations by 16 and 8, as memory operands of
 * vpshufb in the 8-block rounds (no register is free for them there). */
static const uint8_t rot16_mask[32] __attribute__((aligned(32))) = {
	2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,
	2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,
};
static const uint8_t rot8_mask[32] __attribute__((aligned(32))) = {
	3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14,
	3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14,
};

/*
 * The 8-block double rounds in asm with a fixed register plan: words 0-7
 * and 12-15 stay in ymm0-7 and ymm12-15 for the whole loop, ymm8/ymm9 hold
 * the two "c" words the current pair of quarter-rounds works on, ymm10/ymm11
 * are the rotation temporaries, and the other two "c" words wait in x[]
 * (x[8..11] are their homes).  The feed-forward (x = rounds + s) is done
 * before the registers go back to x[], so the caller reads the keystream
 * words from x[] and s[] is left as it was for the next chunk.
 *
 * V_HALF is one half of two interleaved quarter-rounds (a += b, d ^= a,
 * d <<<= 16 or 8 by vpshufb, c += d, b ^= c, b <<<= 12 or 7 by two shifts
 * and an or), in six steps; S1..S6 are instructions placed after each step
 * (the scalar block of the 9-block code, nothing for the 8-block code).
 */
#define YMM(n) "%%ymm" #n
#define V_HALF(mask, rb, a0, b0, c0, d0, a1, b1, c1, d1, S1, S2, S3, S4, S5, S6)       \
	"vpaddd " YMM(b0) ", " YMM(a0) ", " YMM(a0) "\n\t"                          \
	"vpaddd " YMM(b1) ", " YMM(a1) ", " YMM(a1) "\n\t"                          \
	S1                                                                          \
	"vpxor " YMM(a0) ", " YMM(d0) ", " YMM(d0) "\n\t"                           \
	"vpxor " YMM(a1) ", " YMM(d1) ", " YMM(d1) "\n\t"                           \
	S2                                                                          \
	"vpshufb %[" #mask "], " YMM(d0) ", " YMM(d0) "\n\t"                        \
	"vpshufb %[" #mask "], " YMM(d1) ", " YMM(d1) "\n\t"                        \
	S3                                                                          \
	"vpaddd " YMM(d0) ", " YMM(c0) ", " YMM(c0) "\n\t"                          \
	"vpaddd " YMM(d1) ", " YMM(c1) ", " YMM(c1) "\n\t"                          \
	S4                                                                          \
	"vpxor " YMM(c0) ", " YMM(b0) ", " YMM(b0) "\n\t"                           \
	"vpxor " YMM(c1) ", " YMM(b1) ", " YMM(b1) "\n\t"                           \
	S5                                                                          \
	"vpslld $" #rb ", " YMM(b0) ", %%ymm10\n\t"                                 \
	"vpsrld $32-" #rb ", " YMM(b0) ", " YMM(b0) "\n\t"                          \
	"vpslld $" #rb ", " YMM(b1) ", %%ymm11\n\t"                                 \
	"vpsrld $32-" #rb ", " YMM(b1) ", " YMM(b1) "\n\t"                          \
	"vpor %%ymm10, " YMM(b0) ", " YMM(b0) "\n\t"                                \
	"vpor %%ymm11, " YMM(b1) ", " YMM(b1) "\n\t"                                \
	S6

/* two quarter-rounds on the eight word-sliced blocks */
#define V_QR2(a0, b0, c0, d0, a1, b1, c1, d1)                                        \
	V_HALF(r16, 12, a0, b0, c0, d0, a1, b1, c1, d1, "", "", "", "", "", "")   \
	V_HALF(r8, 7, a0, b0, c0, d0, a1, b1, c1, d1, "", "", "", "", "", "")

/* ymm8/ymm9 to the homes of c words i, j in x[]; those of k, l from x[] */
#define C_SWAP(i, j, k, l)                                                       \
	"vmovdqa %%ymm8, 32*" #i "+%[x]\n\t"                                      \
	"vmovdqa %%ymm9, 32*" #j "+%[x]\n\t"                                      \
	"vmovdqa 32*" #k "+%[x], %%ymm8\n\t"                                      \
	"vmovdqa 32*" #l "+%[x], %%ymm9\n\t"

#define Y_LOAD(n) "vmovdqa 32*" #n "+%[s], %%ymm" #n "\n\t"
#define Y_FEED(n) "vpaddd 32*" #n "+%[s], %%ymm" #n ", %%ymm" #n "\n\t"
#define Y_STORE(n) "vmovdqa %%ymm" #n ", 32*" #n "+%[x]\n\t"
#define Y_EACH(op) op(0) op(1) op(2) op(3) op(4) op(5) op(6) op(7) op(8) op(9) \
	op(12) op(13) op(14) op(15)

/* s[] into the registers (c10, c11 to their homes in x[]) */
#define Y_START                                                                  \
	"vmovdqa 32*10+%[s], %%ymm10\n\t"                                         \
	"vmovdqa 32*11+%[s], %%ymm11\n\t"                                         \
	"vmovdqa %%ymm10, 32*10+%[x]\n\t"                                         \
	"vmovdqa %%ymm11, 32*11+%[x]\n\t"                                         \
	Y_EACH(Y_LOAD)

/* feed-forward, then the keystream words to x[] */
#define Y_FINISH                                                                 \
	Y_EACH(Y_FEED)                                                            \
	"vmovdqa 32*10+%[x], %%ymm10\n\t"                                         \
	"vmovdqa 32*11+%[x], %%ymm11\n\t"                                         \
	"vpaddd 32*10+%[s], %%ymm10, %%ymm10\n\t"                                 \
	"vpaddd 32*11+%[s], %%ymm11, %%ymm11\n\t"                                 \
	Y_EACH(Y_STORE)                                                           \
	"vmovdqa %%ymm10, 32*10+%[x]\n\t"                                         \
	"vmovdqa %%ymm11, 32*11+%[x]\n\t"

#define YMM_CLOBBERS "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", \
	"xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15"

X86_TARGET_AVX2
static inline void chacha_8block_rounds_avx2(__m256i x[16], const __m256i s[16], int nrounds)
{
	unsigned long dr = (unsigned long)(nrounds / 2);

	__asm__ volatile(
		Y_START
		"1:\n\t"
		/* columns (0,4,8,12) (1,5,9,13); c8, c9 in ymm8/9 */
		V_QR2(0, 4, 8, 12, 1, 5, 9, 13)
		C_SWAP(8, 9, 10, 11)
		/* columns (2,6,10,14) (3,7,11,15); c10, c11 in ymm8/9 */
		V_QR2(2, 6, 8, 14, 3, 7, 9, 15)
		/* diagonals (0,5,10,15) (1,6,11,12) */
		V_QR2(0, 5, 8, 15, 1, 6, 9, 12)
		C_SWAP(10, 11, 8, 9)
		/* diagonals (2,7,8,13) (3,4,9,14) */
		V_QR2(2, 7, 8, 13, 3, 4, 9, 14)
		"dec %[dr]\n\t"
		"jnz 1b\n\t"
		Y_FINISH
		: [dr] "+r"(dr), [x] "=m"(*(__m256i (*)[16])x)
		: [s] "m"(*(const __m256i (*)[16])s),
		  [r16] "m"(*(const __m256i *)rot16_mask), [r8] "m"(*(const __m256i *)rot8_mask)
		: "cc", YMM_CLOBBERS);
}

/*
 * The 9-block rounds: the eight word-sliced blocks as above, and a ninth
 * block in the general-purpose registers, its instructions placed between
 * those of the vector code.  The vector code keeps the shift and shuffle
 * units busy but leaves the integer ALUs idle, so on the machines measured
 * the ninth block costs almost nothing.  Its words 0-9 and 12-15 live in
 * the fourteen registers below for the whole loop; its "c" words 10 and 11
 * stay in g[] (memory operands: as a "c" word is only added to and read,
 * no instruction needs two memory operands).  gi[] is its input state; g[]
 * receives its keystream (rounds + gi).  Every general-purpose register but
 * the stack and frame pointers is taken, so x[], s[], g[] and the loop count
 * are memory operands, and the registers are cleared at the end.
 */
#define G_0 "%%eax"
#define G_1 "%%ebx"
#define G_2 "%%ecx"
#define G_3 "%%edx"
#define G_4 "%%esi"
#define G_5 "%%edi"
#define G_6 "%%r8d"
#define G_7 "%%r9d"
#define G_8 "%%r10d"
#define G_9 "%%r11d"
#define G_10 "4*10+%[g]"
#define G_11 "4*11+%[g]"
#define G_12 "%%r12d"
#define G_13 "%%r13d"
#define G_14 "%%r14d"
#define G_15 "%%r15d"
#define G2(op, x0, y0, x1, y1) op " " G_##x0 ", " G_##y0 "\n\t" op " " G_##x1 ", " G_##y1 "\n\t"
#define G2ROL(n, y0, y1) "roll $" #n ", " G_##y0 "\n\t" "roll $" #n ", " G_##y1 "\n\t"

/* two interleaved quarter-rounds of both the vector and the scalar blocks */
#define H_HALF(mask, rd, rb, a0, b0, c0, d0, a1, b1, c1, d1, p0, q0, r0, t0, p1, q1, r1, t1) \
	V_HALF(mask, rb, a0, b0, c0, d0, a1, b1, c1, d1,                          \
	       G2("addl", q0, p0, q1, p1), G2("xorl", p0, t0, p1, t1),            \
	       G2ROL(rd, t0, t1), G2("addl", t0, r0, t1, r1),                     \
	       G2("xorl", r0, q0, r1, q1), G2ROL(rb, q0, q1))
#define H_QR2(a0, b0, c0, d0, a1, b1, c1, d1, p0, q0, r0, t0, p1, q1, r1, t1)        \
	H_HALF(r16, 16, 12, a0, b0, c0, d0, a1, b1, c1, d1, p0, q0, r0, t0, p1, q1, r1, t1) \
	H_HALF(r8, 8, 7, a0, b0, c0, d0, a1, b1, c1, d1, p0, q0, r0, t0, p1, q1, r1, t1)

#define G_LOAD(n) "movl 4*" #n "+%[gi], " G_##n "\n\t"
#define G_FEED(n) "addl 4*" #n "+%[gi], " G_##n "\n\t" "movl " G_##n ", 4*" #n "+%[g]\n\t"
#define G_CLEAR(n) "xorl " G_##n ", " G_##n "\n\t"
#define G_EACH(op) op(0) op(1) op(2) op(3) op(4) op(5) op(6) op(7) op(8) op(9) \
	op(12) op(13) op(14) op(15)

X86_TARGET_AVX2
static inline void chacha_9block_rounds_avx2(__m256i x[16], const __m256i s[16],
					     uint32_t g[16], const uint32_t gi[16],
					     int nrounds)
{
	unsigned long dr = (unsigned long)(nrounds / 2);

	__asm__ volatile(
		Y_START
		"movl 4*10+%[gi], %%eax\n\t"
		"movl %%eax, 4*10+%[g]\n\t"
		"movl 4*11+%[gi], %%eax\n\t"
		"movl %%eax, 4*11+%[g]\n\t"
		G_EACH(G_LOAD)
		"1:\n\t"
		H_QR2(0, 4, 8, 12, 1, 5, 9, 13, 0, 4, 8, 12, 1, 5, 9, 13)
		C_SWAP(8, 9, 10, 11)
		H_QR2(2, 6, 8, 14, 3, 7, 9, 15, 2, 6, 10, 14, 3, 7, 11, 15)
		H_QR2(0, 5, 8, 15, 1, 6, 9, 12, 0, 5, 10, 15, 1, 6, 11, 12)
		C_SWAP(10, 11, 8, 9)
		H_QR2(2, 7, 8, 13, 3, 4, 9, 14, 2, 7, 8, 13, 3, 4, 9, 14)
		"decq %[dr]\n\t"
		"jnz 1b\n\t"
		Y_FINISH
		G_EACH(G_FEED)
		"movl 4*10+%[g], %%eax\n\t"
		"addl 4*10+%[gi], %%eax\n\t"
		"movl %%eax, 4*10+%[g]\n\t"
		"movl 4*11+%[g], %%eax\n\t"
		"addl 4*11+%[gi], %%eax\n\t"
		"movl %%eax, 4*11+%[g]\n\t"
		G_EACH(G_CLEAR)
		: [dr] "+m"(dr), [x] "=m"(*(__m256i (*)[16])x), [g] "=m"(*(uint32_t (*)[16])g)
		: [s] "m"(*(const __m256i (*)[16])s), [gi] "m"(*(const uint32_t (*)[16])gi),
		  [r16] "m"(*(const __m256i *)rot16_mask), [r8] "m"(*(const __m256i *)rot8_mask)
		: "cc", "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11",
		  "r12", "r13", "r14", "r15", YMM_CLOBBERS);
}

/* Keystream y[] (eight blocks, word-sliced, feed-forward added) XORed into
 * len bytes: 4x4 transposes inside each lane, then vperm2i128 pairs the
 * lanes into whole blocks. */
X86_TARGET_AVX2
static inline void chacha_8block_out_avx2(const __m256i x[16], uint8_t *dst,
					  const uint8_t *src, size_t len)
{
	__m256i y[16], ks[16];
	int i;

	for (i = 0; i < 16; i++)
		y[i] = x[i];
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
}

/*
 * 8-block code over len > 256 bytes: whole 512-byte chunks, the last one
 * possibly partial.  The state is broadcast once into s[] (word 12 as eight
 * consecutive counters, each stepped by 8 per chunk with 32-bit wrap-around);
 * the rounds read s[] and leave the keystream words in x[].  state[12] is
 * the caller's to advance.
 */
X86_TARGET_AVX2
static void chacha_8block_xor_avx2(const uint32_t state[16], uint8_t *dst,
				   const uint8_t *src, size_t len, int nrounds)
{
	__m256i s[16] __attribute__((aligned(32))), x[16] __attribute__((aligned(32)));
	int i;

	for (i = 0; i < 16; i++)
		s[i] = _mm256_set1_epi32((int)state[i]);
	s[12] = _mm256_add_epi32(s[12], _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
	for (;;) {
		chacha_8block_rounds_avx2(x, s, nrounds);
		if (len <= 8 * CHACHA_BLOCK_SIZE) {
			chacha_8block_out_avx2(x, dst, src, len);
			break;
		}
		chacha_8block_out_avx2(x, dst, src, 8 * CHACHA_BLOCK_SIZE);
		s[12] = _mm256_add_epi32(s[12], _mm256_set1_epi32(8));
		len -= 8 * CHACHA_BLOCK_SIZE;
		src += 8 * CHACHA_BLOCK_SIZE;
		dst += 8 * CHACHA_BLOCK_SIZE;
	}
	/* (s[] and x[] are on the stack the entry point wipes) */
}

/*
 * 9-block code over whole 576-byte chunks: blocks 0-7 of a chunk word-sliced
 * in the vector registers (counter lanes ctr .. ctr+7), block 8 in the
 * general-purpose registers (counter ctr+8); both counters step by 9 per
 * chunk, with 32-bit wrap-around.  state[12] is the caller's to advance.
 */
X86_TARGET_AVX2
static void chacha_9block_xor_avx2(const uint32_t state[16], uint8_t *dst,
				   const uint8_t *src, size_t chunks, int nrounds)
{
	__m256i s[16] __attribute__((aligned(32))), x[16] __attribute__((aligned(32)));
	uint32_t gi[16] __attribute__((aligned(32))), g[16] __attribute__((aligned(32)));
	int i;

	for (i = 0; i < 16; i++) {
		s[i] = _mm256_set1_epi32((int)state[i]);
		gi[i] = state[i];
	}
	s[12] = _mm256_add_epi32(s[12], _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
	gi[12] += 8;
	for (; chunks; chunks--) {
		chacha_9block_rounds_avx2(x, s, g, gi, nrounds);
		chacha_8block_out_avx2(x, dst, src, 8 * CHACHA_BLOCK_SIZE);
		/* the ninth block: g[] holds its keystream bytes (little-endian words) */
		store256(dst + 512, _mm256_xor_si256(load256(src + 512), load256((const uint8_t *)g)));
		store256(dst + 544, _mm256_xor_si256(load256(src + 544),
						     load256((const uint8_t *)g + 32)));
		s[12] = _mm256_add_epi32(s[12], _mm256_set1_epi32(9));
		gi[12] += 9;
		src += 9 * CHACHA_BLOCK_SIZE;
		dst += 9 * CHACHA_BLOCK_SIZE;
	}
	/* (s[], x[], g[] and gi[] are on the stack the entry point wipes) */
}

X86_TARGET_AVX2
X86_INTERNAL __attribute__((noinline)) void
chacha_avx2_blocks(uint32_t state[16], uint8_t *dst, const uint8_t *src, size_t bytes,
                   int nrounds)
{
	if (bytes >= 9 * CHACHA_BLOCK_SIZE) {
		size_t chunks = bytes / (9 * CHACHA_BLOCK_SIZE);

		chacha_9block_xor_avx2(state, dst, src, chunks, nrounds);
		state[12] += (uint32_t)(chunks * 9);
		bytes -= chunks * 9 * CHACHA_BLOCK_SIZE;
		src += chunks * 9 * CHACHA_BLOCK_SIZE;
		dst += chunks * 9 * CHACHA_BLOCK_SIZE;
	}
	if (bytes > 4 * CHACHA_BLOCK_SIZE) {
		/* whole 8-block chunks, and a tail of more than four blocks with them */
		size_t tail = bytes % (8 * CHACHA_BLOCK_SIZE);
		size_t n8 = bytes - (tail > 4 * CHACHA_BLOCK_SIZE ? 0 : tail);

		chacha_8block_xor_avx2(state, dst, src, n8, nrounds);
		state[12] += chacha_blocks_for(n8);
		bytes -= n8;
		src += n8;
		dst += n8;
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

#elif defined(__i386__)

/*
 * 32-bit x86 has eight vector registers and no r8-r15, which the asm of the
 * 8- and 9-block code needs: there the SSSE3 worker does the work (the same
 * bytes and counter).
 */
X86_INTERNAL void chacha_avx2_blocks(uint32_t state[16], uint8_t *dst, const uint8_t *src,
				     size_t bytes, int nrounds)
{
	chacha_ssse3_blocks(state, dst, src, bytes, nrounds);
}

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
