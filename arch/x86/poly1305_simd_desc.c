/*
 * The update logic of v5.0's poly1305-simd (arch/x86/crypto/poly1305_glue.c)
 * over the generic descriptor: the glue (poly1305_simd_glue.py) picks the
 * generic update for short inputs or when SIMD is unusable, else this
 * vectorised one inside one FPU section.  Whole blocks go sixteen at a
 * time to the radix-2^44 AVX-512 IFMA code (where allowed: a project
 * addition, poly1305_ifma.h), four at a time to AVX2 (where allowed), then
 * two at a time to SSE2; a last single block
 * takes the scalar 26-bit code, on the same accumulator.  The partial last
 * block and the final "+ s" are the generic final's.
 */
#include "poly1305_simd_desc.h"
#include "poly1305_ifma.h"
#include "memzero.h"
#include "byteorder.h"

void poly1305_simd_init(struct poly1305_simd_desc *d)
{
	poly1305_desc_init(&d->base);
	memset(&d->pw, 0, sizeof(d->pw));
}

void poly1305_simd_update_generic(struct poly1305_simd_desc *d, const uint8_t *src, size_t len)
{
	poly1305_desc_update(&d->base, src, len, &poly1305_generic_ops);
}

/*
 * steps * 16 blocks through the IFMA code, on the 26-bit accumulator.  Its
 * powers r^1..r^16 do not fit the descriptor (HASH_MAX_DESCSIZE): they are
 * made for each call, on the stack.
 */
static void ifma_blocks(struct poly1305_desc *b, const uint8_t *src, size_t steps)
{
	struct poly1305_ifma_key ik;
	struct p26_state st;
	struct p26_key k;
	uint64_t g[3];

	memcpy(&k, &b->r, sizeof(k));
	poly1305_ifma_from_26(g, k.r);
	poly1305_ifma_setkey(&ik, g);
	memcpy(&st, &b->h, sizeof(st));
	poly1305_ifma_from_26(g, st.h);
	poly1305_ifma_blocks(g, &ik, src, steps, 1);
	poly1305_ifma_to_26(st.h, g);
	memcpy(&b->h, &st, sizeof(st));
	memzero_explicit(&ik, sizeof(ik));
	memzero_explicit(&k, sizeof(k));
	memzero_explicit(&st, sizeof(st));
	memzero_explicit(g, sizeof(g));
}

/* Whole blocks of message (the key is complete); returns len % 16. */
static size_t simd_blocks(struct poly1305_simd_desc *d, const uint8_t *src, size_t len, int isa)
{
	size_t n = len / POLY1305_BLOCK_SIZE;

	if (isa == POLY1305_SIMD_IFMA) {
		if (n >= POLY1305_IFMA_STEP_BLOCKS) {
			ifma_blocks(&d->base, src, n / POLY1305_IFMA_STEP_BLOCKS);
			src += (n & ~(size_t)15) * POLY1305_BLOCK_SIZE;
			n &= 15;
		}
		isa = POLY1305_SIMD_AVX2;
	}
	if (isa == POLY1305_SIMD_AVX2 && n >= 4) {
		poly1305_simd_powers_fill(&d->pw, &d->base.r, 4);
		poly1305_blocks_avx2(&d->base.h, &d->pw, src, n / 4, 1);
		src += (n & ~(size_t)3) * POLY1305_BLOCK_SIZE;
		n &= 3;
	}
	if (n >= 2) {
		poly1305_simd_powers_fill(&d->pw, &d->base.r, 2);
		poly1305_blocks_sse2(&d->base.h, &d->pw, src, n / 2, 1);
		src += (n & ~(size_t)1) * POLY1305_BLOCK_SIZE;
		n &= 1;
	}
	if (n)
		poly1305_generic_blocks(&d->base.h, &d->base.r, src, 1, 1);
	return len % POLY1305_BLOCK_SIZE;
}

void poly1305_simd_update(struct poly1305_simd_desc *d, const uint8_t *src, size_t len, int isa)
{
	struct poly1305_desc *b = &d->base;
	size_t n;

	if (!b->sset) {
		/* r and s still to come: the generic update takes them */
		n = 2 * POLY1305_BLOCK_SIZE - (b->rset ? POLY1305_BLOCK_SIZE : 0) - b->buflen;
		n = min_size(n, len);
		poly1305_desc_update(b, src, n, &poly1305_generic_ops);
		src += n;
		len -= n;
		if (!len)
			return;
	}
	if (b->buflen) {
		n = min_size(len, POLY1305_BLOCK_SIZE - b->buflen);
		memcpy(b->buf + b->buflen, src, n);
		b->buflen += (uint32_t)n;
		src += n;
		len -= n;
		if (b->buflen < POLY1305_BLOCK_SIZE)
			return;
		simd_blocks(d, b->buf, POLY1305_BLOCK_SIZE, isa);
		b->buflen = 0;
	}
	n = simd_blocks(d, src, len, isa);
	if (n) {
		memcpy(b->buf, src + len - n, n);
		b->buflen = (uint32_t)n;
	}
}

int poly1305_simd_final(struct poly1305_simd_desc *d, uint8_t digest[16])
{
	int rc = poly1305_desc_final(&d->base, digest, &poly1305_generic_ops);

	memzero_explicit(&d->pw, sizeof(d->pw));
	return rc;
}

int poly1305_simd_digest(const uint8_t *src, size_t len, uint8_t digest[16], int isa)
{
	struct poly1305_simd_desc d;
	int rc;

	poly1305_simd_init(&d);
	if (isa)
		poly1305_simd_update(&d, src, len, isa);
	else
		poly1305_simd_update_generic(&d, src, len);
	rc = poly1305_simd_final(&d, digest);
	memzero_explicit(&d, sizeof(d));
	return rc;
}

int poly1305_simd_digest_call(const void *handle, char *digest, const char *src, size_t len)
{
	return poly1305_simd_digest((const uint8_t *)src, len, (uint8_t *)digest, *(const int *)handle);
}

void poly1305_simd_hash(const uint8_t raw_r[16], const uint8_t *src, size_t nblocks,
			int isa, uint8_t out[16])
{
	poly1305_core_key key;
	poly1305_core_state h;
	struct poly1305_simd_powers pw = { .count = 0 };
	size_t lanes = isa == POLY1305_SIMD_IFMA ? POLY1305_IFMA_STEP_BLOCKS :
		       isa == POLY1305_SIMD_AVX2 ? 4 : 2;
	size_t steps = isa ? nblocks / lanes : 0;

	poly1305_generic_setkey(&key, raw_r);
	poly1305_generic_init(&h);
	poly1305_simd_powers_fill(&pw, &key, (uint32_t)(lanes < 4 ? lanes : 4));
	if (isa == POLY1305_SIMD_IFMA) {
		struct poly1305_desc b = { .r = key, .h = h };

		ifma_blocks(&b, src, steps);
		h = b.h;
		memzero_explicit(&b, sizeof(b));
	} else if (isa == POLY1305_SIMD_AVX2)
		poly1305_blocks_avx2(&h, &pw, src, steps, 1);
	else if (isa == POLY1305_SIMD_SSE2)
		poly1305_blocks_sse2(&h, &pw, src, steps, 1);
	poly1305_generic_blocks(&h, &key, src + steps * lanes * 16, nblocks - steps * lanes, 1);
	poly1305_generic_emit(&h, out);
}
