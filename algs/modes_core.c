/*
 * Block-cipher mode loops over a one-block function pointer: ECB, CBC, CTR,
 * XCTR and XTS with ciphertext stealing (IEEE P1619), as the kernel's generic
 * templates compute them.
 *
 * Each entry runs its loop in a noinline worker, then wipes the stack the
 * worker and the block function used (memzero_stack): what a mode keeps in
 * its own buffers is wiped by name, but the block function may leave its
 * last output in its frame (aes-generic assembles the block there), and
 * that is keystream (CTR, XCTR), a decrypted block (CBC, ECB) or a tweak (XTS).
 */
#include <string.h>

#include "memzero.h"
#include "modes_core.h"

/* The deepest worker with the block function it calls (gcc -fstack-usage:
 * under 600 bytes with aes-generic, its red zone included), rounded up;
 * tests/algs/test_wipes.py scans the stack after the entries. */
#define MODES_STACK_USE 1024

static inline void xor16(uint8_t *d, const uint8_t *a, const uint8_t *b)
{
	uint64_t x[2], y[2];

	memcpy(x, a, 16);
	memcpy(y, b, 16);
	x[0] ^= y[0];
	x[1] ^= y[1];
	memcpy(d, x, 16);
}

#define NOINLINE __attribute__((noinline))

static NOINLINE void ecb_work(aes_block_fn fn, const void *ctx, uint8_t *out, const uint8_t *in,
			      size_t nblocks)
{
	for (size_t i = 0; i < nblocks; i++)
		fn(ctx, out + 16 * i, in + 16 * i);
}

void modes_ecb(aes_block_fn fn, const void *ctx, uint8_t *out, const uint8_t *in, size_t nblocks)
{
	ecb_work(fn, ctx, out, in, nblocks);
	memzero_stack(MODES_STACK_USE);
}

static NOINLINE void cbc_encrypt_work(aes_block_fn enc, const void *ctx, uint8_t *out,
				      const uint8_t *in, size_t nblocks, uint8_t *iv)
{
	uint8_t x[16];
	const uint8_t *prev = iv;

	for (size_t i = 0; i < nblocks; i++) {
		xor16(x, in + 16 * i, prev);
		enc(ctx, out + 16 * i, x);
		prev = out + 16 * i;
	}
	if (nblocks)
		memmove(iv, prev, 16);
	memzero_explicit(x, sizeof(x));
}

void modes_cbc_encrypt(aes_block_fn enc, const void *ctx, uint8_t *out, const uint8_t *in,
		       size_t nblocks, uint8_t *iv)
{
	cbc_encrypt_work(enc, ctx, out, in, nblocks, iv);
	memzero_stack(MODES_STACK_USE);
}

static NOINLINE void cbc_decrypt_work(aes_block_fn dec, const void *ctx, uint8_t *out,
				      const uint8_t *in, size_t nblocks, uint8_t *iv)
{
	uint8_t c[16], p[16];

	for (size_t i = 0; i < nblocks; i++) {
		memcpy(c, in + 16 * i, 16);	/* in place: the block is overwritten */
		dec(ctx, p, c);
		xor16(out + 16 * i, p, iv);
		memcpy(iv, c, 16);
	}
	memzero_explicit(p, sizeof(p));
}

void modes_cbc_decrypt(aes_block_fn dec, const void *ctx, uint8_t *out, const uint8_t *in,
		       size_t nblocks, uint8_t *iv)
{
	cbc_decrypt_work(dec, ctx, out, in, nblocks, iv);
	memzero_stack(MODES_STACK_USE);
}

static void ctr_inc(uint8_t *ctr)
{
	for (int i = 15; i >= 0; i--)
		if (++ctr[i])
			break;
}

static NOINLINE void ctr_work(aes_block_fn enc, const void *ctx, uint8_t *out, const uint8_t *in,
			      size_t nbytes, uint8_t *ctr)
{
	uint8_t ks[16];

	while (nbytes) {
		size_t n = nbytes < 16 ? nbytes : 16;

		enc(ctx, ks, ctr);
		for (size_t i = 0; i < n; i++)
			out[i] = in[i] ^ ks[i];
		ctr_inc(ctr);
		out += n;
		in += n;
		nbytes -= n;
	}
	memzero_explicit(ks, sizeof(ks));
}

void modes_ctr(aes_block_fn enc, const void *ctx, uint8_t *out, const uint8_t *in,
	       size_t nbytes, uint8_t *ctr)
{
	ctr_work(enc, ctx, out, in, nbytes, ctr);
	memzero_stack(MODES_STACK_USE);
}

static NOINLINE void xctr_work(aes_block_fn enc, const void *ctx, uint8_t *out,
			       const uint8_t *in, size_t nbytes, const uint8_t *iv, uint32_t ctr)
{
	uint8_t blk[16], ks[16];

	while (nbytes) {
		size_t n = nbytes < 16 ? nbytes : 16;

		memcpy(blk, iv, 16);
		for (int i = 0; i < 4; i++)
			blk[i] ^= (uint8_t)(ctr >> (8 * i));
		enc(ctx, ks, blk);
		for (size_t i = 0; i < n; i++)
			out[i] = in[i] ^ ks[i];
		ctr++;
		out += n;
		in += n;
		nbytes -= n;
	}
	memzero_explicit(ks, sizeof(ks));
	memzero_explicit(blk, sizeof(blk));
}

void modes_xctr(aes_block_fn enc, const void *ctx, uint8_t *out, const uint8_t *in,
		size_t nbytes, const uint8_t *iv, uint32_t ctr)
{
	xctr_work(enc, ctx, out, in, nbytes, iv, ctr);
	memzero_stack(MODES_STACK_USE);
}

void modes_xctr_entry(const void *key, uint8_t *out, const uint8_t *in, size_t nbytes,
		      const uint8_t *iv)
{
	const struct modes_xctr_key *k = key;

	modes_xctr(k->enc, k->ctx, out, in, nbytes, iv, 1);
}

void modes_gf128mul_x_ble(uint8_t *t)
{
	uint8_t carry = t[15] >> 7;

	for (int i = 15; i > 0; i--)
		t[i] = (uint8_t)((t[i] << 1) | (t[i - 1] >> 7));
	t[0] = (uint8_t)((t[0] << 1) ^ (carry ? 0x87 : 0));
}

static NOINLINE void first_tweak_work(aes_block_fn tenc, const void *tctx, uint8_t *t,
				      const uint8_t *iv)
{
	tenc(tctx, t, iv);
}

void modes_xts_first_tweak(aes_block_fn tenc, const void *tctx, uint8_t *t, const uint8_t *iv)
{
	first_tweak_work(tenc, tctx, t, iv);
	memzero_stack(MODES_STACK_USE);
}

static void xts_one(aes_block_fn fn, const void *ctx, uint8_t *out, const uint8_t *in,
		    const uint8_t *t)
{
	uint8_t x[16];

	xor16(x, in, t);
	fn(ctx, x, x);
	xor16(out, x, t);
}

static NOINLINE void xts_blocks_work(aes_block_fn fn, const void *ctx, uint8_t *out,
				     const uint8_t *in, size_t nblocks, uint8_t *t)
{
	for (size_t i = 0; i < nblocks; i++) {
		xts_one(fn, ctx, out + 16 * i, in + 16 * i, t);
		modes_gf128mul_x_ble(t);
	}
}

void modes_xts_blocks(aes_block_fn fn, const void *ctx, uint8_t *out, const uint8_t *in,
		      size_t nblocks, uint8_t *t)
{
	xts_blocks_work(fn, ctx, out, in, nblocks, t);
	memzero_stack(MODES_STACK_USE);
}

static NOINLINE void xts_tail_work(aes_block_fn fn, const void *ctx, uint8_t *out,
				   const uint8_t *in, size_t r, uint8_t *t, int enc)
{
	uint8_t t1[16], cc[16], blk[16], head[16];

	memcpy(t1, t, 16);
	modes_gf128mul_x_ble(t1);		/* the tweak of the partial block */
	memcpy(head, in, 16);
	memcpy(blk + 0, in + 16, r);		/* the r bytes after the full block */
	xts_one(fn, ctx, cc, head, enc ? t : t1);
	memcpy(blk + r, cc + r, 16 - r);
	memcpy(out + 16, cc, r);
	xts_one(fn, ctx, out, blk, enc ? t1 : t);
	memcpy(t, t1, 16);
	modes_gf128mul_x_ble(t);
	memzero_explicit(t1, sizeof(t1));
	memzero_explicit(cc, sizeof(cc));
	memzero_explicit(blk, sizeof(blk));
	memzero_explicit(head, sizeof(head));
}

void modes_xts_tail(aes_block_fn fn, const void *ctx, uint8_t *out, const uint8_t *in,
		    size_t r, uint8_t *t, int enc)
{
	xts_tail_work(fn, ctx, out, in, r, t, enc);
	memzero_stack(MODES_STACK_USE);
}

static NOINLINE void xts_crypt_work(aes_block_fn fn, const void *ctx, aes_block_fn tenc,
				    const void *tctx, const uint8_t *iv, uint8_t *out,
				    const uint8_t *in, size_t nbytes, int enc)
{
	uint8_t t[16];
	size_t r = nbytes % 16;
	size_t main_len = nbytes - (r ? 16 + r : 0);

	tenc(tctx, t, iv);
	xts_blocks_work(fn, ctx, out, in, main_len / 16, t);
	if (r)
		xts_tail_work(fn, ctx, out + main_len, in + main_len, r, t, enc);
	memzero_explicit(t, sizeof(t));
}

void modes_xts_crypt(aes_block_fn fn, const void *ctx, aes_block_fn tenc, const void *tctx,
		     const uint8_t *iv, uint8_t *out, const uint8_t *in, size_t nbytes, int enc)
{
	xts_crypt_work(fn, ctx, tenc, tctx, iv, out, in, nbytes, enc);
	memzero_stack(MODES_STACK_USE);
}

void modes_xts_xor(uint8_t *buf, size_t nblocks, uint8_t *t)
{
	for (size_t i = 0; i < nblocks; i++) {
		xor16(buf + 16 * i, buf + 16 * i, t);
		modes_gf128mul_x_ble(t);
	}
}
