/*
 * AES-NI block-cipher modes over the key schedule of aesni.c: CBC, CTR,
 * XCTR and XTS with ciphertext stealing (the C loops of the kernel's __cbc/
 * __ctr/__xctr/__xts-aes-aesni drivers; the ECB loop is in aesni.c).
 *
 * CBC encryption is serial; CBC decryption, CTR and XTS run eight blocks at
 * a time so that eight independent AESENC/AESDEC chains hide the latency.
 * CTR's counter is the whole 16-byte IV read as a big-endian 128-bit number.
 * XTS follows IEEE P1619: T_0 = E_K2(IV), T_{i+1} = T_i * x in GF(2^128)
 * with the little-endian ("ble") convention, and a last partial block is
 * handled by ciphertext stealing as the 5.4+ kernel does.
 */
#include "aesni_modes.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>


X86_TARGET_AESNI
static inline __m128i one_block(const __m128i *rk, int rounds, int dec, __m128i x)
{
	int r;

	x = _mm_xor_si128(x, rk[0]);
	if (dec) {
		for (r = 1; r < rounds; r++)
			x = _mm_aesdec_si128(x, rk[r]);
		return _mm_aesdeclast_si128(x, rk[rounds]);
	}
	for (r = 1; r < rounds; r++)
		x = _mm_aesenc_si128(x, rk[r]);
	return _mm_aesenclast_si128(x, rk[rounds]);
}

/* n blocks of v through the cipher (n <= 8; the compiler unrolls per call site). */
X86_TARGET_AESNI
static inline void n_blocks(const __m128i *rk, int rounds, int dec, __m128i *v, int n)
{
	int r, j;

	for (j = 0; j < n; j++)
		v[j] = _mm_xor_si128(v[j], rk[0]);
	if (dec) {
		for (r = 1; r < rounds; r++)
			for (j = 0; j < n; j++)
				v[j] = _mm_aesdec_si128(v[j], rk[r]);
		for (j = 0; j < n; j++)
			v[j] = _mm_aesdeclast_si128(v[j], rk[rounds]);
	} else {
		for (r = 1; r < rounds; r++)
			for (j = 0; j < n; j++)
				v[j] = _mm_aesenc_si128(v[j], rk[r]);
		for (j = 0; j < n; j++)
			v[j] = _mm_aesenclast_si128(v[j], rk[rounds]);
	}
}


X86_TARGET_AESNI
void aesni_cbc_encrypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in,
		       size_t nblocks, uint8_t *iv)
{
	__m128i bounce[AESNI_MAX_ROUND_KEYS];
	int bounced;
	const __m128i *rk = keys_of(ctx, 0, bounce, &bounced);
	const int rounds = (int)ctx->rounds;
	__m128i c = LD(iv);

	for (; nblocks; nblocks--, in += 16, out += 16) {
		c = one_block(rk, rounds, 0, _mm_xor_si128(c, LD(in)));
		ST(out, c);
	}
	ST(iv, c);
	if (bounced)
		crypto_memzero(bounce, sizeof(bounce));
}

X86_TARGET_AESNI
void aesni_cbc_decrypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in,
		       size_t nblocks, uint8_t *iv)
{
	__m128i bounce[AESNI_MAX_ROUND_KEYS];
	int bounced;
	const __m128i *rk = keys_of(ctx, 1, bounce, &bounced);
	const int rounds = (int)ctx->rounds;
	__m128i prev = LD(iv), c[8], v[8];
	int j;

	for (; nblocks >= 8; nblocks -= 8, in += 128, out += 128) {
		for (j = 0; j < 8; j++)
			v[j] = c[j] = LD(in + 16 * j);	/* read all before writing: in may equal out */
		n_blocks(rk, rounds, 1, v, 8);
		ST(out, _mm_xor_si128(v[0], prev));
		for (j = 1; j < 8; j++)
			ST(out + 16 * j, _mm_xor_si128(v[j], c[j - 1]));
		prev = c[7];
	}
	for (; nblocks; nblocks--, in += 16, out += 16) {
		c[0] = LD(in);
		ST(out, _mm_xor_si128(one_block(rk, rounds, 1, c[0]), prev));
		prev = c[0];
	}
	ST(iv, prev);
	if (bounced)
		crypto_memzero(bounce, sizeof(bounce));
}


X86_TARGET_AESNI
void aesni_ctr_crypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in,
		     size_t nbytes, uint8_t *iv)
{
	__m128i bounce[AESNI_MAX_ROUND_KEYS];
	int bounced;
	const __m128i *rk = keys_of(ctx, 0, bounce, &bounced);
	const int rounds = (int)ctx->rounds;
	uint64_t hi = load_be64(iv), lo = load_be64(iv + 8);
	__m128i v[8];
	uint8_t ks[16];
	size_t i;
	int j;

	for (; nbytes >= 128; nbytes -= 128, in += 128, out += 128) {
		for (j = 0; j < 8; j++) {
			v[j] = ctr_block(hi, lo);
			hi += (++lo == 0);
		}
		n_blocks(rk, rounds, 0, v, 8);
		for (j = 0; j < 8; j++)
			ST(out + 16 * j, _mm_xor_si128(v[j], LD(in + 16 * j)));
	}
	for (; nbytes >= 16; nbytes -= 16, in += 16, out += 16) {
		v[0] = one_block(rk, rounds, 0, ctr_block(hi, lo));
		hi += (++lo == 0);
		ST(out, _mm_xor_si128(v[0], LD(in)));
	}
	if (nbytes) {		/* a final partial block: one more keystream block */
		ST(ks, one_block(rk, rounds, 0, ctr_block(hi, lo)));
		hi += (++lo == 0);
		for (i = 0; i < nbytes; i++)
			out[i] = in[i] ^ ks[i];
		crypto_memzero(ks, sizeof(ks));
	}
	store_be64(iv, hi);
	store_be64(iv + 8, lo);
	if (bounced)
		crypto_memzero(bounce, sizeof(bounce));
}


X86_TARGET_AESNI
__m128i aesni_xts_first_tweak(const struct aesni_ctx *tweak_ctx, const uint8_t *iv)
{
	__m128i bounce[AESNI_MAX_ROUND_KEYS];
	int bounced;
	const __m128i *rk = keys_of(tweak_ctx, 0, bounce, &bounced);
	__m128i t = one_block(rk, (int)tweak_ctx->rounds, 0, LD(iv));

	if (bounced)
		crypto_memzero(bounce, sizeof(bounce));
	return t;
}

/*
 * The blocks from tweak *t on, with ciphertext stealing when nbytes is not a
 * multiple of 16 (nbytes >= 16).  The VAES code runs its bulk then calls this.
 */
X86_TARGET_AESNI
void aesni_xts_tail(const struct aesni_ctx *ctx, __m128i t, uint8_t *out, const uint8_t *in,
		    size_t nbytes, int dec)
{
	__m128i bounce[AESNI_MAX_ROUND_KEYS];
	int bounced;
	const __m128i *rk = keys_of(ctx, dec, bounce, &bounced);
	const int rounds = (int)ctx->rounds;
	size_t tail = nbytes & 15, full = nbytes >> 4;
	__m128i v[8], tw[8], x, t_last, t_next;
	uint8_t cc[16], head[16];
	int j;

	if (tail)
		full--;		/* the last full block is part of the stealing */
	for (; full >= 8; full -= 8, in += 128, out += 128) {
		for (j = 0; j < 8; j++) {
			tw[j] = t;
			v[j] = _mm_xor_si128(LD(in + 16 * j), t);
			t = xts_mul_x(t);
		}
		n_blocks(rk, rounds, dec, v, 8);
		for (j = 0; j < 8; j++)
			ST(out + 16 * j, _mm_xor_si128(v[j], tw[j]));
	}
	for (; full; full--, in += 16, out += 16) {
		ST(out, _mm_xor_si128(one_block(rk, rounds, dec, _mm_xor_si128(LD(in), t)), t));
		t = xts_mul_x(t);
	}
	if (tail) {
		/* encrypt: block m-1 with T_{m-1}, the stolen block with T_m;
		 * decrypt: block m-1 with T_m, the stolen block with T_{m-1}. */
		t_next = xts_mul_x(t);
		t_last = dec ? t_next : t;
		x = _mm_xor_si128(one_block(rk, rounds, dec, _mm_xor_si128(LD(in), t_last)), t_last);
		ST(head, x);			/* its first r bytes become the short tail */
		ST(cc, x);
		memcpy(cc, in + 16, tail);	/* the stolen block: P_m || CC[r:16] (read before any write) */
		t_last = dec ? t : t_next;
		x = _mm_xor_si128(one_block(rk, rounds, dec, _mm_xor_si128(LD(cc), t_last)), t_last);
		memcpy(out + 16, head, tail);
		ST(out, x);
		crypto_memzero(head, sizeof(head));
		crypto_memzero(cc, sizeof(cc));
	}
	if (bounced)
		crypto_memzero(bounce, sizeof(bounce));
}

X86_TARGET_AESNI
int aesni_xts_crypt(const struct aesni_ctx *ctx, const struct aesni_ctx *tweak_ctx, uint8_t *out,
		    const uint8_t *in, size_t nbytes, const uint8_t *iv, int dec)
{
	if (nbytes < 16)
		return -EINVAL;
	aesni_xts_tail(ctx, aesni_xts_first_tweak(tweak_ctx, iv), out, in, nbytes, dec);
	return 0;
}

X86_TARGET_AESNI
void aesni_xctr_crypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in,
		      size_t nbytes, const uint8_t *iv)
{
	aesni_xctr_from(ctx, out, in, nbytes, iv, 1);
}

X86_TARGET_AESNI
void aesni_xctr_from(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in,
		     size_t nbytes, const uint8_t *iv, uint32_t ctr)
{
	__m128i bounce[AESNI_MAX_ROUND_KEYS];
	int bounced;
	const __m128i *rk = keys_of(ctx, 0, bounce, &bounced);
	const int rounds = (int)ctx->rounds;
	const __m128i base = LD(iv);
	__m128i v[8];
	uint8_t ks[16];
	size_t i;
	int j;

	/* the block number goes little endian into the IV's first 4 bytes */
	for (; nbytes >= 128; nbytes -= 128, in += 128, out += 128) {
		for (j = 0; j < 8; j++)
			v[j] = _mm_xor_si128(base, _mm_cvtsi32_si128((int)ctr++));
		n_blocks(rk, rounds, 0, v, 8);
		for (j = 0; j < 8; j++)
			ST(out + 16 * j, _mm_xor_si128(v[j], LD(in + 16 * j)));
	}
	for (; nbytes >= 16; nbytes -= 16, in += 16, out += 16) {
		v[0] = one_block(rk, rounds, 0, _mm_xor_si128(base, _mm_cvtsi32_si128((int)ctr++)));
		ST(out, _mm_xor_si128(v[0], LD(in)));
	}
	if (nbytes) {		/* a final partial block */
		ST(ks, one_block(rk, rounds, 0, _mm_xor_si128(base, _mm_cvtsi32_si128((int)ctr))));
		for (i = 0; i < nbytes; i++)
			out[i] = in[i] ^ ks[i];
		crypto_memzero(ks, sizeof(ks));
	}
	if (bounced)
		crypto_memzero(bounce, sizeof(bounce));
}

#else /* not x86: the glue never gets here, but keep the symbols */

#include <stdlib.h>

void aesni_xctr_crypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in,
		      size_t nbytes, const uint8_t *iv)
{
	(void)ctx; (void)out; (void)in; (void)nbytes; (void)iv;
	abort();
}

void aesni_cbc_encrypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in,
		       size_t nblocks, uint8_t *iv)
{
	(void)ctx; (void)out; (void)in; (void)nblocks; (void)iv;
	abort();
}

void aesni_cbc_decrypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in,
		       size_t nblocks, uint8_t *iv)
{
	(void)ctx; (void)out; (void)in; (void)nblocks; (void)iv;
	abort();
}

void aesni_ctr_crypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in,
		     size_t nbytes, uint8_t *iv)
{
	(void)ctx; (void)out; (void)in; (void)nbytes; (void)iv;
	abort();
}

int aesni_xts_crypt(const struct aesni_ctx *ctx, const struct aesni_ctx *tweak_ctx, uint8_t *out,
		    const uint8_t *in, size_t nbytes, const uint8_t *iv, int dec)
{
	(void)ctx; (void)tweak_ctx; (void)out; (void)in; (void)nbytes; (void)iv; (void)dec;
	abort();
}

#endif
