/*
 * Four-block Poly1305 with AVX2 (the role of v5.0's poly1305_4block_avx2 in
 * arch/x86/crypto/poly1305-avx2-x86_64.S): poly1305_lanes.h over 256-bit
 * vectors.  Call only where the CPU has AVX2 and the OS saves YMM state.
 */
#include "poly1305_simd.h"

#if defined(__x86_64__)

#include "poly1305_lanes_avx2.h"

__attribute__((target("avx2")))
void poly1305_blocks_avx2(poly1305_core_state *h, const struct poly1305_simd_powers *pw,
			  const uint8_t *src, size_t steps, uint32_t hibit)
{
	pl_blocks_avx2(h, pw, src, steps, hibit);
}

#else /* not x86_64: never called there (the driver needs x86_64) */

#include <stdlib.h>

void poly1305_blocks_avx2(poly1305_core_state *h, const struct poly1305_simd_powers *pw,
			  const uint8_t *src, size_t steps, uint32_t hibit)
{
	(void)h; (void)pw; (void)src; (void)steps; (void)hibit;
	abort();
}

#endif
