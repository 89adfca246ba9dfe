/*
 * The SHA-256 block functions of sha256-ssse3, sha256-avx and sha256-avx2
 * (arch/x86/crypto/sha256_ssse3_glue.c): sha256_simd_body.h built for each
 * instruction set.  Call each only when the CPU has its target's features
 * (the glue checks: SSSE3; AVX with ymm state; AVX2 and BMI2 as well).
 */
#include "x86_common.h"
#include "sha256_x86.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

#define SHA_TARGET X86_TARGET("ssse3")
#define SHA_NAME(x) sha256_ssse3_##x
#include "sha256_simd_body.h"
#undef SHA_TARGET
#undef SHA_NAME

#define SHA_TARGET X86_TARGET("avx")
#define SHA_NAME(x) sha256_avx_##x
#include "sha256_simd_body.h"
#undef SHA_TARGET
#undef SHA_NAME

#define SHA_TARGET X86_TARGET("avx2,bmi2")
#define SHA_NAME(x) sha256_avx2_##x
#include "sha256_simd_body.h"

#else /* not x86: the glue never gets here, but keep the symbols */

#include <stdlib.h>

#define SHA_STUB(name)								\
void name(uint32_t *state, const uint8_t *data, size_t nblocks)		\
{										\
	(void)state; (void)data; (void)nblocks;					\
	abort();								\
}

SHA_STUB(sha256_ssse3_blocks)
SHA_STUB(sha256_avx_blocks)
SHA_STUB(sha256_avx2_blocks)

#endif
