/*
 * The SHA-512 block functions of sha512-ssse3 and sha512-avx
 * (arch/x86/crypto/sha512_ssse3_glue.c): sha512_simd_body.h built for each
 * instruction set; sha512-avx2's is sha512_avx2.c.  Call each only when the
 * CPU has its target's features (the glue checks: SSSE3; AVX with the ymm
 * state saved).
 */
#include "x86_common.h"
#include "sha512_x86.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

#include "sha512_rounds.h"

#define SHA512_TARGET X86_TARGET("ssse3")
#define SHA512_NAME(x) sha512_ssse3_##x
#include "sha512_simd_body.h"
#undef SHA512_TARGET
#undef SHA512_NAME

#define SHA512_TARGET X86_TARGET("avx")
#define SHA512_NAME(x) sha512_avx_##x
#include "sha512_simd_body.h"

#else /* not x86: the glue never calls these */

#include <stdlib.h>

void sha512_ssse3_blocks(void *state, const uint8_t *data, size_t nblocks)
{
	(void)state; (void)data; (void)nblocks;
	abort();
}

void sha512_avx_blocks(void *state, const uint8_t *data, size_t nblocks)
{
	sha512_ssse3_blocks(state, data, nblocks);
}

#endif
