/*
 * AES-128/192/256 with the AES-NI instructions, the counterpart of the
 * kernel's arch/x86/crypto/aesni-intel_asm.S (aesni_set_key, aesni_enc,
 * aesni_dec, aesni_ecb_enc/dec) as used by the "aes-aesni" cipher and
 * "ecb-aes-aesni" skcipher.
 *
 * Key schedule: the FIPS-197 word recurrence, with SubWord computed by
 * AESKEYGENASSIST; decryption keys are the encryption keys in reverse order
 * with AESIMC applied to the inner ones (the equivalent inverse cipher).
 *
 * Round keys must be 16-byte aligned for the SSE forms of AESENC/AESDEC with
 * memory operands, but cffi/malloc gives no such promise for a struct, so
 * struct aesni_ctx holds an oversized byte array and setkey places the
 * schedule at the first 16-byte boundary inside it, remembering the offset.
 * If the struct is later copied to a differently aligned address the keys
 * are still found via the offset and are copied to an aligned stack buffer
 * for that call.
 *
 * ECB processes eight blocks at a time (eight independent AESENC chains hide
 * the instruction latency), then four, then one.
 */
#include "aesni.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

#define AES_BLOCK 16

X86_TARGET_AESNI
static inline uint32_t ror32(uint32_t v, int n)
{
	return (v >> n) | (v << (32 - n));
}

/* S-box applied to each byte of w. */
X86_TARGET_AESNI
static inline uint32_t sub_word(uint32_t w)
{
	/* AESKEYGENASSIST: dword 0 of the result is SubWord(dword 1 of src). */
	__m128i v = _mm_setr_epi32(0, (int)w, 0, 0);

	return (uint32_t)_mm_cvtsi128_si32(_mm_aeskeygenassist_si128(v, 0));
}

X86_TARGET_AESNI
int aesni_setkey(struct aesni_ctx *ctx, const uint8_t *key, size_t len)
{
	uint32_t w[AESNI_MAX_ROUND_KEYS * 4];
	__m128i *ek, *dk;
	uint32_t rcon = 1;
	size_t nk, i, total, off;
	int rounds;

	if (len != 16 && len != 24 && len != 32)
		return -EINVAL;
	nk = len / 4;
	rounds = (int)nk + 6;
	total = 4 * (size_t)(rounds + 1);

	memcpy(w, key, len);	/* little-endian words = FIPS-197 byte order */
	for (i = nk; i < total; i++) {
		uint32_t t = w[i - 1];

		if (i % nk == 0) {
			/* RotWord moves byte 1 to byte 0: a right rotate of the
			 * little-endian word */
			t = sub_word(ror32(t, 8)) ^ rcon;
			rcon = (rcon << 1) ^ ((rcon >> 7) * 0x11b);
		} else if (nk > 6 && i % nk == 4) {
			t = sub_word(t);
		}
		w[i] = w[i - nk] ^ t;
	}

	off = (size_t)((16 - ((uintptr_t)ctx->raw & 15)) & 15);
	ek = (__m128i *)(ctx->raw + off);
	dk = ek + AESNI_MAX_ROUND_KEYS;
	for (i = 0; i <= (size_t)rounds; i++)
		_mm_store_si128(&ek[i], _mm_loadu_si128((const __m128i *)&w[4 * i]));
	_mm_store_si128(&dk[0], ek[rounds]);
	for (i = 1; i < (size_t)rounds; i++)
		_mm_store_si128(&dk[i], _mm_aesimc_si128(ek[rounds - i]));
	_mm_store_si128(&dk[rounds], ek[0]);

	ctx->key_length = (uint32_t)len;
	ctx->rounds = (uint32_t)rounds;
	ctx->offset = (uint32_t)off;
	crypto_memzero(w, sizeof(w));
	return 0;
}

/*
 * The round keys of ctx (dec selects the decryption schedule), aligned.
 * Normally a pointer into ctx; if ctx was moved to a different alignment,
 * the keys are copied into bounce (wiped by the caller).
 */
X86_TARGET_AESNI
static inline const __m128i *round_keys(const struct aesni_ctx *ctx, int dec,
					__m128i *bounce, int *bounced)
{
	const uint8_t *p = ctx->raw + ctx->offset + (dec ? AESNI_MAX_ROUND_KEYS * 16 : 0);

	if ((uintptr_t)p & 15) {
		memcpy(bounce, p, 16 * (ctx->rounds + 1));
		*bounced = 1;
		return bounce;
	}
	*bounced = 0;
	return (const __m128i *)p;
}

X86_TARGET_AESNI
static inline __m128i enc1(const __m128i *rk, int rounds, __m128i x)
{
	int r;

	x = _mm_xor_si128(x, rk[0]);
	for (r = 1; r < rounds; r++)
		x = _mm_aesenc_si128(x, rk[r]);
	return _mm_aesenclast_si128(x, rk[rounds]);
}

X86_TARGET_AESNI
static inline __m128i dec1(const __m128i *rk, int rounds, __m128i x)
{
	int r;

	x = _mm_xor_si128(x, rk[0]);
	for (r = 1; r < rounds; r++)
		x = _mm_aesdec_si128(x, rk[r]);
	return _mm_aesdeclast_si128(x, rk[rounds]);
}

X86_TARGET_AESNI
void aesni_encrypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in)
{
	__m128i bounce[AESNI_MAX_ROUND_KEYS];
	int bounced;
	const __m128i *rk = round_keys(ctx, 0, bounce, &bounced);

	_mm_storeu_si128((__m128i *)out,
			 enc1(rk, (int)ctx->rounds, _mm_loadu_si128((const __m128i *)in)));
	if (bounced)
		crypto_memzero(bounce, sizeof(bounce));
}

X86_TARGET_AESNI
void aesni_decrypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in)
{
	__m128i bounce[AESNI_MAX_ROUND_KEYS];
	int bounced;
	const __m128i *rk = round_keys(ctx, 1, bounce, &bounced);

	_mm_storeu_si128((__m128i *)out,
			 dec1(rk, (int)ctx->rounds, _mm_loadu_si128((const __m128i *)in)));
	if (bounced)
		crypto_memzero(bounce, sizeof(bounce));
}

#define LOADN(v, in, n)                                                            \
	do {                                                                       \
		int j_;                                                            \
		for (j_ = 0; j_ < (n); j_++)                                       \
			v[j_] = _mm_loadu_si128((const __m128i *)((in) + 16 * j_)); \
	} while (0)

#define STOREN(out, v, n)                                                  \
	do {                                                               \
		int j_;                                                    \
		for (j_ = 0; j_ < (n); j_++)                               \
			_mm_storeu_si128((__m128i *)((out) + 16 * j_), v[j_]); \
	} while (0)

/* One pass of `op` (aesenc, aesdec, ...) with key k over n blocks. */
#define ROUNDN(v, op, k, n)                            \
	do {                                           \
		int j_;                                \
		for (j_ = 0; j_ < (n); j_++)           \
			v[j_] = op(v[j_], (k));        \
	} while (0)

X86_TARGET_AESNI
static inline __m128i xor128(__m128i a, __m128i b)
{
	return _mm_xor_si128(a, b);
}

/* ECB over nblocks with round op `op`/`last` (encrypt or decrypt). */
#define ECB_BODY(op, last)                                                     \
	do {                                                                   \
		__m128i v[8], k;                                               \
		int r;                                                         \
		for (; nblocks >= 8; nblocks -= 8, in += 128, out += 128) {    \
			LOADN(v, in, 8);                                       \
			ROUNDN(v, xor128, rk[0], 8);                           \
			for (r = 1; r < rounds; r++) {                         \
				k = rk[r];                                     \
				ROUNDN(v, op, k, 8);                           \
			}                                                      \
			ROUNDN(v, last, rk[rounds], 8);                        \
			STOREN(out, v, 8);                                     \
		}                                                              \
		if (nblocks >= 4) {                                            \
			LOADN(v, in, 4);                                       \
			ROUNDN(v, xor128, rk[0], 4);                           \
			for (r = 1; r < rounds; r++) {                         \
				k = rk[r];                                     \
				ROUNDN(v, op, k, 4);                           \
			}                                                      \
			ROUNDN(v, last, rk[rounds], 4);                        \
			STOREN(out, v, 4);                                     \
			nblocks -= 4;                                          \
			in += 64;                                              \
			out += 64;                                             \
		}                                                              \
		for (; nblocks; nblocks--, in += 16, out += 16) {              \
			v[0] = _mm_loadu_si128((const __m128i *)in);           \
			v[0] = _mm_xor_si128(v[0], rk[0]);                     \
			for (r = 1; r < rounds; r++)                           \
				v[0] = op(v[0], rk[r]);                        \
			v[0] = last(v[0], rk[rounds]);                         \
			_mm_storeu_si128((__m128i *)out, v[0]);                \
		}                                                              \
	} while (0)

X86_TARGET_AESNI
void aesni_ecb_encrypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in,
		       size_t nblocks)
{
	__m128i bounce[AESNI_MAX_ROUND_KEYS];
	int bounced;
	const __m128i *rk = round_keys(ctx, 0, bounce, &bounced);
	const int rounds = (int)ctx->rounds;

	ECB_BODY(_mm_aesenc_si128, _mm_aesenclast_si128);
	if (bounced)
		crypto_memzero(bounce, sizeof(bounce));
}

X86_TARGET_AESNI
void aesni_ecb_decrypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in,
		       size_t nblocks)
{
	__m128i bounce[AESNI_MAX_ROUND_KEYS];
	int bounced;
	const __m128i *rk = round_keys(ctx, 1, bounce, &bounced);
	const int rounds = (int)ctx->rounds;

	ECB_BODY(_mm_aesdec_si128, _mm_aesdeclast_si128);
	if (bounced)
		crypto_memzero(bounce, sizeof(bounce));
}

#else /* not x86: the glue never gets here, but keep the symbols */

#include <stdlib.h>

int aesni_setkey(struct aesni_ctx *ctx, const uint8_t *key, size_t len)
{
	(void)ctx; (void)key; (void)len;
	return -ENODEV;
}

void aesni_encrypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in)
{
	(void)ctx; (void)out; (void)in;
	abort();
}

void aesni_decrypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in)
{
	(void)ctx; (void)out; (void)in;
	abort();
}

void aesni_ecb_encrypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in,
		       size_t nblocks)
{
	(void)ctx; (void)out; (void)in; (void)nblocks;
	abort();
}

void aesni_ecb_decrypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in,
		       size_t nblocks)
{
	(void)ctx; (void)out; (void)in; (void)nblocks;
	abort();
}

#endif
