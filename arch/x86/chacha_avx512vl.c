/*
 * ChaCha with AVX-512VL (256-bit vectors, EVEX encoding), the counterpart of
 * the kernel's arch/x86/crypto/chacha-avx512vl-x86_64.S plus the AVX-512VL
 * part of the v5.0 length dispatch in arch/x86/crypto/chacha_glue.c.
 *
 * Same register layouts as the AVX2 code (2 blocks: one row per register,
 * two blocks per register; 4 blocks: two such sets; 8 blocks: one word of
 * eight blocks per register, transposed at the end), but every rotation is a
 * single vprold and partial blocks are handled with AVX-512BW byte masks
 * instead of a bounce buffer.  The eight-block state fits in the 32 ymm
 * registers AVX-512VL provides without spilling.
 *
 * Dispatch per call: whole 512-byte chunks with 8 blocks, then a remainder
 * of 257..511 bytes with 8 blocks, 129..256 with 4, 1..128 with 2.  The
 * SSSE3 code (chacha_ssse3.c) is linked in only for hchacha_block_ssse3.
 * The 2- and 4-block kernels and the transposes are the AVX2 file's, from
 * chacha_ymm_rows.h with vprold for the rotations.
 */
#include "chacha_x86.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

/* The last partial 32-byte chunk with AVX-512BW byte masks: masked-off
 * bytes are neither read nor written, so no bounce buffer is needed. */
X86_TARGET_AVX512
static inline void xor_tail256(uint8_t *dst, const uint8_t *src, size_t n, __m256i ks)
{
	const __mmask32 k = (__mmask32)((1u << n) - 1);

	_mm256_mask_storeu_epi8(dst, k, _mm256_xor_si256(_mm256_maskz_loadu_epi8(k, src), ks));
}

#define YMM_TARGET X86_TARGET_AVX512
#define YMM_ROT16(x) _mm256_rol_epi32((x), 16)
#define YMM_ROT12(x) _mm256_rol_epi32((x), 12)
#define YMM_ROT8(x) _mm256_rol_epi32((x), 8)
#define YMM_ROT7(x) _mm256_rol_epi32((x), 7)
#define YMM_NAME(f) f##_avx512vl
#include "chacha_ymm_rows.h"

X86_TARGET_AVX512
static void chacha_8block_xor_avx512vl(const uint32_t state[16], uint8_t *dst,
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
	 * registers; the transposes below work on y.  The state is broadcast
	 * again here rather than kept from the start as words_bcast() would:
	 * held across the rounds it costs registers, 5% at 4 KiB here) */
	for (i = 0; i < 16; i++)
		y[i] = _mm256_add_epi32(x[i], _mm256_set1_epi32((int)state[i]));
	y[12] = _mm256_add_epi32(y[12], ctr);

	words_to_ks(y, ks);
	xor_ks256(dst, src, len, ks, 16);
}

X86_TARGET_AVX512
X86_INTERNAL __attribute__((noinline)) void
chacha_avx512vl_blocks(uint32_t state[16], uint8_t *dst, const uint8_t *src, size_t bytes,
                       int nrounds)
{
	while (bytes >= 8 * CHACHA_BLOCK_SIZE) {
		chacha_8block_xor_avx512vl(state, dst, src, 8 * CHACHA_BLOCK_SIZE,
					   nrounds);
		bytes -= 8 * CHACHA_BLOCK_SIZE;
		src += 8 * CHACHA_BLOCK_SIZE;
		dst += 8 * CHACHA_BLOCK_SIZE;
		state[12] += 8;
	}
	if (bytes > 4 * CHACHA_BLOCK_SIZE) {
		chacha_8block_xor_avx512vl(state, dst, src, bytes, nrounds);
		state[12] += chacha_blocks_for(bytes);
		return;
	}
	if (bytes > 2 * CHACHA_BLOCK_SIZE) {
		chacha_4block_xor_avx512vl(state, dst, src, bytes, nrounds);
		state[12] += chacha_blocks_for(bytes);
		return;
	}
	if (bytes) {
		chacha_2block_xor_avx512vl(state, dst, src, bytes, nrounds);
		state[12] += chacha_blocks_for(bytes);
	}
}

/* The exported entry: the worker, then the stack it used wiped (keystream, spills). */
void chacha_dosimd_avx512vl(uint32_t state[16], uint8_t *dst, const uint8_t *src,
			size_t bytes, int nrounds)
{
	chacha_avx512vl_blocks(state, dst, src, bytes, nrounds);
	memzero_stack(CHACHA_AVX512VL_STACK_USE);
}

#else /* not x86 */

#include <stdlib.h>

void chacha_dosimd_avx512vl(uint32_t state[16], uint8_t *dst, const uint8_t *src,
			size_t bytes, int nrounds)
{
	(void)state; (void)dst; (void)src; (void)bytes; (void)nrounds;
	abort();
}

#endif
