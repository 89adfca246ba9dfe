/*
 * GHASH on PMULL (see ghash_ce.h): the 64x64-bit products of
 * ghash_reflected.h are single PMULL/PMULL2 instructions.
 */
#include <arm_neon.h>

#include "ghash_ce.h"
#include "ghash_reflected.h"

static inline uint64x2_t clmul_p64(uint64_t a, uint64_t b)
{
	return vreinterpretq_u64_p128(vmull_p64((poly64_t)a, (poly64_t)b));
}

void ghash_blocks_pmull(uint8_t *acc, const struct ghash_key *key,
			const uint8_t *data, size_t nblocks)
{
	ghash_blocks_reflected(acc, key, data, nblocks, clmul_p64);
}

GHASH_REFLECTED_ENTRIES(ghash_ce, ghash_blocks_pmull)
