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
 *     as memory operands, so that the sixteen registers hold the rest (as
 *     OpenSSL's AVX2 8x code is laid out), in asm (x86-64 only: it names
 *     ymm8-15); one call covers every whole 512-byte chunk with the state
 *     broadcast once; 4x4 transposes inside each lane plus vperm2i128 put
 *     the keystream back in block order;
 *   - 10 blocks (beyond the kernel): the 8-block layout with its "a" words
 *     on the stack, plus two blocks in the 2-block layout in the registers
 *     that frees, one double round as generated asm (chacha_avx2_rounds10.h,
 *     from gen_chacha_avx2_rounds.py, which says why); used four 640-byte
 *     chunks at a time, 2560 bytes being five 8-block chunks, so every
 *     length keeps the tail it had.  Measured on Zen 4 with AVX-512 masked:
 *     about 7% faster rounds per block than the 8-block code, 2-3% faster
 *     over 64 KiB and 1 MiB;
 *   - 8 blocks with Poly1305 stitched in (for the one-pass AEAD only): the
 *     8-block rounds with one Poly1305 block in general-purpose registers
 *     (mulx, radix 2^64) after each pair of quarter-rounds, so the integer
 *     units hash while the vector units make keystream.
 * The 2- and 4-block kernels and the transposes come from chacha_ymm_rows.h
 * (shared with the AVX-512VL code).
 * Rotations by 16 and 8 use vpshufb, 12 and 7 shifts.  Remainders of 64
 * bytes or less go to the SSSE3 one-block code (chacha_ssse3.c, compiled
 * into this extension as SSSE3 code).  The exported entry wipes the stack
 * its worker used (keystream, spilled state) before returning.  On 32-bit
 * x86 (eight vector registers) the SSSE3 worker does all of it.
 */
#include "chacha_x86.h"

#if defined(__x86_64__)

#include <immintrin.h>

#include "poly1305_x86_64_asm.h"

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

/* The last partial 32-byte chunk through a bounce buffer (wiped). */
X86_TARGET_AVX2
static inline void xor_tail256(uint8_t *dst, const uint8_t *src, size_t n, __m256i ks)
{
	uint8_t buf[32];

	memcpy(buf, src, n);
	_mm256_storeu_si256((__m256i *)buf,
			    _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)buf), ks));
	memcpy(dst, buf, n);
	crypto_memzero(buf, sizeof(buf));
}

#define YMM_TARGET X86_TARGET_AVX2
#define YMM_ROT16(x) rotl16_256(x)
#define YMM_ROT12(x) ROTL256(x, 12)
#define YMM_ROT8(x) rotl8_256(x)
#define YMM_ROT7(x) ROTL256(x, 7)
#define YMM_NAME(f) f##_avx2
#include "chacha_ymm_rows.h"

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
 * The double rounds of the 8-block code in one asm block with a fixed
 * register plan: words 0-7 and 12-15 stay in ymm0-7 and ymm12-15 for the
 * whole loop, ymm8/ymm9 hold the two "c" words the current pair of
 * quarter-rounds works on, ymm10/ymm11 are the rotation temporaries, and
 * the other two "c" words wait in x[] (x[8..11] are their homes).  The
 * loop reads the state from s[] and leaves the keystream words (rounds +
 * s, the feed-forward done before the registers are stored) in x[], so s[]
 * serves every chunk of a call.
 */
/* Half a quarter-round on two columns/diagonals at once: a += b; d ^= a;
 * d <<<= (byte shuffle rot); c += d; b ^= c; b <<<= shl (shl + shr = 32). */
#define R_HALF2(a0, b0, c0, d0, a1, b1, c1, d1, rot, shl, shr)                   \
	"vpaddd %%ymm" #b0 ", %%ymm" #a0 ", %%ymm" #a0 "\n\t"                     \
	"vpaddd %%ymm" #b1 ", %%ymm" #a1 ", %%ymm" #a1 "\n\t"                     \
	"vpxor %%ymm" #a0 ", %%ymm" #d0 ", %%ymm" #d0 "\n\t"                      \
	"vpxor %%ymm" #a1 ", %%ymm" #d1 ", %%ymm" #d1 "\n\t"                      \
	"vpshufb %[" #rot "], %%ymm" #d0 ", %%ymm" #d0 "\n\t"                     \
	"vpshufb %[" #rot "], %%ymm" #d1 ", %%ymm" #d1 "\n\t"                     \
	"vpaddd %%ymm" #d0 ", %%ymm" #c0 ", %%ymm" #c0 "\n\t"                     \
	"vpaddd %%ymm" #d1 ", %%ymm" #c1 ", %%ymm" #c1 "\n\t"                     \
	"vpxor %%ymm" #c0 ", %%ymm" #b0 ", %%ymm" #b0 "\n\t"                      \
	"vpxor %%ymm" #c1 ", %%ymm" #b1 ", %%ymm" #b1 "\n\t"                      \
	"vpslld $" #shl ", %%ymm" #b0 ", %%ymm10\n\t"                             \
	"vpsrld $" #shr ", %%ymm" #b0 ", %%ymm" #b0 "\n\t"                        \
	"vpslld $" #shl ", %%ymm" #b1 ", %%ymm11\n\t"                             \
	"vpsrld $" #shr ", %%ymm" #b1 ", %%ymm" #b1 "\n\t"                        \
	"vpor %%ymm10, %%ymm" #b0 ", %%ymm" #b0 "\n\t"                            \
	"vpor %%ymm11, %%ymm" #b1 ", %%ymm" #b1 "\n\t"

#define R_QR2(a0, b0, c0, d0, a1, b1, c1, d1)                                    \
	R_HALF2(a0, b0, c0, d0, a1, b1, c1, d1, r16, 12, 20)                      \
	R_HALF2(a0, b0, c0, d0, a1, b1, c1, d1, r8, 7, 25)

/* Prologue and epilogue pieces of the 8- and 10-block rounds (ymm0 is free
 * where a *_HOME or *_FF_MEM runs): a state word's home in x[] (a word the
 * rounds keep on the stack) from s[], a word into its register, and the
 * feed-forward of a word in a register or at its home into x[] (or xr[]). */
#define W_HOME(off, src, home) \
	"vmovdqa " #off "(%[" #src "]), %%ymm0\n\t" "vmovdqa %%ymm0, " #off "(%[" #home "])\n\t"
#define W_LOAD(off, src, r) "vmovdqa " #off "(%[" #src "]), %%ymm" #r "\n\t"
#define W_FF_REG(off, src, r, dst) \
	"vpaddd " #off "(%[" #src "]), %%ymm" #r ", %%ymm" #r "\n\t" \
	"vmovdqa %%ymm" #r ", " #off "(%[" #dst "])\n\t"
#define W_FF_MEM(off, src, dst) \
	"vmovdqa " #off "(%[" #dst "]), %%ymm0\n\t" W_FF_REG(off, src, 0, dst)

/* The 8-block rounds' pieces: the prologue (state words into their
 * registers and homes), one double round with ``slot`` after each pair of
 * quarter-rounds (empty, or the stitched Poly1305 step below), and the
 * feed-forward into x[]. */
#define R8_PROLOGUE                                                              \
	/* x[10], x[11] are the homes of c10, c11 during the rounds */           \
	W_HOME(0x140, s, x) W_HOME(0x160, s, x)                                   \
	W_LOAD(0x000, s, 0) W_LOAD(0x020, s, 1) W_LOAD(0x040, s, 2) W_LOAD(0x060, s, 3) \
	W_LOAD(0x080, s, 4) W_LOAD(0x0a0, s, 5) W_LOAD(0x0c0, s, 6) W_LOAD(0x0e0, s, 7) \
	W_LOAD(0x100, s, 8) W_LOAD(0x120, s, 9)                                   \
	W_LOAD(0x180, s, 12) W_LOAD(0x1a0, s, 13) W_LOAD(0x1c0, s, 14) W_LOAD(0x1e0, s, 15)

#define R8_DOUBLE_ROUND(slot)                                                    \
	/* columns (0,4,8,12) (1,5,9,13); c8, c9 in ymm8/9 */                   \
	R_QR2(0, 4, 8, 12, 1, 5, 9, 13) slot                                      \
	"vmovdqa %%ymm8, 0x100(%[x])\n\t"                                         \
	"vmovdqa %%ymm9, 0x120(%[x])\n\t"                                         \
	"vmovdqa 0x140(%[x]), %%ymm8\n\t"                                         \
	"vmovdqa 0x160(%[x]), %%ymm9\n\t"                                         \
	/* columns (2,6,10,14) (3,7,11,15); c10, c11 in ymm8/9 */               \
	R_QR2(2, 6, 8, 14, 3, 7, 9, 15) slot                                      \
	/* diagonals (0,5,10,15) (1,6,11,12) */                                   \
	R_QR2(0, 5, 8, 15, 1, 6, 9, 12) slot                                      \
	"vmovdqa %%ymm8, 0x140(%[x])\n\t"                                         \
	"vmovdqa %%ymm9, 0x160(%[x])\n\t"                                         \
	"vmovdqa 0x100(%[x]), %%ymm8\n\t"                                         \
	"vmovdqa 0x120(%[x]), %%ymm9\n\t"                                         \
	/* diagonals (2,7,8,13) (3,4,9,14) */                                     \
	R_QR2(2, 7, 8, 13, 3, 4, 9, 14) slot

#define R8_FEED_FORWARD                                                          \
	/* x = rounds + s (word 0 first: c10, c11 go through ymm0) */            \
	W_FF_REG(0x000, s, 0, x) W_FF_REG(0x020, s, 1, x) W_FF_REG(0x040, s, 2, x) \
	W_FF_REG(0x060, s, 3, x) W_FF_REG(0x080, s, 4, x) W_FF_REG(0x0a0, s, 5, x) \
	W_FF_REG(0x0c0, s, 6, x) W_FF_REG(0x0e0, s, 7, x) W_FF_REG(0x100, s, 8, x) \
	W_FF_REG(0x120, s, 9, x) W_FF_MEM(0x140, s, x) W_FF_MEM(0x160, s, x)     \
	W_FF_REG(0x180, s, 12, x) W_FF_REG(0x1a0, s, 13, x) W_FF_REG(0x1c0, s, 14, x) \
	W_FF_REG(0x1e0, s, 15, x)

#define R8_YMM_CLOBBERS                                                          \
	"xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",           \
	"xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15"

X86_TARGET_AVX2
static inline void chacha_8block_rounds_avx2(__m256i x[16], const __m256i s[16], int nrounds)
{
	unsigned long dr = (unsigned long)(nrounds / 2);

	__asm__ volatile(
		R8_PROLOGUE
		"1:\n\t"
		R8_DOUBLE_ROUND("")
		"dec %[dr]\n\t"
		"jnz 1b\n\t"
		R8_FEED_FORWARD
		: [dr] "+r"(dr), "=m"(*(__m256i (*)[16])x)
		: [x] "r"(x), [s] "r"(s), "m"(*(const __m256i (*)[16])s),
		  [r16] "m"(*(const __m256i *)rot16_mask), [r8] "m"(*(const __m256i *)rot8_mask)
		: "cc", R8_YMM_CLOBBERS);
}

/* A slot of the stitched rounds: the next Poly1305 block, while any is left
 * (nb), in general-purpose registers (poly1305_x86_64_asm.h). */
#define P_SLOT                                                                   \
	"test %[nb], %[nb]\n\t"                                                   \
	"jz 2f\n\t"                                                               \
	POLY1305_X86_64_BLOCK_ASM                                                 \
	"dec %[nb]\n\t"                                                           \
	"2:\n\t"

/* The 8-block rounds with up to 40 Poly1305 blocks from m stitched in (four
 * slots a double round); h[0..2] is the accumulator, rk[] = r0, r1, s1, s0. */
__attribute__((target("avx2,bmi2")))
static inline void chacha_8block_rounds_poly_avx2(__m256i x[16], const __m256i s[16], int nrounds,
						  uint64_t h[3], const uint64_t rk[4],
						  const uint8_t *m, unsigned long nb)
{
	unsigned long dr = (unsigned long)(nrounds / 2);
	uint64_t h0 = h[0], h1 = h[1], h2 = h[2], t0, t1, t2, t3;

	__asm__ volatile(
		R8_PROLOGUE
		"1:\n\t"
		R8_DOUBLE_ROUND(P_SLOT)
		"dec %[dr]\n\t"
		"jnz 1b\n\t"
		R8_FEED_FORWARD
		: [dr] "+r"(dr), "=m"(*(__m256i (*)[16])x), [nb] "+r"(nb),
		  POLY1305_X86_64_BLOCK_OUTPUTS
		: [x] "r"(x), [s] "r"(s), "m"(*(const __m256i (*)[16])s),
		  [r16] "m"(*(const __m256i *)rot16_mask), [r8] "m"(*(const __m256i *)rot8_mask),
		  POLY1305_X86_64_BLOCK_INPUTS
		: "cc", "memory", "rdx", R8_YMM_CLOBBERS);
	h[0] = h0;
	h[1] = h1;
	h[2] = h2;
}

/*
 * A whole 512-byte chunk out of x[] (the keystream words, eight blocks
 * word-sliced), in asm so that nothing is spilled: half the words at a time
 * (0-7: the first 32 bytes of every block, then 8-15), two in-lane 4x4
 * transposes (TR4: after it register i holds words w..w+3 of block i in the
 * low lane and of block i+4 in the high lane), then vperm2i128 pairs the
 * lanes of two groups into 32 bytes of one block, XORed with src into dst.
 */
#define TR4(r0, r1, r2, r3, t0, t1, t2, t3)                                   \
	"vpunpckldq %%ymm" #r1 ", %%ymm" #r0 ", %%ymm" #t0 "\n\t"             \
	"vpunpckldq %%ymm" #r3 ", %%ymm" #r2 ", %%ymm" #t1 "\n\t"             \
	"vpunpckhdq %%ymm" #r1 ", %%ymm" #r0 ", %%ymm" #t2 "\n\t"             \
	"vpunpckhdq %%ymm" #r3 ", %%ymm" #r2 ", %%ymm" #t3 "\n\t"             \
	"vpunpcklqdq %%ymm" #t1 ", %%ymm" #t0 ", %%ymm" #r0 "\n\t"            \
	"vpunpckhqdq %%ymm" #t1 ", %%ymm" #t0 ", %%ymm" #r1 "\n\t"            \
	"vpunpcklqdq %%ymm" #t3 ", %%ymm" #t2 ", %%ymm" #r2 "\n\t"            \
	"vpunpckhqdq %%ymm" #t3 ", %%ymm" #t2 ", %%ymm" #r3 "\n\t"
#define OUT2(a, b, t, u, off)                                                  \
	"vperm2i128 $0x20, %%ymm" #b ", %%ymm" #a ", %%ymm" #t "\n\t"          \
	"vperm2i128 $0x31, %%ymm" #b ", %%ymm" #a ", %%ymm" #u "\n\t"          \
	"vpxor " #off "(%[src]), %%ymm" #t ", %%ymm" #t "\n\t"                 \
	"vpxor 256+" #off "(%[src]), %%ymm" #u ", %%ymm" #u "\n\t"             \
	"vmovdqu %%ymm" #t ", " #off "(%[dst])\n\t"                            \
	"vmovdqu %%ymm" #u ", 256+" #off "(%[dst])\n\t"
#define OUT_HALF(w, off)                                                       \
	"vmovdqa 32*" #w "+0x00(%[x]), %%ymm0\n\t"                             \
	"vmovdqa 32*" #w "+0x20(%[x]), %%ymm1\n\t"                             \
	"vmovdqa 32*" #w "+0x40(%[x]), %%ymm2\n\t"                             \
	"vmovdqa 32*" #w "+0x60(%[x]), %%ymm3\n\t"                             \
	"vmovdqa 32*" #w "+0x80(%[x]), %%ymm4\n\t"                             \
	"vmovdqa 32*" #w "+0xa0(%[x]), %%ymm5\n\t"                             \
	"vmovdqa 32*" #w "+0xc0(%[x]), %%ymm6\n\t"                             \
	"vmovdqa 32*" #w "+0xe0(%[x]), %%ymm7\n\t"                             \
	TR4(0, 1, 2, 3, 8, 9, 10, 11)                                          \
	TR4(4, 5, 6, 7, 12, 13, 14, 15)                                        \
	OUT2(0, 4, 8, 9, off)                                                  \
	OUT2(1, 5, 10, 11, 64+off)                                             \
	OUT2(2, 6, 12, 13, 128+off)                                            \
	OUT2(3, 7, 14, 15, 192+off)

X86_TARGET_AVX2
static inline void chacha_8block_out512_avx2(const __m256i x[16], uint8_t *dst, const uint8_t *src)
{
	__asm__ volatile(
		OUT_HALF(0, 0)
		OUT_HALF(8, 32)
		: : [x] "r"(x), [dst] "r"(dst), [src] "r"(src), "m"(*(const __m256i (*)[16])x)
		: "memory", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
		  "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15");
}

/* A last, partial chunk of len < 512 bytes: the keystream in block order
 * into ks[] (4x4 transposes inside each lane, then vperm2i128), XORed into
 * len bytes, then wiped. */
X86_TARGET_AVX2
static inline void chacha_8block_out_avx2(const __m256i x[16], uint8_t *dst,
					  const uint8_t *src, size_t len)
{
	__m256i y[16], ks[16];
	int i;

	for (i = 0; i < 16; i++)
		y[i] = x[i];
	words_to_ks(y, ks);
	xor_ks256(dst, src, len, ks, 16);
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

	words_bcast(s, state);
	for (;;) {
		chacha_8block_rounds_avx2(x, s, nrounds);
		if (len < 8 * CHACHA_BLOCK_SIZE) {
			chacha_8block_out_avx2(x, dst, src, len);
			break;
		}
		chacha_8block_out512_avx2(x, dst, src);
		len -= 8 * CHACHA_BLOCK_SIZE;
		if (!len)
			break;
		s[12] = _mm256_add_epi32(s[12], _mm256_set1_epi32(8));
		src += 8 * CHACHA_BLOCK_SIZE;
		dst += 8 * CHACHA_BLOCK_SIZE;
	}
	/* (s[] and x[] are on the stack the entry point wipes) */
}

/*
 * ChaCha20 over nchunks whole 512-byte chunks with Poly1305 stitched into
 * the rounds, for the one-pass AEAD (chacha20poly1305_avx2.c).  A chunk's
 * rounds absorb 32 MAC blocks: when opening, that chunk's own ciphertext
 * (src, read before the chunk is written, so dst may equal src); when
 * sealing, the previous chunk's (dst), so that a sealing call leaves the
 * last chunk's MAC to the caller.  h[] and rk[] as for the rounds above;
 * state[12] is advanced; x[] and s[] stay on the stack for the caller to
 * wipe.
 */
__attribute__((target("avx2,bmi2")))
void chacha_poly_8block_avx2(uint32_t state[16], uint8_t *dst, const uint8_t *src,
			     size_t nchunks, uint64_t h[3], const uint64_t rk[4], int sealing)
{
	__m256i s[16] __attribute__((aligned(32))), x[16] __attribute__((aligned(32)));
	const size_t chunk = 8 * CHACHA_BLOCK_SIZE;
	size_t i;

	words_bcast(s, state);
	for (i = 0; i < nchunks; i++) {
		if (!sealing)
			chacha_8block_rounds_poly_avx2(x, s, 20, h, rk, src + chunk * i, chunk / 16);
		else if (i)
			chacha_8block_rounds_poly_avx2(x, s, 20, h, rk, dst + chunk * (i - 1), chunk / 16);
		else
			chacha_8block_rounds_avx2(x, s, 20);
		chacha_8block_out512_avx2(x, dst + chunk * i, src + chunk * i);
		s[12] = _mm256_add_epi32(s[12], _mm256_set1_epi32(8));
	}
	state[12] += (uint32_t)(8 * nchunks);
}

#include "chacha_avx2_rounds10.h"

/*
 * Ten blocks per pass (chacha_avx2_rounds10.h, generated): blocks 0-7 word-
 * sliced from s[] (their "a" words kept in x[0..3] during the rounds), blocks
 * 8 and 9 in the row layout from sr[] (row a kept in xr[0]).  Leaves the
 * keystream words of blocks 0-7 in x[] and the keystream rows of blocks 8, 9
 * in xr[] (rounds + initial state).
 */
X86_TARGET_AVX2
static inline void chacha_10block_rounds_avx2(__m256i x[16], __m256i xr[4], const __m256i s[16],
					      const __m256i sr[4], int nrounds)
{
	unsigned long dr = (unsigned long)(nrounds / 2);

	__asm__ volatile(
		W_HOME(0x000, s, x) W_HOME(0x020, s, x) W_HOME(0x040, s, x) W_HOME(0x060, s, x)
		W_HOME(0x000, sr, xr)
		W_LOAD(0x020, sr, 1) W_LOAD(0x040, sr, 2) W_LOAD(0x060, sr, 3)
		W_LOAD(0x080, s, 4) W_LOAD(0x0a0, s, 5) W_LOAD(0x0c0, s, 6) W_LOAD(0x0e0, s, 7)
		W_LOAD(0x100, s, 8) W_LOAD(0x120, s, 9) W_LOAD(0x140, s, 10) W_LOAD(0x160, s, 11)
		W_LOAD(0x180, s, 12) W_LOAD(0x1a0, s, 13) W_LOAD(0x1c0, s, 14) W_LOAD(0x1e0, s, 15)
		"1:\n\t"
		CHACHA_AVX2_10BLOCK_DOUBLE_ROUND
		"dec %[dr]\n\t"
		"jnz 1b\n\t"
		W_FF_MEM(0x000, s, x) W_FF_MEM(0x020, s, x) W_FF_MEM(0x040, s, x) W_FF_MEM(0x060, s, x)
		W_FF_REG(0x080, s, 4, x) W_FF_REG(0x0a0, s, 5, x) W_FF_REG(0x0c0, s, 6, x)
		W_FF_REG(0x0e0, s, 7, x) W_FF_REG(0x100, s, 8, x) W_FF_REG(0x120, s, 9, x)
		W_FF_REG(0x140, s, 10, x) W_FF_REG(0x160, s, 11, x) W_FF_REG(0x180, s, 12, x)
		W_FF_REG(0x1a0, s, 13, x) W_FF_REG(0x1c0, s, 14, x) W_FF_REG(0x1e0, s, 15, x)
		W_FF_MEM(0x000, sr, xr)
		W_FF_REG(0x020, sr, 1, xr) W_FF_REG(0x040, sr, 2, xr) W_FF_REG(0x060, sr, 3, xr)
		: [dr] "+r"(dr)
		: [x] "r"(x), [xr] "r"(xr), [s] "r"(s), [sr] "r"(sr),
		  [r16] "m"(*(const __m256i *)rot16_mask), [r8] "m"(*(const __m256i *)rot8_mask)
		: "cc", "memory", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
		  "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15");
}

/*
 * nchunks whole 640-byte chunks of ten blocks each: the first 512 bytes of a
 * chunk from the word-sliced blocks (the 8-block output step), the last 128
 * from the row set.  state[12] is the caller's to advance.
 */
X86_TARGET_AVX2
static void chacha_10block_xor_avx2(const uint32_t state[16], uint8_t *dst,
				    const uint8_t *src, size_t nchunks, int nrounds)
{
	__m256i s[16] __attribute__((aligned(32))), x[16] __attribute__((aligned(32)));
	__m256i sr[4] __attribute__((aligned(32))), xr[4] __attribute__((aligned(32)));
	__m256i ks[4];
	int i;

	words_bcast(s, state);
	for (i = 0; i < 4; i++)
		sr[i] = bcast_row(state + 4 * i);
	sr[3] = _mm256_add_epi32(sr[3], _mm256_setr_epi32(8, 0, 0, 0, 9, 0, 0, 0));
	for (;;) {
		chacha_10block_rounds_avx2(x, xr, s, sr, nrounds);
		chacha_8block_out512_avx2(x, dst, src);
		rows_to_ks(xr[0], xr[1], xr[2], xr[3], ks);
		xor_ks256(dst + 8 * CHACHA_BLOCK_SIZE, src + 8 * CHACHA_BLOCK_SIZE,
			  2 * CHACHA_BLOCK_SIZE, ks, 4);
		if (!--nchunks)
			break;
		s[12] = _mm256_add_epi32(s[12], _mm256_set1_epi32(10));
		sr[3] = _mm256_add_epi32(sr[3], _mm256_setr_epi32(10, 0, 0, 0, 10, 0, 0, 0));
		src += 10 * CHACHA_BLOCK_SIZE;
		dst += 10 * CHACHA_BLOCK_SIZE;
	}
	/* (s[], x[], sr[], xr[] and ks[] are on the stack the entry point wipes) */
}

X86_TARGET_AVX2
X86_INTERNAL __attribute__((noinline)) void
chacha_avx2_blocks(uint32_t state[16], uint8_t *dst, const uint8_t *src, size_t bytes,
                   int nrounds)
{
	if (bytes >= 40 * CHACHA_BLOCK_SIZE) {
		/*
		 * 10-block chunks four at a time: 2560 bytes, five 8-block
		 * chunks' worth, so what is left is what the 8-block code would
		 * have had left (the same tail code runs for every length).
		 */
		size_t n10 = 4 * (bytes / (40 * CHACHA_BLOCK_SIZE));

		chacha_10block_xor_avx2(state, dst, src, n10, nrounds);
		state[12] += (uint32_t)(10 * n10);
		bytes -= 10 * CHACHA_BLOCK_SIZE * n10;
		src += 10 * CHACHA_BLOCK_SIZE * n10;
		dst += 10 * CHACHA_BLOCK_SIZE * n10;
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

/*
 * Eight independent streams at once (beyond the kernel): lane i of the
 * 8-block word-sliced code carries stream i's own state (key, counter,
 * nonce), so one pass of the rounds makes one block of every stream.  For a
 * template that runs many short messages under different keys (Adiantum
 * over the sectors of a disk: eight HChaCha subkeys, then eight 512-byte
 * streams), where one message's few blocks cannot fill the lanes and each
 * call would pay the set-up alone.  ``states`` is lanes * 16 words; lanes
 * past ``lanes`` (1..8) repeat stream 0 and are neither read nor written
 * beyond that.
 */
X86_TARGET_AVX2
static void lanes_load(__m256i s[16], const uint32_t *states, unsigned lanes)
{
	const uint32_t *st[8];
	int i, w;

	for (i = 0; i < 8; i++)
		st[i] = states + 16 * ((unsigned)i < lanes ? i : 0);
	for (w = 0; w < 16; w++)
		s[w] = _mm256_setr_epi32((int)st[0][w], (int)st[1][w], (int)st[2][w], (int)st[3][w],
					 (int)st[4][w], (int)st[5][w], (int)st[6][w], (int)st[7][w]);
}

/* HChaCha of each stream: out[8 * i ..] = words 0..3, 12..15 of its rounds. */
X86_TARGET_AVX2
static void hchacha_lanes_work(const uint32_t *states, uint32_t *out, unsigned lanes, int nrounds)
{
	__m256i s[16] __attribute__((aligned(32))), x[16] __attribute__((aligned(32)));
	uint32_t words[8][8] __attribute__((aligned(32)));
	unsigned i;
	int k;

	lanes_load(s, states, lanes);
	chacha_8block_rounds_avx2(x, s, nrounds);
	for (k = 0; k < 8; k++) {
		int w = k < 4 ? k : k + 8;	/* the rounds leave rounds + s: take s away */

		_mm256_store_si256((__m256i *)words[k], _mm256_sub_epi32(x[w], s[w]));
	}
	for (i = 0; i < lanes; i++)
		for (k = 0; k < 8; k++)
			out[8 * i + k] = words[k][i];
}

/* Each stream over ``bytes`` bytes at dst/src + i * stride; word 12 of each
 * state advanced by the blocks used (32-bit, as the other kernels). */
X86_TARGET_AVX2
static void chacha_lanes_work(uint32_t *states, uint8_t *dst, const uint8_t *src, size_t stride,
			      size_t bytes, unsigned lanes, int nrounds)
{
	__m256i s[16] __attribute__((aligned(32))), x[16] __attribute__((aligned(32)));
	__m256i ks[16];
	size_t off;
	unsigned i;

	lanes_load(s, states, lanes);
	for (off = 0; off < bytes; off += CHACHA_BLOCK_SIZE) {
		size_t n = bytes - off < CHACHA_BLOCK_SIZE ? bytes - off : CHACHA_BLOCK_SIZE;

		chacha_8block_rounds_avx2(x, s, nrounds);
		words_to_ks(x, ks);		/* block i: ks[2i], ks[2i + 1] */
		for (i = 0; i < lanes; i++)
			xor_ks256(dst + i * stride + off, src + i * stride + off, n, ks + 2 * i, 2);
		s[12] = _mm256_add_epi32(s[12], _mm256_set1_epi32(1));
	}
	for (i = 0; i < lanes; i++)
		states[16 * i + 12] += chacha_blocks_for(bytes);
	/* (s[], x[] and ks[] are on the stack the entry point wipes) */
}

void hchacha_lanes_avx2(const uint32_t *states, uint32_t *out, unsigned lanes, int nrounds)
{
	hchacha_lanes_work(states, out, lanes, nrounds);
	memzero_stack(CHACHA_AVX2_STACK_USE);
}

void chacha_lanes_xor_avx2(uint32_t *states, uint8_t *dst, const uint8_t *src, size_t stride,
			   size_t bytes, unsigned lanes, int nrounds)
{
	chacha_lanes_work(states, dst, src, stride, bytes, lanes, nrounds);
	memzero_stack(CHACHA_AVX2_STACK_USE);
}

#elif defined(__i386__)

/*
 * 32-bit x86 has eight vector registers, fewer than the asm above names:
 * there the SSSE3 worker does the work (the same bytes and counter).
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

/* The lanes one stream after another (the same bytes and states). */
void hchacha_lanes_avx2(const uint32_t *states, uint32_t *out, unsigned lanes, int nrounds)
{
	for (unsigned i = 0; i < lanes; i++)
		hchacha_block_ssse3(states + 16 * i, out + 8 * i, nrounds);
}

void chacha_lanes_xor_avx2(uint32_t *states, uint8_t *dst, const uint8_t *src, size_t stride,
			   size_t bytes, unsigned lanes, int nrounds)
{
	for (unsigned i = 0; i < lanes; i++)
		chacha_ssse3_blocks(states + 16 * i, dst + i * stride, src + i * stride, bytes, nrounds);
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

void hchacha_lanes_avx2(const uint32_t *states, uint32_t *out, unsigned lanes, int nrounds)
{
	(void)states; (void)out; (void)lanes; (void)nrounds;
	abort();
}

void chacha_lanes_xor_avx2(uint32_t *states, uint8_t *dst, const uint8_t *src, size_t stride,
			   size_t bytes, unsigned lanes, int nrounds)
{
	(void)states; (void)dst; (void)src; (void)stride; (void)bytes; (void)lanes; (void)nrounds;
	abort();
}

#endif
