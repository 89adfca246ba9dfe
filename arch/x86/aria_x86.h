/*
 * The x86 ARIA cores: 16 blocks per call on AVX (AES-NI or GFNI S-boxes),
 * 32 on AVX2 (either), 64 on AVX-512 with GFNI; the role of the exported
 * functions of the kernel's arch/x86/crypto/aria-*-asm_64.S.  Each call
 * processes exactly ncalls x width blocks; the glue routes remainders to the
 * generic single-block code.  Call a variant only when the CPU has its
 * instruction sets (arch/x86/aria_glue.py checks them).
 */
#ifndef CRYPTO_API_ARIA_X86_H
#define CRYPTO_API_ARIA_X86_H

#include "aria_generic.h"
#include "x86_common.h"

/* cdef: begin */
/* One variant per instruction-set level and S-box method (aria_simd.h). */
void aria_avx_aesni_ecb(const struct aria_ctx *ctx, uint8_t *out, const uint8_t *in,
	size_t ncalls, int encrypt);
void aria_avx_aesni_ctr(const struct aria_ctx *ctx, uint8_t *out, const uint8_t *in,
	size_t ncalls, uint8_t iv[16]);
void aria_avx_gfni_ecb(const struct aria_ctx *ctx, uint8_t *out, const uint8_t *in,
	size_t ncalls, int encrypt);
void aria_avx_gfni_ctr(const struct aria_ctx *ctx, uint8_t *out, const uint8_t *in,
	size_t ncalls, uint8_t iv[16]);
void aria_avx2_aesni_ecb(const struct aria_ctx *ctx, uint8_t *out, const uint8_t *in,
	size_t ncalls, int encrypt);
void aria_avx2_aesni_ctr(const struct aria_ctx *ctx, uint8_t *out, const uint8_t *in,
	size_t ncalls, uint8_t iv[16]);
void aria_avx2_gfni_ecb(const struct aria_ctx *ctx, uint8_t *out, const uint8_t *in,
	size_t ncalls, int encrypt);
void aria_avx2_gfni_ctr(const struct aria_ctx *ctx, uint8_t *out, const uint8_t *in,
	size_t ncalls, uint8_t iv[16]);
void aria_avx512_gfni_ecb(const struct aria_ctx *ctx, uint8_t *out, const uint8_t *in,
	size_t ncalls, int encrypt);
void aria_avx512_gfni_ctr(const struct aria_ctx *ctx, uint8_t *out, const uint8_t *in,
	size_t ncalls, uint8_t iv[16]);
/* XTS over ncalls x width blocks (aria_simd.h): the data key's round keys
 * of the direction, the tweak of the first block, advanced past them. */
void aria_avx_aesni_xts(const struct aria_ctx *ctx, uint8_t *out, const uint8_t *in,
	size_t ncalls, uint8_t tweak[16], int encrypt);
void aria_avx_gfni_xts(const struct aria_ctx *ctx, uint8_t *out, const uint8_t *in,
	size_t ncalls, uint8_t tweak[16], int encrypt);
void aria_avx2_aesni_xts(const struct aria_ctx *ctx, uint8_t *out, const uint8_t *in,
	size_t ncalls, uint8_t tweak[16], int encrypt);
void aria_avx2_gfni_xts(const struct aria_ctx *ctx, uint8_t *out, const uint8_t *in,
	size_t ncalls, uint8_t tweak[16], int encrypt);
void aria_avx512_gfni_xts(const struct aria_ctx *ctx, uint8_t *out, const uint8_t *in,
	size_t ncalls, uint8_t tweak[16], int encrypt);

/* A whole request over contiguous bytes in the glue's order: the module's
 * widths widest first (level 1: AVX 16 blocks; 2: AVX2 32, 16; 3: AVX-512
 * 64, 32, 16; 0: none), then the generic single-block code for the rest
 * (ECB: whole blocks; CTR: the final partial block too).  iv_in is not
 * changed.  The one-call path of the glue, used where no FPU section is
 * observed. */
#define ARIA_X86_ECB_DECRYPT 0
#define ARIA_X86_ECB_ENCRYPT 1
#define ARIA_X86_CTR 2
void aria_x86_crypt_bytes(const struct aria_ctx *ctx, int level, int gfni, int mode,
			  char *dst, const char *src, size_t n, const char *iv_in);
/* The same over a handle: the routine of the driver's direct path
 * (crypto_api.direct.skcipher_direct), one handle per code level. */
struct aria_x86_direct {
	const struct aria_ctx *key;
	int level;
	int gfni;
	int mode;
};
void aria_x86_direct_bytes(const struct aria_x86_direct *h, char *dst, const char *src,
			   size_t n, const char *iv);

/* XTS (arch/x86/aria_xts.c; no kernel counterpart: the kernel has no x86
 * XTS ARIA).  Whole blocks from src to dst with the module's widths
 * (level as above; 0: the generic single-block code only); tweak is the
 * first block's and is left at the tweak of the block after them. */
void aria_x86_xts_blocks(const struct aria_ctx *ctx, int level, int gfni, int encrypt,
			 uint8_t *dst, const uint8_t *src, size_t nblocks, uint8_t tweak[16]);
/* The last full block and the r (1..15) bytes after it, ciphertext
 * stealing as IEEE P1619 (and the kernel's xts template) does it; tweak is
 * that full block's; src may equal dst. */
void aria_x86_xts_steal(const struct aria_ctx *ctx, int encrypt, uint8_t *dst, const uint8_t *src,
			size_t r, const uint8_t tweak[16]);
/* A whole XTS request over contiguous bytes: T_0 = E_K2(iv), the blocks,
 * the stealing; n >= 16.  The routine of the driver's direct path. */
struct aria_x86_xts_direct {
	const struct aria_ctx *key;		/* K1, the data key */
	const struct aria_ctx *tweak_key;	/* K2 */
	int level;
	int gfni;
	int encrypt;
};
void aria_x86_xts_direct_bytes(const struct aria_x86_xts_direct *h, char *dst, const char *src,
			       size_t n, const char *iv);
/* cdef: end */

/* The round keys, each key byte repeated over a 32-bit word (row i = round
 * key i, byte j at [i][j]): what the cores broadcast. */
X86_INTERNAL void aria_x86_round_key_words(uint32_t rk[][16], const uint32_t w[][4], int rounds);
/* out = in times x in GF(2^128), the XTS (little-endian) convention; 16
 * bytes each, out may equal in. */
X86_INTERNAL void aria_x86_gf128_double(uint8_t *out, const uint8_t *in);
/* All ones in the low quadword of every 128-bit lane (64 bytes). */
X86_INTERNAL extern const uint8_t aria_x86_low_qwords[64];

/* One SIMD width of a module: its block count and its three routines. */
struct aria_x86_width {
	size_t nblocks;
	void (*ecb)(const struct aria_ctx *, uint8_t *, const uint8_t *, size_t, int);
	void (*ctr)(const struct aria_ctx *, uint8_t *, const uint8_t *, size_t, uint8_t *);
	void (*xts)(const struct aria_ctx *, uint8_t *, const uint8_t *, size_t, uint8_t *, int);
};
/* The widths of the S-box method, narrowest first; *level is clamped to
 * the number there is. */
X86_INTERNAL const struct aria_x86_width *aria_x86_widths(int gfni, int *level);

#endif
