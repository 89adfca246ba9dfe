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
/* cdef: end */

/* The round keys as bytes (row i = round key i, big-endian word order). */
X86_INTERNAL void aria_x86_round_key_bytes(uint8_t rk[][16], const uint32_t w[][4], int rounds);
/* n counter blocks iv, iv + 1, ... into out; iv += n (128-bit big endian). */
X86_INTERNAL void aria_x86_counter_blocks(uint8_t *out, uint8_t iv[16], size_t n);

#endif
