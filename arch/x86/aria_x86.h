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

#define ARIA_X86_VARIANT(sfx)                                                        \
	void aria_##sfx##_ecb(const struct aria_ctx *ctx, uint8_t *out, const uint8_t *in, \
			      size_t ncalls, int encrypt);                                 \
	void aria_##sfx##_ctr(const struct aria_ctx *ctx, uint8_t *out, const uint8_t *in, \
			      size_t ncalls, uint8_t iv[16]);

ARIA_X86_VARIANT(avx_aesni)
ARIA_X86_VARIANT(avx_gfni)
ARIA_X86_VARIANT(avx2_aesni)
ARIA_X86_VARIANT(avx2_gfni)
ARIA_X86_VARIANT(avx512_gfni)

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

/* The round keys as bytes (row i = round key i, big-endian word order). */
X86_INTERNAL void aria_x86_round_key_bytes(uint8_t rk[][16], const uint32_t w[][4], int rounds);
/* n counter blocks iv, iv + 1, ... into out; iv += n (128-bit big endian). */
X86_INTERNAL void aria_x86_counter_blocks(uint8_t *out, uint8_t iv[16], size_t n);

#endif
