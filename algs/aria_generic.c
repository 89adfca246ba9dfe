/*
 * ARIA (RFC 5794): the portable block cipher behind aria-generic, the
 * counterpart of the kernel's crypto/aria_generic.c.  Byte-oriented: each
 * round XORs the round key, applies substitution layer 1 (odd rounds: SB1,
 * SB2, X1, X2 by byte position) or 2 (even rounds: X1, X2, SB1, SB2), then
 * the involutive diffusion layer A; the last round replaces A by a second
 * round-key XOR.  The round keys are kept as big-endian words, as the kernel
 * keeps them.
 */
#include <string.h>

#include "aria_generic.h"
#include "aes_sbox.h"
#include "byteorder.h"
#include "memzero.h"

/* The S-boxes, computed from their definitions (SB1(x) = AES affine map of
 * x^-1; SB2(x) = B * x^247 + 0xE2) and checked against RFC 5794's vectors. */
const uint8_t aria_sb1[256] = { AES_SBOX_LIST(AES_SBOX_BYTE) };

const uint8_t aria_sb2[256] = {
	0xe2, 0x4e, 0x54, 0xfc, 0x94, 0xc2, 0x4a, 0xcc, 0x62, 0x0d, 0x6a, 0x46, 0x3c, 0x4d, 0x8b, 0xd1,
	0x5e, 0xfa, 0x64, 0xcb, 0xb4, 0x97, 0xbe, 0x2b, 0xbc, 0x77, 0x2e, 0x03, 0xd3, 0x19, 0x59, 0xc1,
	0x1d, 0x06, 0x41, 0x6b, 0x55, 0xf0, 0x99, 0x69, 0xea, 0x9c, 0x18, 0xae, 0x63, 0xdf, 0xe7, 0xbb,
	0x00, 0x73, 0x66, 0xfb, 0x96, 0x4c, 0x85, 0xe4, 0x3a, 0x09, 0x45, 0xaa, 0x0f, 0xee, 0x10, 0xeb,
	0x2d, 0x7f, 0xf4, 0x29, 0xac, 0xcf, 0xad, 0x91, 0x8d, 0x78, 0xc8, 0x95, 0xf9, 0x2f, 0xce, 0xcd,
	0x08, 0x7a, 0x88, 0x38, 0x5c, 0x83, 0x2a, 0x28, 0x47, 0xdb, 0xb8, 0xc7, 0x93, 0xa4, 0x12, 0x53,
	0xff, 0x87, 0x0e, 0x31, 0x36, 0x21, 0x58, 0x48, 0x01, 0x8e, 0x37, 0x74, 0x32, 0xca, 0xe9, 0xb1,
	0xb7, 0xab, 0x0c, 0xd7, 0xc4, 0x56, 0x42, 0x26, 0x07, 0x98, 0x60, 0xd9, 0xb6, 0xb9, 0x11, 0x40,
	0xec, 0x20, 0x8c, 0xbd, 0xa0, 0xc9, 0x84, 0x04, 0x49, 0x23, 0xf1, 0x4f, 0x50, 0x1f, 0x13, 0xdc,
	0xd8, 0xc0, 0x9e, 0x57, 0xe3, 0xc3, 0x7b, 0x65, 0x3b, 0x02, 0x8f, 0x3e, 0xe8, 0x25, 0x92, 0xe5,
	0x15, 0xdd, 0xfd, 0x17, 0xa9, 0xbf, 0xd4, 0x9a, 0x7e, 0xc5, 0x39, 0x67, 0xfe, 0x76, 0x9d, 0x43,
	0xa7, 0xe1, 0xd0, 0xf5, 0x68, 0xf2, 0x1b, 0x34, 0x70, 0x05, 0xa3, 0x8a, 0xd5, 0x79, 0x86, 0xa8,
	0x30, 0xc6, 0x51, 0x4b, 0x1e, 0xa6, 0x27, 0xf6, 0x35, 0xd2, 0x6e, 0x24, 0x16, 0x82, 0x5f, 0xda,
	0xe6, 0x75, 0xa2, 0xef, 0x2c, 0xb2, 0x1c, 0x9f, 0x5d, 0x6f, 0x80, 0x0a, 0x72, 0x44, 0x9b, 0x6c,
	0x90, 0x0b, 0x5b, 0x33, 0x7d, 0x5a, 0x52, 0xf3, 0x61, 0xa1, 0xf7, 0xb0, 0xd6, 0x3f, 0x7c, 0x6d,
	0xed, 0x14, 0xe0, 0xa5, 0x3d, 0x22, 0xb3, 0xf8, 0x89, 0xde, 0x71, 0x1a, 0xaf, 0xba, 0xb5, 0x81,
};

const uint8_t aria_x1[256] = { AES_INV_SBOX_LIST(AES_SBOX_BYTE) };

const uint8_t aria_x2[256] = {
	0x30, 0x68, 0x99, 0x1b, 0x87, 0xb9, 0x21, 0x78, 0x50, 0x39, 0xdb, 0xe1, 0x72, 0x09, 0x62, 0x3c,
	0x3e, 0x7e, 0x5e, 0x8e, 0xf1, 0xa0, 0xcc, 0xa3, 0x2a, 0x1d, 0xfb, 0xb6, 0xd6, 0x20, 0xc4, 0x8d,
	0x81, 0x65, 0xf5, 0x89, 0xcb, 0x9d, 0x77, 0xc6, 0x57, 0x43, 0x56, 0x17, 0xd4, 0x40, 0x1a, 0x4d,
	0xc0, 0x63, 0x6c, 0xe3, 0xb7, 0xc8, 0x64, 0x6a, 0x53, 0xaa, 0x38, 0x98, 0x0c, 0xf4, 0x9b, 0xed,
	0x7f, 0x22, 0x76, 0xaf, 0xdd, 0x3a, 0x0b, 0x58, 0x67, 0x88, 0x06, 0xc3, 0x35, 0x0d, 0x01, 0x8b,
	0x8c, 0xc2, 0xe6, 0x5f, 0x02, 0x24, 0x75, 0x93, 0x66, 0x1e, 0xe5, 0xe2, 0x54, 0xd8, 0x10, 0xce,
	0x7a, 0xe8, 0x08, 0x2c, 0x12, 0x97, 0x32, 0xab, 0xb4, 0x27, 0x0a, 0x23, 0xdf, 0xef, 0xca, 0xd9,
	0xb8, 0xfa, 0xdc, 0x31, 0x6b, 0xd1, 0xad, 0x19, 0x49, 0xbd, 0x51, 0x96, 0xee, 0xe4, 0xa8, 0x41,
	0xda, 0xff, 0xcd, 0x55, 0x86, 0x36, 0xbe, 0x61, 0x52, 0xf8, 0xbb, 0x0e, 0x82, 0x48, 0x69, 0x9a,
	0xe0, 0x47, 0x9e, 0x5c, 0x04, 0x4b, 0x34, 0x15, 0x79, 0x26, 0xa7, 0xde, 0x29, 0xae, 0x92, 0xd7,
	0x84, 0xe9, 0xd2, 0xba, 0x5d, 0xf3, 0xc5, 0xb0, 0xbf, 0xa4, 0x3b, 0x71, 0x44, 0x46, 0x2b, 0xfc,
	0xeb, 0x6f, 0xd5, 0xf6, 0x14, 0xfe, 0x7c, 0x70, 0x5a, 0x7d, 0xfd, 0x2f, 0x18, 0x83, 0x16, 0xa5,
	0x91, 0x1f, 0x05, 0x95, 0x74, 0xa9, 0xc1, 0x5b, 0x4a, 0x85, 0x6d, 0x13, 0x07, 0x4f, 0x4e, 0x45,
	0xb2, 0x0f, 0xc9, 0x1c, 0xa6, 0xbc, 0xec, 0x73, 0x90, 0x7b, 0xcf, 0x59, 0x8f, 0xa1, 0xf9, 0x2d,
	0xf2, 0xb1, 0x00, 0x94, 0x37, 0x9f, 0xd0, 0x2e, 0x9c, 0x6e, 0x28, 0x3f, 0x80, 0xf0, 0x3d, 0xd3,
	0x25, 0x8a, 0xb5, 0xe7, 0x42, 0xb3, 0xc7, 0xea, 0xf7, 0x4c, 0x11, 0x33, 0x03, 0xa2, 0xac, 0x60,
};

const uint8_t aria_diffusion_rows[16][7] = {
	{3, 4, 6, 8, 9, 13, 14}, {2, 5, 7, 8, 9, 12, 15},
	{1, 4, 6, 10, 11, 12, 15}, {0, 5, 7, 10, 11, 13, 14},
	{0, 2, 5, 8, 11, 14, 15}, {1, 3, 4, 9, 10, 14, 15},
	{0, 2, 7, 9, 10, 12, 13}, {1, 3, 6, 8, 11, 12, 13},
	{0, 1, 4, 7, 10, 13, 15}, {0, 1, 5, 6, 11, 12, 14},
	{2, 3, 5, 6, 8, 13, 15}, {2, 3, 4, 7, 9, 12, 14},
	{1, 2, 6, 7, 9, 11, 12}, {0, 3, 6, 7, 8, 10, 13},
	{0, 3, 4, 5, 9, 11, 14}, {1, 2, 4, 5, 8, 10, 15},
};

/* The key-schedule constants C1, C2, C3 as big-endian words, C1 C2 repeated
 * so that a key size starts at its own offset (128: C1, 192: C2, 256: C3). */
static const uint32_t aria_ck[5][4] = {ARIA_C1, ARIA_C2, ARIA_C3, ARIA_C1, ARIA_C2};

static const uint8_t *const sl1[4] = {aria_sb1, aria_sb2, aria_x1, aria_x2};
static const uint8_t *const sl2[4] = {aria_x1, aria_x2, aria_sb1, aria_sb2};

static void diffuse(uint8_t y[16], const uint8_t x[16])
{
	for (int i = 0; i < 16; i++) {
		const uint8_t *r = aria_diffusion_rows[i];

		y[i] = x[r[0]] ^ x[r[1]] ^ x[r[2]] ^ x[r[3]] ^ x[r[4]] ^ x[r[5]] ^ x[r[6]];
	}
}

static void words_to_bytes(uint8_t b[16], const uint32_t w[4])
{
	for (int i = 0; i < 4; i++)
		put_be32(b + 4 * i, w[i]);
}

static void bytes_to_words(uint32_t w[4], const uint8_t b[16])
{
	for (int i = 0; i < 4; i++)
		w[i] = get_be32(b + 4 * i);
}

/* x ^= rk, then the substitution layer (odd: 1, even: 2), in place. */
static void key_and_substitute(uint8_t x[16], const uint32_t rk[4], int odd)
{
	uint8_t k[16];
	const uint8_t *const *sl = odd ? sl1 : sl2;

	words_to_bytes(k, rk);
	for (int i = 0; i < 16; i++)
		x[i] = sl[i & 3][x[i] ^ k[i]];
}

/* The round function FO (odd) or FE (even): A(SL(x ^ rk)). */
static void round_f(uint8_t out[16], const uint8_t in[16], const uint32_t rk[4], int odd)
{
	uint8_t t[16];

	memcpy(t, in, 16);
	key_and_substitute(t, rk, odd);
	diffuse(out, t);
}

/*
 * The block function on big-endian words.  The diffusion layer A equals
 * M(P(M(D(x)))): D replaces every byte of a word by the XOR of the word's
 * other three bytes, M is the word mix below, P swaps the bytes of each
 * halfword of word 1, rotates word 2 by 16 bits and byte-reverses word 3.
 * D is folded into the substitution: a substituted byte v at position k of
 * its word contributes v to the word's three other positions.
 */
static const uint32_t not_byte[4] = {0x00ffffff, 0xff00ffff, 0xffff00ff, 0xffffff00};

#define SPREAD(v, k) (((uint32_t)(v) * 0x01010101u) & not_byte[k])
#define BYTE(w, k) (((w) >> (24 - 8 * (k))) & 0xff)

/* D(SL(w)) for substitution layer 1 (SB1 SB2 X1 X2) and layer 2 (X1 X2 SB1 SB2). */
static inline uint32_t sub_spread1(uint32_t w)
{
	return SPREAD(aria_sb1[BYTE(w, 0)], 0) ^ SPREAD(aria_sb2[BYTE(w, 1)], 1) ^
	       SPREAD(aria_x1[BYTE(w, 2)], 2) ^ SPREAD(aria_x2[BYTE(w, 3)], 3);
}

static inline uint32_t sub_spread2(uint32_t w)
{
	return SPREAD(aria_x1[BYTE(w, 0)], 0) ^ SPREAD(aria_x2[BYTE(w, 1)], 1) ^
	       SPREAD(aria_sb1[BYTE(w, 2)], 2) ^ SPREAD(aria_sb2[BYTE(w, 3)], 3);
}

/* SL2(w) alone (the last round). */
static inline uint32_t sub_last(uint32_t w)
{
	return (uint32_t)aria_x1[BYTE(w, 0)] << 24 | (uint32_t)aria_x2[BYTE(w, 1)] << 16 |
	       (uint32_t)aria_sb1[BYTE(w, 2)] << 8 | aria_sb2[BYTE(w, 3)];
}

static inline void mix_words(uint32_t t[4])
{
	t[1] ^= t[2];
	t[2] ^= t[3];
	t[0] ^= t[1];
	t[3] ^= t[1];
	t[2] ^= t[0];
	t[1] ^= t[2];
}

void aria_crypt_block(const uint32_t rk[][4], int rounds, uint8_t *out, const uint8_t *in)
{
	uint32_t t[4];
	int i, k;

	for (k = 0; k < 4; k++)
		t[k] = get_be32(in + 4 * k);
	for (i = 0; i < rounds - 1; i++) {
		for (k = 0; k < 4; k++)
			t[k] = (i & 1) ? sub_spread2(t[k] ^ rk[i][k]) : sub_spread1(t[k] ^ rk[i][k]);
		mix_words(t);
		t[1] = ((t[1] & 0x00ff00ffu) << 8) | ((t[1] >> 8) & 0x00ff00ffu);
		t[2] = (t[2] << 16) | (t[2] >> 16);
		t[3] = __builtin_bswap32(t[3]);
		mix_words(t);
	}
	for (k = 0; k < 4; k++)
		put_be32(out + 4 * k, sub_last(t[k] ^ rk[rounds - 1][k]) ^ rk[rounds][k]);
}

void aria_encrypt(const struct aria_ctx *ctx, uint8_t *out, const uint8_t *in)
{
	aria_crypt_block(ctx->enc_key, ctx->rounds, out, in);
}

void aria_decrypt(const struct aria_ctx *ctx, uint8_t *out, const uint8_t *in)
{
	aria_crypt_block(ctx->dec_key, ctx->rounds, out, in);
}

/* w ^= (v >>> n) for 128-bit big-endian byte strings. */
static void xor_rotr(uint8_t out[16], const uint8_t w[16], const uint8_t v[16], unsigned int n)
{
	unsigned int q = n / 8, r = n % 8;

	for (int i = 0; i < 16; i++) {
		uint8_t hi = v[(i - q + 16) % 16], lo = v[(i - q + 15) % 16];

		out[i] = w[i] ^ (uint8_t)(r ? (hi >> r) | (lo << (8 - r)) : hi);
	}
}

int aria_set_key(struct aria_ctx *ctx, const uint8_t *in_key, size_t key_len)
{
	static const unsigned int rot[5] = {19, 31, 67, 97, 109};
	uint8_t w[4][16], kr[16] = {0}, t[16], ek[ARIA_MAX_RD_KEYS][16];
	int rounds, first, i, n;

	if (key_len != 16 && key_len != 24 && key_len != 32)
		return -22;
	rounds = (int)(key_len + 32) / 4;
	first = (int)(key_len - 16) / 8;
	memcpy(w[0], in_key, 16);
	memcpy(kr, in_key + 16, key_len - 16);
	for (i = 1; i < 4; i++) {
		round_f(t, w[i - 1], aria_ck[first + i - 1], i & 1);
		for (n = 0; n < 16; n++)
			w[i][n] = t[n] ^ (i == 1 ? kr[n] : w[i - 2][n]);
	}
	for (i = 0; i <= rounds; i++)
		xor_rotr(ek[i], w[i % 4], w[(i + 1) % 4], rot[i / 4]);

	ctx->rounds = rounds;
	ctx->key_length = (int)key_len;
	memset(ctx->enc_key, 0, sizeof(ctx->enc_key));
	memset(ctx->dec_key, 0, sizeof(ctx->dec_key));
	for (i = 0; i <= rounds; i++)
		bytes_to_words(ctx->enc_key[i], ek[i]);
	bytes_to_words(ctx->dec_key[0], ek[rounds]);
	bytes_to_words(ctx->dec_key[rounds], ek[0]);
	for (i = 1; i < rounds; i++) {
		diffuse(t, ek[rounds - i]);
		bytes_to_words(ctx->dec_key[i], t);
	}
	memzero_explicit(w, sizeof(w));
	memzero_explicit(kr, sizeof(kr));
	memzero_explicit(t, sizeof(t));
	memzero_explicit(ek, sizeof(ek));
	return 0;
}

void aria_ecb_generic(const struct aria_ctx *ctx, uint8_t *out, const uint8_t *in,
		      size_t nblocks, int encrypt)
{
	const uint32_t (*rk)[4] = encrypt ? ctx->enc_key : ctx->dec_key;

	for (size_t i = 0; i < nblocks; i++)
		aria_crypt_block(rk, ctx->rounds, out + 16 * i, in + 16 * i);
}

void aria_ctr_add(uint8_t iv[ARIA_BLOCK_SIZE], uint64_t n)
{
	for (int i = 15; i >= 0 && n; i--) {
		uint64_t s = (uint64_t)iv[i] + (n & 0xff);

		iv[i] = (uint8_t)s;
		n = (n >> 8) + (s >> 8);
	}
}

void aria_ctr_generic(const struct aria_ctx *ctx, uint8_t *out, const uint8_t *in,
		      size_t nbytes, uint8_t iv[ARIA_BLOCK_SIZE])
{
	uint8_t ks[16];

	while (nbytes) {
		size_t n = min_size(nbytes, 16);

		aria_encrypt(ctx, ks, iv);
		aria_ctr_add(iv, 1);
		for (size_t i = 0; i < n; i++)
			out[i] = in[i] ^ ks[i];
		out += n;
		in += n;
		nbytes -= n;
	}
	memzero_explicit(ks, sizeof(ks));
}

int aria_encrypt_call(const void *handle, char *out, const char *in, size_t n)
{
	(void)n;
	aria_encrypt(handle, (uint8_t *)out, (const uint8_t *)in);
	return 0;
}

int aria_decrypt_call(const void *handle, char *out, const char *in, size_t n)
{
	(void)n;
	aria_decrypt(handle, (uint8_t *)out, (const uint8_t *)in);
	return 0;
}
