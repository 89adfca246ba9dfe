/*
 * The VAES XTS, CTR and XCTR bulk loops, written once for any vector width and
 * included by aesni_vaes.c once per driver (the later kernels' vaes-avx2,
 * vaes-avx10_256 and vaes-avx10_512 builds of arch/x86/crypto/
 * aes-xts-avx-x86_64.S and aes-ctr-avx-x86_64.S).  The includer defines:
 *
 *   VAES_TARGET          the function attribute (X86_TARGET("..."))
 *   VAES_NAME(x)         the public name of entry point x
 *   VEC, VEC_BLOCKS      the vector type and the AES blocks it holds (2 or 4)
 *   V_LOAD(p) V_STORE(p, v) V_XOR(a, b) V_XOR3(a, b, c) V_BCAST(m128)
 *   V_ENC V_ENCLAST V_DEC V_DECLAST (v, key)    VAES rounds on every lane
 *   V_SLLQ V_SRLQ (v, n)  64-bit shifts   V_BSLLI8(v)  each lane << 64 bits
 *   V_CLMUL_HI_LO(a, b)  carry-less a.hi64 * b.lo64 in each lane
 *   V_ADDQ(a, b) V_SHUFB(v, m) V_LANE0(v)
 *
 * Eight vectors are in flight per loop (16 or 32 blocks).  XTS tweaks move
 * forward k blocks at once as T * x^k: each 128-bit lane shifted left by k
 * bits, the k bits pushed out of the top folded back as their carry-less
 * product with 0x87 (one VPCLMULQDQ), k <= 32.  What is left after the
 * vector loops (fewer blocks than one vector, ciphertext stealing, a CTR
 * partial block) goes to the 128-bit AES-NI code of aesni_modes.c, so every
 * width gives the same bytes.
 */

#define VAES_NV 8					/* vectors per loop */
#define VAES_STEP (VAES_NV * VEC_BLOCKS)		/* blocks per loop */

/* T * x^k in each 128-bit lane (GF(2^128), the "ble" convention). */
VAES_TARGET
static inline VEC VAES_NAME(mul_xk)(VEC t, VEC poly, int k)
{
	VEC c = V_SRLQ(t, 64 - k);	/* the top k bits of each 64-bit half */

	return V_XOR3(V_SLLQ(t, k), V_BSLLI8(c), V_CLMUL_HI_LO(c, poly));
}

/* n vectors through the cipher; rounds is a constant at each call site. */
VAES_TARGET
static inline void VAES_NAME(crypt_n)(const VEC *rk, const int rounds, int dec, VEC *v, int n)
{
	int r, j;

	for (j = 0; j < n; j++)
		v[j] = V_XOR(v[j], rk[0]);
	if (dec) {
		for (r = 1; r < rounds; r++)
			for (j = 0; j < n; j++)
				v[j] = V_DEC(v[j], rk[r]);
		for (j = 0; j < n; j++)
			v[j] = V_DECLAST(v[j], rk[rounds]);
	} else {
		for (r = 1; r < rounds; r++)
			for (j = 0; j < n; j++)
				v[j] = V_ENC(v[j], rk[r]);
		for (j = 0; j < n; j++)
			v[j] = V_ENCLAST(v[j], rk[rounds]);
	}
}

/* The round count as a compile-time constant, so the round loops unroll. */
#define VAES_BY_ROUNDS(rounds, call)				\
	do {							\
		switch (rounds) {				\
		case 10: { const int nr_ = 10; call; } break;	\
		case 12: { const int nr_ = 12; call; } break;	\
		default: { const int nr_ = 14; call; } break;	\
		}						\
	} while (0)

VAES_TARGET
static inline void VAES_NAME(load_keys)(const struct aesni_ctx *ctx, int dec, VEC *rk)
{
	__m128i bounce[AESNI_MAX_ROUND_KEYS];
	int bounced, r;
	const __m128i *k = keys_of(ctx, dec, bounce, &bounced);

	for (r = 0; r <= (int)ctx->rounds; r++)
		rk[r] = V_BCAST(k[r]);
	if (bounced)
		crypto_memzero(bounce, sizeof(bounce));
}

/* XTS blocks [0, nblocks) with vectors; tw holds the tweaks of the first
 * VAES_STEP blocks and is left holding those of the next ones. */
VAES_TARGET
static inline size_t VAES_NAME(xts_bulk)(const VEC *rk, const int rounds, int dec, VEC *tw,
					 uint8_t *out, const uint8_t *in, size_t nblocks)
{
	const VEC poly = V_BCAST(_mm_set_epi64x(0, 0x87));
	VEC v[VAES_NV];
	size_t done = 0;
	int j;

	for (; nblocks - done >= VAES_STEP; done += VAES_STEP, in += 16 * VAES_STEP,
	     out += 16 * VAES_STEP) {
		for (j = 0; j < VAES_NV; j++)
			v[j] = V_XOR(V_LOAD(in + 16 * VEC_BLOCKS * j), tw[j]);
		VAES_NAME(crypt_n)(rk, rounds, dec, v, VAES_NV);
		for (j = 0; j < VAES_NV; j++) {
			V_STORE(out + 16 * VEC_BLOCKS * j, V_XOR(v[j], tw[j]));
			tw[j] = VAES_NAME(mul_xk)(tw[j], poly, VAES_STEP);
		}
	}
	/* one vector at a time; tw[0] then holds the next tweaks */
	for (; nblocks - done >= VEC_BLOCKS; done += VEC_BLOCKS, in += 16 * VEC_BLOCKS,
	     out += 16 * VEC_BLOCKS) {
		v[0] = V_XOR(V_LOAD(in), tw[0]);
		VAES_NAME(crypt_n)(rk, rounds, dec, v, 1);
		V_STORE(out, V_XOR(v[0], tw[0]));
		tw[0] = VAES_NAME(mul_xk)(tw[0], poly, VEC_BLOCKS);
	}
	return done;
}

VAES_TARGET
int VAES_NAME(xts_crypt)(const struct aesni_ctx *ctx, const struct aesni_ctx *tweak_ctx,
			 uint8_t *out, const uint8_t *in, size_t nbytes, const uint8_t *iv, int dec)
{
	VEC rk[AESNI_MAX_ROUND_KEYS], tw[VAES_NV];
	__m128i first[VAES_STEP];
	size_t full, done = 0;
	__m128i t;
	int j;

	if (nbytes < 16)
		return -EINVAL;
	t = aesni_xts_first_tweak(tweak_ctx, iv);
	full = (nbytes >> 4) - ((nbytes & 15) ? 1 : 0);	/* the stealing keeps its block */
	if (full >= VEC_BLOCKS) {
		for (j = 0; j < VAES_STEP; j++) {
			first[j] = t;
			t = xts_mul_x(t);
		}
		for (j = 0; j < VAES_NV; j++)
			tw[j] = V_LOAD(first + VEC_BLOCKS * j);
		crypto_memzero(first, sizeof(first));
		VAES_NAME(load_keys)(ctx, dec, rk);
		VAES_BY_ROUNDS(ctx->rounds,
			       done = VAES_NAME(xts_bulk)(rk, nr_, dec, tw, out, in, full));
		t = V_LANE0(tw[0]);
		crypto_memzero(rk, sizeof(rk));
		crypto_memzero(tw, sizeof(tw));
		nbytes -= 16 * done;
	}
	if (nbytes)
		aesni_xts_tail(ctx, t, out + 16 * done, in + 16 * done, nbytes, dec);
	return 0;
}

/* inc[j]: the 64-bit block offsets j * VEC_BLOCKS + lane, one per lane, in
 * each lane's low half (added to a counter held the same way). */
VAES_TARGET
static inline void VAES_NAME(lane_offsets)(VEC *inc)
{
	__m128i lanes[VEC_BLOCKS];
	int i, j;

	for (j = 0; j < VAES_NV; j++) {
		for (i = 0; i < VEC_BLOCKS; i++)
			lanes[i] = _mm_set_epi64x(0, (long long)(j * VEC_BLOCKS + i));
		inc[j] = V_LOAD(lanes);
	}
}

/* One loop of a counter mode: the counter blocks v[] through the cipher,
 * XORed with VAES_STEP blocks of in into out. */
VAES_TARGET
static inline void VAES_NAME(keystream_xor)(const VEC *rk, const int rounds, VEC *v, uint8_t *out,
					    const uint8_t *in)
{
	int j;

	VAES_NAME(crypt_n)(rk, rounds, 0, v, VAES_NV);
	for (j = 0; j < VAES_NV; j++)
		V_STORE(out + 16 * VEC_BLOCKS * j, V_XOR(v[j], V_LOAD(in + 16 * VEC_BLOCKS * j)));
}

/* CTR: whole loops of VAES_STEP blocks while the low 64 bits of the counter
 * do not wrap inside one loop (those loops go to the 128-bit code). */
VAES_TARGET
static inline size_t VAES_NAME(ctr_bulk)(const VEC *rk, const int rounds, uint8_t *out,
					 const uint8_t *in, size_t nblocks, uint64_t *hi,
					 uint64_t *lo)
{
	/* the lanes hold the counter as a little-endian 128-bit number;
	 * reversing each lane's bytes gives the big-endian counter block */
	const VEC bswap = V_BCAST(_mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7,
					       8, 9, 10, 11, 12, 13, 14, 15));
	VEC v[VAES_NV], inc[VAES_NV], base;
	size_t done = 0;
	int j;

	VAES_NAME(lane_offsets)(inc);
	for (; nblocks - done >= VAES_STEP && *lo <= UINT64_MAX - (VAES_STEP - 1);
	     done += VAES_STEP, in += 16 * VAES_STEP, out += 16 * VAES_STEP) {
		base = V_BCAST(_mm_set_epi64x((long long)*hi, (long long)*lo));
		for (j = 0; j < VAES_NV; j++)
			v[j] = V_SHUFB(V_ADDQ(base, inc[j]), bswap);
		VAES_NAME(keystream_xor)(rk, rounds, v, out, in);
		*lo += VAES_STEP;
		*hi += (*lo == 0);
	}
	return done;
}

VAES_TARGET
void VAES_NAME(ctr_crypt)(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in,
			  size_t nbytes, uint8_t *iv)
{
	VEC rk[AESNI_MAX_ROUND_KEYS];
	uint64_t hi, lo;
	size_t done, chunk;

	if (nbytes >= 16 * VAES_STEP) {
		hi = load_be64(iv);
		lo = load_be64(iv + 8);
		VAES_NAME(load_keys)(ctx, 0, rk);
		while (nbytes >= 16 * VAES_STEP) {
			VAES_BY_ROUNDS(ctx->rounds,
				       done = VAES_NAME(ctr_bulk)(rk, nr_, out, in, nbytes >> 4,
								  &hi, &lo));
			if (!done) {	/* the low half wraps in this loop: 128-bit code */
				store_be64(iv, hi);
				store_be64(iv + 8, lo);
				chunk = 16 * VAES_STEP;
				aesni_ctr_crypt(ctx, out, in, chunk, iv);
				hi = load_be64(iv);
				lo = load_be64(iv + 8);
				done = VAES_STEP;
			}
			nbytes -= 16 * done;
			in += 16 * done;
			out += 16 * done;
		}
		store_be64(iv, hi);
		store_be64(iv + 8, lo);
		crypto_memzero(rk, sizeof(rk));
	}
	aesni_ctr_crypt(ctx, out, in, nbytes, iv);
}

/* XCTR (HCTR2's counter mode): keystream block i is E(iv ^ le32(i)), i from
 * 1.  Whole loops of VAES_STEP blocks while the 32-bit block number stays
 * below 2^32; the rest (and any partial block) goes to the 128-bit code,
 * which continues from the block number reached. */
VAES_TARGET
static inline size_t VAES_NAME(xctr_bulk)(const VEC *rk, const int rounds, uint8_t *out,
					  const uint8_t *in, size_t nblocks, const uint8_t *iv,
					  uint32_t *ctr)
{
	const VEC base = V_BCAST(_mm_loadu_si128((const __m128i *)(const void *)iv));
	VEC v[VAES_NV], inc[VAES_NV], n;
	size_t done = 0;
	int j;

	VAES_NAME(lane_offsets)(inc);
	for (; nblocks - done >= VAES_STEP && *ctr <= UINT32_MAX - VAES_STEP;
	     done += VAES_STEP, in += 16 * VAES_STEP, out += 16 * VAES_STEP) {
		n = V_BCAST(_mm_set_epi64x(0, (long long)*ctr));
		for (j = 0; j < VAES_NV; j++)
			v[j] = V_XOR(base, V_ADDQ(n, inc[j]));
		VAES_NAME(keystream_xor)(rk, rounds, v, out, in);
		*ctr += VAES_STEP;
	}
	return done;
}

VAES_TARGET
void VAES_NAME(xctr_crypt)(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in,
			   size_t nbytes, const uint8_t *iv)
{
	VEC rk[AESNI_MAX_ROUND_KEYS];
	uint32_t ctr = 1;
	size_t done = 0;

	if (nbytes >= 16 * VAES_STEP) {
		VAES_NAME(load_keys)(ctx, 0, rk);
		VAES_BY_ROUNDS(ctx->rounds,
			       done = VAES_NAME(xctr_bulk)(rk, nr_, out, in, nbytes >> 4, iv, &ctr));
		crypto_memzero(rk, sizeof(rk));
	}
	aesni_xctr_from(ctx, out + 16 * done, in + 16 * done, nbytes - 16 * done, iv, ctr);
}

#undef VAES_NV
#undef VAES_STEP
#undef VAES_BY_ROUNDS
