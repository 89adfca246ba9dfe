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
 *   V_LOAD/V_STORE, V_XOR, V_BCAST8, V_UNPLO8, V_UNPHI8 (in-lane byte unpacks)
 *   V_S1, V_S2, V_X1, V_X2   the four S-boxes on every byte of a vector
 *
 * Layout: the 16 vectors are loaded straight from memory (vector i holds
 * blocks lanes*i .. lanes*i + lanes-1, one per 128-bit lane), then a 16x16
 * byte transpose inside every lane makes vector j hold byte j of every block.
 * A round is then: XOR the broadcast round-key byte, one S-box per vector
 * (the S-box depends only on the byte position), and the diffusion layer as
 * vector XORs.  The diffusion A is computed as M(P(M(D(x)))): D replaces
 * each byte of a 4-byte word by the XOR of the other three, M is the
 * word-level mix, P the byte permutation of words 1..3 (only a renaming of
 * vectors here).  The transpose is an involution, so it also undoes itself.
 */

#define ARIA_CAT2(a, b) a##_##b
#define ARIA_CAT(a, b) ARIA_CAT2(a, b)
#define ARIA_FN(name) ARIA_CAT(ARIA_CAT(aria, ARIA_SUFFIX), name)
#define ARIA_NBLOCKS (16 * ARIA_LANES)

static ARIA_TARGET inline void ARIA_FN(transpose)(vec_t x[16])
{
	for (int s = 8; s >= 1; s >>= 1) {
		for (int p = 0; p < 16; p++) {
			if (p & s)
				continue;
			vec_t a = x[p], b = x[p | s];

			x[p] = V_UNPLO8(a, b);
			x[p | s] = V_UNPHI8(a, b);
		}
	}
}

static ARIA_TARGET inline void ARIA_FN(add_key)(vec_t x[16], const uint8_t rk[16])
{
	for (int j = 0; j < 16; j++)
		x[j] = V_XOR(x[j], V_BCAST8(rk[j]));
}

/* Substitution layer 1 (odd rounds: SB1 SB2 X1 X2) or 2 (X1 X2 SB1 SB2). */
static ARIA_TARGET inline void ARIA_FN(substitute)(vec_t x[16], int odd)
{
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

/* Word-level mix on words t0..t3 (vectors 4w..4w+3). */
static ARIA_TARGET inline void ARIA_FN(mix_words)(vec_t x[16])
{
	for (int k = 0; k < 4; k++) {
		vec_t t0 = x[k], t1 = x[4 + k], t2 = x[8 + k], t3 = x[12 + k];

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
	}
}

static ARIA_TARGET inline void ARIA_FN(diffuse)(vec_t x[16])
{
	vec_t t;

	for (int w = 0; w < 16; w += 4) {
		vec_t s = V_XOR(V_XOR(x[w], x[w + 1]), V_XOR(x[w + 2], x[w + 3]));

		for (int k = 0; k < 4; k++)
			x[w + k] = V_XOR(s, x[w + k]);
	}
	ARIA_FN(mix_words)(x);
	/* word 1: swap bytes within halfwords; word 2: rotate by two bytes;
	 * word 3: reverse the bytes */
	t = x[4]; x[4] = x[5]; x[5] = t;
	t = x[6]; x[6] = x[7]; x[7] = t;
	t = x[8]; x[8] = x[10]; x[10] = t;
	t = x[9]; x[9] = x[11]; x[11] = t;
	t = x[12]; x[12] = x[15]; x[15] = t;
	t = x[13]; x[13] = x[14]; x[14] = t;
	ARIA_FN(mix_words)(x);
}

/* ARIA_NBLOCKS blocks from in to out (which may be equal) with the round
 * keys rk (R + 1 rows of 16 bytes). */
static ARIA_TARGET void ARIA_FN(crypt)(const uint8_t rk[][16], int rounds, uint8_t *out,
				       const uint8_t *in)
{
	vec_t x[16];
	int r;

	for (int i = 0; i < 16; i++)
		x[i] = V_LOAD(in + 16 * ARIA_LANES * i);
	ARIA_FN(transpose)(x);
	for (r = 0; r < rounds - 1; r++) {
		ARIA_FN(add_key)(x, rk[r]);
		ARIA_FN(substitute)(x, !(r & 1));
		ARIA_FN(diffuse)(x);
	}
	ARIA_FN(add_key)(x, rk[rounds - 1]);
	ARIA_FN(substitute)(x, 0);
	ARIA_FN(add_key)(x, rk[rounds]);
	ARIA_FN(transpose)(x);
	for (int i = 0; i < 16; i++)
		V_STORE(out + 16 * ARIA_LANES * i, x[i]);
}

/* ncalls x ARIA_NBLOCKS blocks of ECB (each call is the asm's one wide call). */
ARIA_TARGET void ARIA_FN(ecb)(const struct aria_ctx *ctx, uint8_t *out, const uint8_t *in,
			      size_t ncalls, int encrypt)
{
	uint8_t rk[ARIA_MAX_RD_KEYS][16];

	aria_x86_round_key_bytes(rk, encrypt ? ctx->enc_key : ctx->dec_key, ctx->rounds);
	for (size_t i = 0; i < ncalls; i++)
		ARIA_FN(crypt)((const uint8_t (*)[16])rk, ctx->rounds,
			       out + i * 16 * ARIA_NBLOCKS, in + i * 16 * ARIA_NBLOCKS);
	memzero_explicit(rk, sizeof(rk));
}

/* ncalls x ARIA_NBLOCKS blocks of CTR: the counter blocks iv, iv + 1, ...
 * (128-bit big endian, carrying) are encrypted and XORed; iv advances. */
ARIA_TARGET void ARIA_FN(ctr)(const struct aria_ctx *ctx, uint8_t *out, const uint8_t *in,
			      size_t ncalls, uint8_t iv[16])
{
	uint8_t rk[ARIA_MAX_RD_KEYS][16];
	uint8_t ks[16 * ARIA_NBLOCKS];

	aria_x86_round_key_bytes(rk, ctx->enc_key, ctx->rounds);
	for (size_t i = 0; i < ncalls; i++) {
		const uint8_t *src = in + i * sizeof(ks);
		uint8_t *dst = out + i * sizeof(ks);

		aria_x86_counter_blocks(ks, iv, ARIA_NBLOCKS);
		ARIA_FN(crypt)((const uint8_t (*)[16])rk, ctx->rounds, ks, ks);
		for (size_t k = 0; k < sizeof(ks); k += sizeof(vec_t))
			V_STORE(dst + k, V_XOR(V_LOAD(src + k), V_LOAD(ks + k)));
	}
	memzero_explicit(rk, sizeof(rk));
	memzero_explicit(ks, sizeof(ks));
}

#undef ARIA_NBLOCKS
#undef ARIA_FN
#undef ARIA_CAT
#undef ARIA_CAT2
