/*
 * AES-XTS and AES-CTR bulk code with VAES on 256-bit registers (two blocks
 * per register, sixteen blocks per loop), the counterpart of the later
 * kernels' xts-aes-vaes-avx2 / ctr-aes-vaes-avx2 (arch/x86/crypto/
 * aes-xts-avx-x86_64.S, aes-ctr-avx-x86_64.S).  What is left after the bulk
 * (fewer than sixteen blocks, and XTS ciphertext stealing) goes to the
 * 128-bit AES-NI code of aesni_modes.c, so both give the same bytes.
 *
 * Sixteen XTS tweaks live in eight registers (T_2j, T_2j+1); the next
 * sixteen are each one times x^16, computed as two multiplications by x^8:
 * a one-byte shift of each 128-bit lane, with the byte shifted out folded
 * back as its carry-less product with 0x87 (b ^ b<<1 ^ b<<2 ^ b<<7).
 */
#include "aesni_modes.h"

#if defined(__x86_64__) || defined(__i386__)

#define X86_TARGET_VAES X86_TARGET("vaes,avx2,aes,sse4.1")

X86_TARGET_VAES
static inline __m256i mul_x8(__m256i t)
{
	__m256i b = _mm256_bsrli_epi128(t, 15);	/* the top byte of each lane */
	__m256i r = _mm256_xor_si256(_mm256_xor_si256(b, _mm256_slli_epi64(b, 1)),
				     _mm256_xor_si256(_mm256_slli_epi64(b, 2),
						      _mm256_slli_epi64(b, 7)));

	return _mm256_xor_si256(_mm256_bslli_epi128(t, 1), r);
}

X86_TARGET_VAES
static inline void crypt16(const __m256i *rk, int rounds, int dec, __m256i *v)
{
	int r, j;

	for (j = 0; j < 8; j++)
		v[j] = _mm256_xor_si256(v[j], rk[0]);
	if (dec) {
		for (r = 1; r < rounds; r++)
			for (j = 0; j < 8; j++)
				v[j] = _mm256_aesdec_epi128(v[j], rk[r]);
		for (j = 0; j < 8; j++)
			v[j] = _mm256_aesdeclast_epi128(v[j], rk[rounds]);
	} else {
		for (r = 1; r < rounds; r++)
			for (j = 0; j < 8; j++)
				v[j] = _mm256_aesenc_epi128(v[j], rk[r]);
		for (j = 0; j < 8; j++)
			v[j] = _mm256_aesenclast_epi128(v[j], rk[rounds]);
	}
}

X86_TARGET_VAES
static inline void broadcast_keys(const __m128i *rk, int rounds, __m256i *out)
{
	int r;

	for (r = 0; r <= rounds; r++)
		out[r] = _mm256_broadcastsi128_si256(rk[r]);
}

#define LD2(p) _mm256_loadu_si256((const __m256i *)(p))
#define ST2(p, v) _mm256_storeu_si256((__m256i *)(p), (v))

X86_TARGET_VAES
int aes_vaes_avx2_xts_crypt(const struct aesni_ctx *ctx, const struct aesni_ctx *tweak_ctx,
			 uint8_t *out, const uint8_t *in, size_t nbytes, const uint8_t *iv, int dec)
{
	__m128i bounce[AESNI_MAX_ROUND_KEYS];
	__m256i rk[AESNI_MAX_ROUND_KEYS], tw[8], v[8];
	int bounced, j;
	const int rounds = (int)ctx->rounds;
	size_t full, bulk;
	__m128i t, t1;

	if (nbytes < 16)
		return -EINVAL;
	t = aesni_xts_first_tweak(tweak_ctx, iv);
	full = (nbytes >> 4) - ((nbytes & 15) ? 1 : 0);	/* the stealing keeps its block */
	bulk = full & ~(size_t)15;
	if (bulk) {
		broadcast_keys(keys_of(ctx, dec, bounce, &bounced), rounds, rk);
		if (bounced)
			crypto_memzero(bounce, sizeof(bounce));
		for (j = 0; j < 8; j++) {
			t1 = xts_mul_x(t);
			tw[j] = _mm256_set_m128i(t1, t);
			t = xts_mul_x(t1);
		}
		for (; bulk; bulk -= 16, nbytes -= 256, in += 256, out += 256) {
			for (j = 0; j < 8; j++)
				v[j] = _mm256_xor_si256(LD2(in + 32 * j), tw[j]);
			crypt16(rk, rounds, dec, v);
			for (j = 0; j < 8; j++) {
				ST2(out + 32 * j, _mm256_xor_si256(v[j], tw[j]));
				tw[j] = mul_x8(mul_x8(tw[j]));
			}
		}
		t = _mm256_castsi256_si128(tw[0]);
		crypto_memzero(rk, sizeof(rk));
	}
	if (nbytes)
		aesni_xts_tail(ctx, t, out, in, nbytes, dec);
	return 0;
}

X86_TARGET_VAES
void aes_vaes_avx2_ctr_crypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in,
			  size_t nbytes, uint8_t *iv)
{
	__m128i bounce[AESNI_MAX_ROUND_KEYS];
	__m256i rk[AESNI_MAX_ROUND_KEYS], v[8];
	int bounced, j;
	const int rounds = (int)ctx->rounds;
	uint64_t hi, lo;
	__m128i c0, c1;

	if (nbytes >= 256) {
		hi = load_be64(iv);
		lo = load_be64(iv + 8);
		broadcast_keys(keys_of(ctx, 0, bounce, &bounced), rounds, rk);
		if (bounced)
			crypto_memzero(bounce, sizeof(bounce));
		for (; nbytes >= 256; nbytes -= 256, in += 256, out += 256) {
			for (j = 0; j < 8; j++) {
				c0 = ctr_block(hi, lo);
				hi += (++lo == 0);
				c1 = ctr_block(hi, lo);
				hi += (++lo == 0);
				v[j] = _mm256_set_m128i(c1, c0);
			}
			crypt16(rk, rounds, 0, v);
			for (j = 0; j < 8; j++)
				ST2(out + 32 * j, _mm256_xor_si256(v[j], LD2(in + 32 * j)));
		}
		store_be64(iv, hi);
		store_be64(iv + 8, lo);
		crypto_memzero(rk, sizeof(rk));
	}
	aesni_ctr_crypt(ctx, out, in, nbytes, iv);
}

#else /* not x86: the glue never gets here, but keep the symbols */

#include <stdlib.h>

int aes_vaes_avx2_xts_crypt(const struct aesni_ctx *ctx, const struct aesni_ctx *tweak_ctx,
			 uint8_t *out, const uint8_t *in, size_t nbytes, const uint8_t *iv, int dec)
{
	(void)ctx; (void)tweak_ctx; (void)out; (void)in; (void)nbytes; (void)iv; (void)dec;
	abort();
}

void aes_vaes_avx2_ctr_crypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in,
			  size_t nbytes, uint8_t *iv)
{
	(void)ctx; (void)out; (void)in; (void)nbytes; (void)iv;
	abort();
}

#endif
