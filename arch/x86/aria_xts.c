/*
 * XTS over the x86 ARIA cores: no kernel counterpart (the kernel has no x86
 * XTS ARIA driver; its xts template over ecb-aria-* is what it offers, see
 * crypto/xts.c for the construction this follows).  The blocks go through
 * the module's widths (aria_simd.h's xts routine: the tweaks are computed in
 * vector registers), what is left through the generic single-block code;
 * a length that is not whole blocks ends with ciphertext stealing (IEEE
 * P1619, as the template's 5.4+ code does it).
 */
#include "aria_x86.h"

/* One block: out = C(in ^ t) ^ t with the round keys of the direction. */
static void xts_one(const struct aria_ctx *ctx, int encrypt, uint8_t out[16], const uint8_t in[16],
		    const uint8_t t[16])
{
	uint8_t b[ARIA_BLOCK_SIZE];

	for (int i = 0; i < ARIA_BLOCK_SIZE; i++)
		b[i] = in[i] ^ t[i];
	aria_crypt_block(encrypt ? ctx->enc_key : ctx->dec_key, ctx->rounds, b, b);
	for (int i = 0; i < ARIA_BLOCK_SIZE; i++)
		out[i] = b[i] ^ t[i];
	memzero_explicit(b, sizeof(b));
}

void aria_x86_xts_blocks(const struct aria_ctx *ctx, int level, int gfni, int encrypt,
			 uint8_t *dst, const uint8_t *src, size_t nblocks, uint8_t tweak[16])
{
	uint8_t *out = dst;
	const uint8_t *in = src;
	const struct aria_x86_width *w = aria_x86_widths(gfni, &level);

	for (int i = level - 1; i >= 0; i--) {
		size_t calls = nblocks / w[i].nblocks, done = calls * w[i].nblocks;

		if (!calls)
			continue;
		w[i].xts(ctx, out, in, calls, tweak, encrypt);
		out += ARIA_BLOCK_SIZE * done;
		in += ARIA_BLOCK_SIZE * done;
		nblocks -= done;
	}
	for (; nblocks; nblocks--, out += ARIA_BLOCK_SIZE, in += ARIA_BLOCK_SIZE) {
		xts_one(ctx, encrypt, out, in, tweak);
		aria_x86_gf128_double(tweak, tweak);
	}
}

void aria_x86_xts_steal(const struct aria_ctx *ctx, int encrypt, uint8_t *dst, const uint8_t *src,
			size_t r, const uint8_t tweak[16])
{
	uint8_t next[ARIA_BLOCK_SIZE], head[ARIA_BLOCK_SIZE], last[ARIA_BLOCK_SIZE];
	const uint8_t *in = src;
	uint8_t *out = dst;

	/* decryption takes the two tweaks in the other order */
	aria_x86_gf128_double(next, tweak);
	xts_one(ctx, encrypt, head, in, encrypt ? tweak : next);
	memcpy(last, in + ARIA_BLOCK_SIZE, r);
	memcpy(last + r, head + r, ARIA_BLOCK_SIZE - r);
	memcpy(out + ARIA_BLOCK_SIZE, head, r);
	xts_one(ctx, encrypt, out, last, encrypt ? next : tweak);
	memzero_explicit(head, sizeof(head));
	memzero_explicit(last, sizeof(last));
	memzero_explicit(next, sizeof(next));
}

void aria_x86_xts_direct_bytes(const struct aria_x86_xts_direct *h, char *dst, const char *src,
			       size_t n, const char *iv)
{
	uint8_t t[ARIA_BLOCK_SIZE];
	size_t r = n % ARIA_BLOCK_SIZE, main = n / ARIA_BLOCK_SIZE - (r ? 1 : 0);
	uint8_t *out = (uint8_t *)dst;
	const uint8_t *in = (const uint8_t *)src;

	aria_encrypt(h->tweak_key, t, (const uint8_t *)iv);
	aria_x86_xts_blocks(h->key, h->level, h->gfni, h->encrypt, out, in, main, t);
	if (r)
		aria_x86_xts_steal(h->key, h->encrypt, out + ARIA_BLOCK_SIZE * main,
				   in + ARIA_BLOCK_SIZE * main, r, t);
	memzero_explicit(t, sizeof(t));
}
