/*
 * The byte-sliced ARIA core, written once for every vector width and S-box
 * method (the role of the kernel's arch/x86/crypto/aria-aesni-avx-asm_64.S,
 * aria-aesni-avx2-asm_64.S and aria-gfni-avx512-asm_64.S).  A file includes
 * it once per instantiation after defining:
 *
 *   ARIA_SUFFIX     name suffix (avx_aesni, avx2_gfni, ...)
 *   ARIA_TARGET     the function attribute X86_TARGET("...")
 *   ARIA_LANES      128-bit lanes per vector (1, 2, 4): 16 * lanes blocks
 *   vec_t           the vector type
 *   V_LOAD/V_STORE, V_XOR, V_AND, V_BCAST8, V_BCAST32, V_UNPLO8, V_UNPHI8
 *                   (in-lane byte unpacks)
 *   V_ADD8, V_SUB8, V_EQ8, V_LTU8 (byte compares as 0x00/0xff bytes), V_NONE
 *                   (all bits zero): the byte-sliced counter
 *   V_SLLI64, V_SRLI64, V_SWAP64 (the two quadwords of every 128-bit lane):
 *                   the XTS tweak step
 *   V_S1, V_S2, V_X1, V_X2   the four S-boxes on every byte of a vector
 *   V_XOR3          optional: a three-input XOR in one instruction; with it
 *                   the diffusion is written as three-input XORs and the
 *                   next round key is folded into its last step
 *
 * Layout: the 16 vectors are loaded straight from memory (vector i holds
 * blocks lanes*i .. lanes*i + lanes-1, one per 128-bit lane), then a 16x16
 * byte transpose inside every lane makes vector j hold byte j of every block.
 * A round is then: one S-box per vector (the S-box depends only on the byte
 * position), the diffusion layer as vector XORs, and the next round key
 * (each byte position's key byte repeated over the vector).  The diffusion
 * A is computed as M(P(M(D(x)))): D replaces each byte of a 4-byte word by
 * the XOR of the other three, M is the word-level mix, P the byte
 * permutation of words 1..3 (only a renaming of vectors here).  The
 * transpose is an involution, so it also undoes itself.  CTR never
 * transposes its input: the counter blocks are written byte-sliced.
 */

#define ARIA_CAT2(a, b) a##_##b
#define ARIA_CAT(a, b) ARIA_CAT2(a, b)
#define ARIA_FN(name) ARIA_CAT(ARIA_CAT(aria, ARIA_SUFFIX), name)
#define ARIA_NBLOCKS (16 * ARIA_LANES)

static ARIA_TARGET inline void ARIA_FN(transpose)(vec_t x[16])
{
#pragma GCC unroll 4
	for (int s = 8; s >= 1; s >>= 1) {
#pragma GCC unroll 16
		for (int p = 0; p < 16; p++) {
			if (p & s)
				continue;
			vec_t a = x[p], b = x[p | s];

			x[p] = V_UNPLO8(a, b);
			x[p | s] = V_UNPHI8(a, b);
		}
	}
}

static ARIA_TARGET inline void ARIA_FN(add_key)(vec_t x[16], const uint32_t rk[16])
{
#pragma GCC unroll 16
	for (int j = 0; j < 16; j++)
		x[j] = V_XOR(x[j], V_BCAST32(rk[j]));
}

/* Substitution layer 1 (odd rounds: SB1 SB2 X1 X2) or 2 (X1 X2 SB1 SB2). */
static ARIA_TARGET inline void ARIA_FN(substitute)(vec_t x[16], int odd)
{
#pragma GCC unroll 4
	for (int j = 0; j < 16; j += 4) {
		if (odd) {
			x[j] = V_S1(x[j]);
			x[j + 1] = V_S2(x[j + 1]);
			x[j + 2] = V_X1(x[j + 2]);
			x[j + 3] = V_X2(x[j + 3]);
		} else {
			x[j] = V_X1(x[j]);
			x[j + 1] = V_X2(x[j + 1]);
			x[j + 2] = V_S1(x[j + 2]);
			x[j + 3] = V_S2(x[j + 3]);
		}
	}
}

/* Word-level mix on words t0..t3 (vectors 4w..4w+3): afterwards
 * t0 = t0^t1^t2, t1 = t0^t2^t3, t2 = t0^t1^t3, t3 = t1^t2^t3.  With rk,
 * each output also takes its round-key byte. */
static ARIA_TARGET inline void ARIA_FN(mix_words)(vec_t x[16], const uint32_t *rk)
{
#pragma GCC unroll 4
	for (int k = 0; k < 4; k++) {
		vec_t t0 = x[k], t1 = x[4 + k], t2 = x[8 + k], t3 = x[12 + k];
#ifdef V_XOR3
		vec_t u = V_XOR(t0, t1), v = V_XOR(t2, t3);

		if (rk) {
			x[k] = V_XOR3(u, t2, V_BCAST32(rk[k]));
			x[4 + k] = V_XOR3(v, t0, V_BCAST32(rk[4 + k]));
			x[8 + k] = V_XOR3(u, t3, V_BCAST32(rk[8 + k]));
			x[12 + k] = V_XOR3(v, t1, V_BCAST32(rk[12 + k]));
		} else {
			x[k] = V_XOR(u, t2);
			x[4 + k] = V_XOR(v, t0);
			x[8 + k] = V_XOR(u, t3);
			x[12 + k] = V_XOR(v, t1);
		}
#else
		t1 = V_XOR(t1, t2);
		t2 = V_XOR(t2, t3);
		t0 = V_XOR(t0, t1);
		t3 = V_XOR(t3, t1);
		t2 = V_XOR(t2, t0);
		t1 = V_XOR(t1, t2);
		x[k] = t0;
		x[4 + k] = t1;
		x[8 + k] = t2;
		x[12 + k] = t3;
#endif
	}
#ifndef V_XOR3
	if (rk)
		ARIA_FN(add_key)(x, rk);
#endif
}

/* The diffusion layer, then the round key rk. */
static ARIA_TARGET inline void ARIA_FN(diffuse)(vec_t x[16], const uint32_t rk[16])
{
	vec_t t;

#pragma GCC unroll 4
	for (int w = 0; w < 16; w += 4) {
		vec_t a = x[w], b = x[w + 1], c = x[w + 2], d = x[w + 3];
#ifdef V_XOR3
		x[w] = V_XOR3(b, c, d);
		x[w + 1] = V_XOR3(a, c, d);
		x[w + 2] = V_XOR3(a, b, d);
		x[w + 3] = V_XOR3(a, b, c);
#else
		vec_t s = V_XOR(V_XOR(a, b), V_XOR(c, d));

		x[w] = V_XOR(s, a);
		x[w + 1] = V_XOR(s, b);
		x[w + 2] = V_XOR(s, c);
		x[w + 3] = V_XOR(s, d);
#endif
	}
	ARIA_FN(mix_words)(x, NULL);
	/* word 1: swap bytes within halfwords; word 2: rotate by two bytes;
	 * word 3: reverse the bytes */
	t = x[4]; x[4] = x[5]; x[5] = t;
	t = x[6]; x[6] = x[7]; x[7] = t;
	t = x[8]; x[8] = x[10]; x[10] = t;
	t = x[9]; x[9] = x[11]; x[11] = t;
	t = x[12]; x[12] = x[15]; x[15] = t;
	t = x[13]; x[13] = x[14]; x[14] = t;
	ARIA_FN(mix_words)(x, rk);
}

/* The rounds on byte-sliced state; rk: R + 1 rows of repeated key bytes. */
static ARIA_TARGET inline void ARIA_FN(rounds)(vec_t x[16], const uint32_t rk[][16], int rounds)
{
	int r;

	ARIA_FN(add_key)(x, rk[0]);
	for (r = 0; r + 2 < rounds - 1; r += 2) {
		ARIA_FN(substitute)(x, 1);
		ARIA_FN(diffuse)(x, rk[r + 1]);
		ARIA_FN(substitute)(x, 0);
		ARIA_FN(diffuse)(x, rk[r + 2]);
	}
	ARIA_FN(substitute)(x, 1);
	ARIA_FN(diffuse)(x, rk[rounds - 1]);
	ARIA_FN(substitute)(x, 0);
	ARIA_FN(add_key)(x, rk[rounds]);
}

static ARIA_TARGET inline void ARIA_FN(load)(vec_t x[16], const uint8_t *in)
{
#pragma GCC unroll 16
	for (int i = 0; i < 16; i++)
		x[i] = V_LOAD(in + 16 * ARIA_LANES * i);
}

/* ARIA_NBLOCKS blocks from in to out (which may be equal). */
static ARIA_TARGET void ARIA_FN(crypt)(const uint32_t rk[][16], int rounds, uint8_t *out,
				       const uint8_t *in)
{
	vec_t x[16];

	ARIA_FN(load)(x, in);
	ARIA_FN(transpose)(x);
	ARIA_FN(rounds)(x, rk, rounds);
	ARIA_FN(transpose)(x);
#pragma GCC unroll 16
	for (int i = 0; i < 16; i++)
		V_STORE(out + 16 * ARIA_LANES * i, x[i]);
}

/* ncalls x ARIA_NBLOCKS blocks of ECB (each call is the asm's one wide call). */
ARIA_TARGET void ARIA_FN(ecb)(const struct aria_ctx *ctx, uint8_t *out, const uint8_t *in,
			      size_t ncalls, int encrypt)
{
	uint32_t rk[ARIA_MAX_RD_KEYS][16];

	aria_x86_round_key_words(rk, encrypt ? ctx->enc_key : ctx->dec_key, ctx->rounds);
	for (size_t i = 0; i < ncalls; i++)
		ARIA_FN(crypt)((const uint32_t (*)[16])rk, ctx->rounds,
			       out + i * 16 * ARIA_NBLOCKS, in + i * 16 * ARIA_NBLOCKS);
	memzero_explicit(rk, sizeof(rk));
}

/* Where block b of a call sits in the byte-sliced layout: byte p of the
 * result is the number of the block whose bytes land at position p. */
static ARIA_TARGET vec_t ARIA_FN(slice_order)(void)
{
	uint8_t blocks[16 * ARIA_NBLOCKS];
	vec_t x[16];

	for (int b = 0; b < ARIA_NBLOCKS; b++)
		memset(blocks + 16 * b, b, 16);
	ARIA_FN(load)(x, blocks);
	ARIA_FN(transpose)(x);
	return x[0];
}

/* The counter blocks iv + order[p] (128-bit big endian), byte-sliced. */
static ARIA_TARGET inline void ARIA_FN(counter_slices)(vec_t x[16], const uint8_t iv[16], vec_t order)
{
	vec_t base = V_BCAST8(iv[15]), carry;

	for (int j = 0; j < 15; j++)
		x[j] = V_BCAST8(iv[j]);
	x[15] = V_ADD8(base, order);
	carry = V_LTU8(x[15], base);
	for (int j = 14; j >= 0 && !V_NONE(carry); j--) {
		x[j] = V_SUB8(x[j], carry);		/* carry bytes are 0xff: minus -1 */
		carry = V_AND(carry, V_EQ8(x[j], V_BCAST8(0)));
	}
}

/* ncalls x ARIA_NBLOCKS blocks of CTR: the counter blocks iv, iv + 1, ...
 * (128-bit big endian, carrying) are encrypted and XORed; iv advances. */
ARIA_TARGET void ARIA_FN(ctr)(const struct aria_ctx *ctx, uint8_t *out, const uint8_t *in,
			      size_t ncalls, uint8_t iv[16])
{
	uint32_t rk[ARIA_MAX_RD_KEYS][16];
	vec_t order = ARIA_FN(slice_order)(), x[16];

	aria_x86_round_key_words(rk, ctx->enc_key, ctx->rounds);
	for (size_t c = 0; c < ncalls; c++) {
		const uint8_t *src = in + c * 16 * ARIA_NBLOCKS;
		uint8_t *dst = out + c * 16 * ARIA_NBLOCKS;

		ARIA_FN(counter_slices)(x, iv, order);
		aria_ctr_add(iv, ARIA_NBLOCKS);
		ARIA_FN(rounds)(x, (const uint32_t (*)[16])rk, ctx->rounds);
		ARIA_FN(transpose)(x);
#pragma GCC unroll 16
		for (int i = 0; i < 16; i++)
			V_STORE(dst + 16 * ARIA_LANES * i, V_XOR(V_LOAD(src + 16 * ARIA_LANES * i), x[i]));
	}
	memzero_explicit(rk, sizeof(rk));
	memzero_explicit(x, sizeof(x));
}

/* Every lane's tweak times x^ARIA_LANES in GF(2^128) (little-endian
 * convention, x^128 = x^7 + x^2 + x + 1): the lanes' top bits move into
 * the other quadword; the high quadword's, times 0x87, into the low one. */
static ARIA_TARGET inline vec_t ARIA_FN(tweak_step)(vec_t t, vec_t low_qwords)
{
	vec_t c = V_SWAP64(V_SRLI64(t, 64 - ARIA_LANES));
	vec_t lo = V_AND(c, low_qwords);

	t = V_XOR(V_SLLI64(t, ARIA_LANES), c);
	return V_XOR(V_XOR(t, V_SLLI64(lo, 1)), V_XOR(V_SLLI64(lo, 2), V_SLLI64(lo, 7)));
}

/* ncalls x ARIA_NBLOCKS blocks of XTS with the data key's round keys of
 * the direction (encrypt or decrypt): block i is out = E(in ^ T_i) ^ T_i,
 * T_0 = tweak; tweak advances to the tweak of the block after them. */
ARIA_TARGET void ARIA_FN(xts)(const struct aria_ctx *ctx, uint8_t *out, const uint8_t *in,
			      size_t ncalls, uint8_t tweak[16], int encrypt)
{
	uint32_t rk[ARIA_MAX_RD_KEYS][16];
	uint8_t lanes[16 * ARIA_LANES];
	vec_t x[16], tw[16], t;
	const vec_t low_qwords = V_LOAD(aria_x86_low_qwords);

	aria_x86_round_key_words(rk, encrypt ? ctx->enc_key : ctx->dec_key, ctx->rounds);
	memcpy(lanes, tweak, 16);
	for (int l = 1; l < ARIA_LANES; l++)
		aria_x86_gf128_double(lanes + 16 * l, lanes + 16 * (l - 1));
	t = V_LOAD(lanes);
	for (size_t c = 0; c < ncalls; c++) {
		const uint8_t *src = in + c * 16 * ARIA_NBLOCKS;
		uint8_t *dst = out + c * 16 * ARIA_NBLOCKS;

#pragma GCC unroll 16
		for (int i = 0; i < 16; i++) {
			tw[i] = t;
			x[i] = V_XOR(V_LOAD(src + 16 * ARIA_LANES * i), t);
			t = ARIA_FN(tweak_step)(t, low_qwords);
		}
		ARIA_FN(transpose)(x);
		ARIA_FN(rounds)(x, (const uint32_t (*)[16])rk, ctx->rounds);
		ARIA_FN(transpose)(x);
#pragma GCC unroll 16
		for (int i = 0; i < 16; i++)
			V_STORE(dst + 16 * ARIA_LANES * i, V_XOR(x[i], tw[i]));
	}
	V_STORE(lanes, t);
	memcpy(tweak, lanes, 16);
	memzero_explicit(rk, sizeof(rk));
	memzero_explicit(lanes, sizeof(lanes));
	memzero_explicit(x, sizeof(x));
	memzero_explicit(tw, sizeof(tw));
}

#undef ARIA_NBLOCKS
#undef ARIA_FN
#undef ARIA_CAT
#undef ARIA_CAT2
