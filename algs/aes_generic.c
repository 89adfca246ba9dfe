/*
 * Portable table-driven AES-128/192/256 (FIPS-197), the userspace counterpart
 * of the kernel's crypto/aes_generic.c.
 *
 * Columns are little-endian 32-bit words (row 0 in the low byte).  A middle
 * round is four lookups per output column into the T-tables (SubBytes,
 * ShiftRows and MixColumns combined) plus the round key; the last round uses
 * the S-box alone.  Decryption is FIPS-197's "equivalent inverse cipher" with
 * InvMixColumns folded into the decryption round keys.
 *
 * Every table is built by the preprocessor from the two S-box listings below,
 * with the GF(2^8) products written as constant expressions, so there are no
 * hand-typed table values beyond the S-boxes (which were generated from the
 * field inverse plus affine map).  Like the kernel's generic AES this is not
 * constant time with respect to cache timing.
 */
#include <string.h>

#include "aes_generic.h"
#include "memzero.h"
#include "byteorder.h"
#include "aes_sbox.h"


/* GF(2^8) arithmetic modulo x^8 + x^4 + x^3 + x + 1, on constants 0..255. */
#define GF_X2(x) ((((x) << 1) ^ (((x) >> 7) * 0x11b)) & 0xff)
#define GF_X3(x) (GF_X2(x) ^ (x))
#define GF_X4(x) GF_X2(GF_X2(x))
#define GF_X8(x) GF_X2(GF_X4(x))
#define GF_X9(x) (GF_X8(x) ^ (x))
#define GF_X11(x) (GF_X8(x) ^ GF_X2(x) ^ (x))
#define GF_X13(x) (GF_X8(x) ^ GF_X4(x) ^ (x))
#define GF_X14(x) (GF_X8(x) ^ GF_X4(x) ^ GF_X2(x))

/* A column word from its four row bytes. */
#define COL(b0, b1, b2, b3) \
	((uint32_t)(b0) | ((uint32_t)(b1) << 8) | ((uint32_t)(b2) << 16) | ((uint32_t)(b3) << 24))

#define AS_BYTE(s) (s),
/* Forward tables: MixColumns column for an input byte in row 0..3. */
#define TE0(s) COL(GF_X2(s), (s), (s), GF_X3(s)),
#define TE1(s) COL(GF_X3(s), GF_X2(s), (s), (s)),
#define TE2(s) COL((s), GF_X3(s), GF_X2(s), (s)),
#define TE3(s) COL((s), (s), GF_X3(s), GF_X2(s)),
/* Inverse tables: InvMixColumns column for an input byte in row 0..3. */
#define TD0(v) COL(GF_X14(v), GF_X9(v), GF_X13(v), GF_X11(v)),
#define TD1(v) COL(GF_X11(v), GF_X14(v), GF_X9(v), GF_X13(v)),
#define TD2(v) COL(GF_X13(v), GF_X11(v), GF_X14(v), GF_X9(v)),
#define TD3(v) COL(GF_X9(v), GF_X13(v), GF_X11(v), GF_X14(v)),

static const uint8_t aes_sbox[256] = { AES_SBOX_LIST(AS_BYTE) };
static const uint8_t aes_inv_sbox[256] = { AES_INV_SBOX_LIST(AS_BYTE) };

static const uint32_t te0[256] = { AES_SBOX_LIST(TE0) };
static const uint32_t te1[256] = { AES_SBOX_LIST(TE1) };
static const uint32_t te2[256] = { AES_SBOX_LIST(TE2) };
static const uint32_t te3[256] = { AES_SBOX_LIST(TE3) };

static const uint32_t td0[256] = { AES_INV_SBOX_LIST(TD0) };
static const uint32_t td1[256] = { AES_INV_SBOX_LIST(TD1) };
static const uint32_t td2[256] = { AES_INV_SBOX_LIST(TD2) };
static const uint32_t td3[256] = { AES_INV_SBOX_LIST(TD3) };

#define B0(w) ((w) & 0xff)
#define B1(w) (((w) >> 8) & 0xff)
#define B2(w) (((w) >> 16) & 0xff)
#define B3(w) ((w) >> 24)

static inline uint32_t sub_word(uint32_t w)
{
	return COL(aes_sbox[B0(w)], aes_sbox[B1(w)], aes_sbox[B2(w)], aes_sbox[B3(w)]);
}

/* InvMixColumns of one word: the Td tables undo their built-in InvSubBytes. */
static inline uint32_t inv_mix_column(uint32_t w)
{
	return td0[aes_sbox[B0(w)]] ^ td1[aes_sbox[B1(w)]] ^
	       td2[aes_sbox[B2(w)]] ^ td3[aes_sbox[B3(w)]];
}

static inline int aes_nrounds(const struct crypto_aes_ctx *ctx)
{
	return 6 + (int)ctx->key_length / 4;
}

int aes_expandkey_generic(struct crypto_aes_ctx *ctx, const uint8_t *in_key, size_t key_len)
{
	uint32_t ek[AES_MAX_KEYLENGTH_U32];
	uint32_t dk[AES_MAX_KEYLENGTH_U32];
	unsigned int nk, nr, total, i, j;
	uint32_t rcon = 1;

	if (key_len != AES_KEYSIZE_128 && key_len != AES_KEYSIZE_192 &&
	    key_len != AES_KEYSIZE_256)
		return -22;	/* -EINVAL */

	nk = (unsigned int)key_len / 4;
	nr = nk + 6;
	total = 4 * (nr + 1);

	/* FIPS-197 5.2 key expansion. RotWord is a right rotate by 8 on LE words. */
	for (i = 0; i < nk; i++)
		ek[i] = get_le32(in_key + 4 * i);
	for (i = nk; i < total; i++) {
		uint32_t t = ek[i - 1];

		if (i % nk == 0) {
			t = sub_word((t >> 8) | (t << 24)) ^ rcon;
			rcon = GF_X2(rcon);
		} else if (nk == 8 && i % nk == 4) {
			t = sub_word(t);
		}
		ek[i] = ek[i - nk] ^ t;
	}

	/* Equivalent inverse cipher keys: reverse round order, InvMixColumns inside. */
	for (j = 0; j < 4; j++) {
		dk[j] = ek[4 * nr + j];
		dk[4 * nr + j] = ek[j];
	}
	for (i = 1; i < nr; i++)
		for (j = 0; j < 4; j++)
			dk[4 * i + j] = inv_mix_column(ek[4 * (nr - i) + j]);

	memset(ctx, 0, sizeof(*ctx));
	memcpy(ctx->key_enc, ek, total * sizeof(uint32_t));
	memcpy(ctx->key_dec, dk, total * sizeof(uint32_t));
	ctx->key_length = (uint32_t)key_len;

	memzero_explicit(ek, sizeof(ek));
	memzero_explicit(dk, sizeof(dk));
	return 0;
}

static inline void encrypt_block(const uint32_t *rk, int nr, uint8_t *out, const uint8_t *in)
{
	uint32_t s0, s1, s2, s3, t0, t1, t2, t3;
	int r;

	s0 = get_le32(in + 0) ^ rk[0];
	s1 = get_le32(in + 4) ^ rk[1];
	s2 = get_le32(in + 8) ^ rk[2];
	s3 = get_le32(in + 12) ^ rk[3];

	/* Row r of output column c comes from input column c + r (ShiftRows). */
	for (r = 1; r < nr; r++) {
		rk += 4;
		t0 = te0[B0(s0)] ^ te1[B1(s1)] ^ te2[B2(s2)] ^ te3[B3(s3)] ^ rk[0];
		t1 = te0[B0(s1)] ^ te1[B1(s2)] ^ te2[B2(s3)] ^ te3[B3(s0)] ^ rk[1];
		t2 = te0[B0(s2)] ^ te1[B1(s3)] ^ te2[B2(s0)] ^ te3[B3(s1)] ^ rk[2];
		t3 = te0[B0(s3)] ^ te1[B1(s0)] ^ te2[B2(s1)] ^ te3[B3(s2)] ^ rk[3];
		s0 = t0; s1 = t1; s2 = t2; s3 = t3;
	}

	rk += 4;
	t0 = COL(aes_sbox[B0(s0)], aes_sbox[B1(s1)], aes_sbox[B2(s2)], aes_sbox[B3(s3)]) ^ rk[0];
	t1 = COL(aes_sbox[B0(s1)], aes_sbox[B1(s2)], aes_sbox[B2(s3)], aes_sbox[B3(s0)]) ^ rk[1];
	t2 = COL(aes_sbox[B0(s2)], aes_sbox[B1(s3)], aes_sbox[B2(s0)], aes_sbox[B3(s1)]) ^ rk[2];
	t3 = COL(aes_sbox[B0(s3)], aes_sbox[B1(s0)], aes_sbox[B2(s1)], aes_sbox[B3(s2)]) ^ rk[3];

	put_le32(out + 0, t0);
	put_le32(out + 4, t1);
	put_le32(out + 8, t2);
	put_le32(out + 12, t3);
}

static inline void decrypt_block(const uint32_t *rk, int nr, uint8_t *out, const uint8_t *in)
{
	uint32_t s0, s1, s2, s3, t0, t1, t2, t3;
	int r;

	s0 = get_le32(in + 0) ^ rk[0];
	s1 = get_le32(in + 4) ^ rk[1];
	s2 = get_le32(in + 8) ^ rk[2];
	s3 = get_le32(in + 12) ^ rk[3];

	/* Row r of output column c comes from input column c - r (InvShiftRows). */
	for (r = 1; r < nr; r++) {
		rk += 4;
		t0 = td0[B0(s0)] ^ td1[B1(s3)] ^ td2[B2(s2)] ^ td3[B3(s1)] ^ rk[0];
		t1 = td0[B0(s1)] ^ td1[B1(s0)] ^ td2[B2(s3)] ^ td3[B3(s2)] ^ rk[1];
		t2 = td0[B0(s2)] ^ td1[B1(s1)] ^ td2[B2(s0)] ^ td3[B3(s3)] ^ rk[2];
		t3 = td0[B0(s3)] ^ td1[B1(s2)] ^ td2[B2(s1)] ^ td3[B3(s0)] ^ rk[3];
		s0 = t0; s1 = t1; s2 = t2; s3 = t3;
	}

	rk += 4;
	t0 = COL(aes_inv_sbox[B0(s0)], aes_inv_sbox[B1(s3)], aes_inv_sbox[B2(s2)],
		 aes_inv_sbox[B3(s1)]) ^ rk[0];
	t1 = COL(aes_inv_sbox[B0(s1)], aes_inv_sbox[B1(s0)], aes_inv_sbox[B2(s3)],
		 aes_inv_sbox[B3(s2)]) ^ rk[1];
	t2 = COL(aes_inv_sbox[B0(s2)], aes_inv_sbox[B1(s1)], aes_inv_sbox[B2(s0)],
		 aes_inv_sbox[B3(s3)]) ^ rk[2];
	t3 = COL(aes_inv_sbox[B0(s3)], aes_inv_sbox[B1(s2)], aes_inv_sbox[B2(s1)],
		 aes_inv_sbox[B3(s0)]) ^ rk[3];

	put_le32(out + 0, t0);
	put_le32(out + 4, t1);
	put_le32(out + 8, t2);
	put_le32(out + 12, t3);
}

void aes_encrypt_generic(const struct crypto_aes_ctx *ctx, uint8_t *out, const uint8_t *in)
{
	encrypt_block(ctx->key_enc, aes_nrounds(ctx), out, in);
}

void aes_decrypt_generic(const struct crypto_aes_ctx *ctx, uint8_t *out, const uint8_t *in)
{
	decrypt_block(ctx->key_dec, aes_nrounds(ctx), out, in);
}

void aes_ecb_encrypt_generic(const struct crypto_aes_ctx *ctx, uint8_t *out,
			     const uint8_t *in, size_t nblocks)
{
	const int nr = aes_nrounds(ctx);

	for (; nblocks; nblocks--, in += AES_BLOCK_SIZE, out += AES_BLOCK_SIZE)
		encrypt_block(ctx->key_enc, nr, out, in);
}

void aes_ecb_decrypt_generic(const struct crypto_aes_ctx *ctx, uint8_t *out,
			     const uint8_t *in, size_t nblocks)
{
	const int nr = aes_nrounds(ctx);

	for (; nblocks; nblocks--, in += AES_BLOCK_SIZE, out += AES_BLOCK_SIZE)
		decrypt_block(ctx->key_dec, nr, out, in);
}

int aes_block_call(const void *handle, char *out, const char *in, size_t n)
{
	const struct aes_block_call *c = handle;

	(void)n;
	c->fn(c->ctx, (uint8_t *)out, (const uint8_t *)in);
	return 0;
}
