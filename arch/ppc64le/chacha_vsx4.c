/*
 * The seed's ChaCha design on POWER8 VSX (Go x/crypto's ppc64le
 * chaCha20_ctr32_vsx): four blocks per iteration, VPERMXOR rotates, 32-bit
 * counter lanes.  Unlike the seed: 12 or 20 rounds (XChaCha12), whole
 * 256-byte groups only, and the state's counter is not written back (the
 * glue adds the blocks used, as the kernel's glue does).
 */
#include "chacha_vsx.h"

void chacha_vsx4_xor(const uint32_t *state, uint8_t *dst, const uint8_t *src, size_t len,
		     int nrounds)
{
	uint32_t ctr = state[12];

	for (size_t off = 0; off + 256 <= len; off += 256, ctr += 4)
		capi_chacha_vsx_4block(state, ctr, dst + off, src + off, nrounds);
}
