/*
 * GHASH on the 8-bit PMULL of plain ASIMD (see ghash_neon.h).  A 64x64-bit
 * carry-less product is built from eight vmull_p8: the k-th multiplies the
 * eight bytes of a by byte k of b at once, giving eight 16-bit products,
 * the one of byte i belonging at bit 8*(i + k) of the result.  Products of
 * even i do not overlap each other (16 bits apart), nor do those of odd i,
 * so the even lanes packed side by side, XORed with the odd lanes packed and
 * moved up a byte, are the 72-bit product of a and byte k; it goes in at
 * 8*k.  The rest (byte order, the fold modulo the GCM polynomial, the
 * descriptor) is ghash_reflected.h's, shared with the 64-bit PMULL core.
 */
#include <arm_neon.h>

#include "ghash_neon.h"
#include "ghash_reflected.h"

static inline uint64x2_t clmul_p8(uint64_t a, uint64_t b)
{
	poly8x8_t va = vcreate_p8(a);
	uint64_t lo = 0, hi = 0;
	int k;

	for (k = 0; k < 8; k++) {
		poly8x8_t bk = vdup_n_p8((poly8_t)(b >> (8 * k)));
		uint16x8_t p = vreinterpretq_u16_p16(vmull_p8(va, bk));
		uint64_t even = vgetq_lane_u64(vreinterpretq_u64_u16(vuzp1q_u16(p, p)), 0);
		uint64_t odd = vgetq_lane_u64(vreinterpretq_u64_u16(vuzp2q_u16(p, p)), 0);
		uint64_t plo = even ^ (odd << 8), phi = odd >> 56;

		if (k == 0) {
			lo ^= plo;
			hi ^= phi;
		} else {
			lo ^= plo << (8 * k);
			hi ^= (phi << (8 * k)) | (plo >> (64 - 8 * k));
		}
	}
	return vcombine_u64(vcreate_u64(lo), vcreate_u64(hi));
}

void ghash_blocks_p8(uint8_t *acc, const struct ghash_key *key,
		     const uint8_t *data, size_t nblocks)
{
	ghash_blocks_reflected(acc, key, data, nblocks, clmul_p8);
}

GHASH_REFLECTED_ENTRIES(ghash_neon, ghash_blocks_p8)
