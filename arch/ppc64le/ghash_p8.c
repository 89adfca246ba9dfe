/*
 * GHASH on vpmsumd (see ghash_p8.h).  A block is one big-endian 128-bit
 * number in register order (aes_p8_vec.h's load), which is the reflected
 * element of arch/common/gf128_reflected.h.  vpmsumd multiplies both
 * doubleword pairs carry-lessly and XORs the two products, so the middle
 * term a.lo*b.hi ^ a.hi*b.lo of a 128x128-bit product is one instruction;
 * the outer terms are one each with the other lane zero.  The reduction is
 * the shared one.
 */
#include "ghash_p8.h"
#include "aes_p8_vec.h"
#include "gf128_reflected.h"
#include "memzero.h"

static inline vu64 pmsum(vu64 a, vu64 b)
{
	return __builtin_crypto_vpmsumd(a, b);
}

/* a * b, both reflected; lane 0 the low 64 bits, lane 1 the high */
static inline vu64 gf128_mul_p8(vu64 a, vu64 b)
{
	vu64 ll = pmsum((vu64){ a[0], 0 }, (vu64){ b[0], 0 });
	vu64 hh = pmsum((vu64){ a[1], 0 }, (vu64){ b[1], 0 });
	vu64 mid = pmsum(a, (vu64){ b[1], b[0] });
	struct u128 r = gf128_reduce_reflected(ll[0], ll[1] ^ mid[0], hh[0] ^ mid[1], hh[1]);

	return (vu64){ r.lo, r.hi };
}

void ghash_blocks_p8(uint8_t *acc, const struct ghash_key *key, const uint8_t *data, size_t nblocks)
{
	vu64 h = { key->lo, key->hi };
	vu64 y = p8_load(acc);

	for (; nblocks; nblocks--, data += GHASH_BLOCK_SIZE)
		y = gf128_mul_p8(y ^ p8_load(data), h);
	p8_store(acc, y);
	memzero_explicit(&y, sizeof(y));
	memzero_explicit(&h, sizeof(h));
}

void ghash_p8_setkey(void *key, const uint8_t *raw)
{
	ghash_setkey(key, raw);
}

GHASH_REFLECTED_ENTRIES(ghash_p8, ghash_blocks_p8)
