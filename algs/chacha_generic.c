/*
 * Portable ChaCha stream cipher core, HChaCha and XChaCha key setup.
 *
 * Userspace counterpart of the kernel's crypto/chacha_generic.c together with
 * the generic block function of lib/chacha.c (chacha_block_generic /
 * hchacha_block_generic).  Written from RFC 8439 section 2.3 and
 * draft-irtf-cfrg-xchacha section 2.2; plain 32-bit C, no SIMD.
 *
 * Kernel conventions kept here:
 *  - the 16-byte IV fills state words 12..15 verbatim (little-endian);
 *  - every 64-byte block, a trailing partial one included, increments word 12
 *    alone (wraps mod 2^32, never carries into word 13);
 *  - HChaCha does not add the input state back and returns words 0-3, 12-15;
 *  - XChaCha's 32-byte IV is nonce(24) || position(8), and the final ChaCha
 *    state takes position (words 12-13) before the nonce tail (words 14-15).
 */
#include <string.h>

#include "chacha_generic.h"
#include "memzero.h"
#include "byteorder.h"

/* "expand 32-byte k" as four little-endian words */
#define CHACHA_C0 0x61707865u
#define CHACHA_C1 0x3320646eu
#define CHACHA_C2 0x79622d32u
#define CHACHA_C3 0x6b206574u

static inline uint32_t rotl32(uint32_t v, unsigned int n)
{
	return (v << n) | (v >> (32 - n));
}

/* One quarter round on four named words. */
#define QROUND(a, b, c, d)                                   \
	do {                                                 \
		a += b; d ^= a; d = rotl32(d, 16);           \
		c += d; b ^= c; b = rotl32(b, 12);           \
		a += b; d ^= a; d = rotl32(d, 8);            \
		c += d; b ^= c; b = rotl32(b, 7);            \
	} while (0)

/*
 * Apply nrounds/2 double rounds (columns, then diagonals) to x[].  The words
 * are held in locals so the compiler can keep them in registers.
 */
static inline void chacha_permute(uint32_t x[16], int nrounds)
{
	uint32_t x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3];
	uint32_t x4 = x[4], x5 = x[5], x6 = x[6], x7 = x[7];
	uint32_t x8 = x[8], x9 = x[9], x10 = x[10], x11 = x[11];
	uint32_t x12 = x[12], x13 = x[13], x14 = x[14], x15 = x[15];
	int i;

	for (i = 0; i < nrounds; i += 2) {
		QROUND(x0, x4, x8, x12);
		QROUND(x1, x5, x9, x13);
		QROUND(x2, x6, x10, x14);
		QROUND(x3, x7, x11, x15);

		QROUND(x0, x5, x10, x15);
		QROUND(x1, x6, x11, x12);
		QROUND(x2, x7, x8, x13);
		QROUND(x3, x4, x9, x14);
	}

	x[0] = x0; x[1] = x1; x[2] = x2; x[3] = x3;
	x[4] = x4; x[5] = x5; x[6] = x6; x[7] = x7;
	x[8] = x8; x[9] = x9; x[10] = x10; x[11] = x11;
	x[12] = x12; x[13] = x13; x[14] = x14; x[15] = x15;
}

void chacha_init_state(uint32_t state[16], const uint32_t key[8], const uint8_t iv[16])
{
	int i;

	state[0] = CHACHA_C0;
	state[1] = CHACHA_C1;
	state[2] = CHACHA_C2;
	state[3] = CHACHA_C3;
	for (i = 0; i < 8; i++)
		state[4 + i] = key[i];
	for (i = 0; i < 4; i++)
		state[12 + i] = get_le32(iv + 4 * i);
}

void chacha_setup(uint32_t state[16], const uint8_t key[32], const uint8_t iv[16])
{
	uint32_t k[8];
	int i;

	for (i = 0; i < 8; i++)
		k[i] = get_le32(key + 4 * i);
	chacha_init_state(state, k, iv);
	memzero_explicit(k, sizeof(k));
}

void chacha_crypt_generic(uint32_t state[16], uint8_t *dst, const uint8_t *src,
			  size_t bytes, int nrounds)
{
	uint32_t x[16];
	int i;

	/* Whole blocks: XOR word by word, no intermediate keystream buffer. */
	while (bytes >= CHACHA_BLOCK_SIZE) {
		memcpy(x, state, sizeof(x));
		chacha_permute(x, nrounds);
		for (i = 0; i < 16; i++)
			put_le32(dst + 4 * i, get_le32(src + 4 * i) ^ (x[i] + state[i]));
		state[12]++;
		src += CHACHA_BLOCK_SIZE;
		dst += CHACHA_BLOCK_SIZE;
		bytes -= CHACHA_BLOCK_SIZE;
	}

	/* Trailing partial block: it still consumes one counter value. */
	if (bytes) {
		uint8_t ks[CHACHA_BLOCK_SIZE];
		size_t j;

		memcpy(x, state, sizeof(x));
		chacha_permute(x, nrounds);
		for (i = 0; i < 16; i++)
			put_le32(ks + 4 * i, x[i] + state[i]);
		state[12]++;
		for (j = 0; j < bytes; j++)
			dst[j] = src[j] ^ ks[j];
		memzero_explicit(ks, sizeof(ks));
	}

	memzero_explicit(x, sizeof(x));
}

void hchacha_block_generic(const uint32_t state[16], uint32_t out[8], int nrounds)
{
	uint32_t x[16];

	memcpy(x, state, sizeof(x));
	chacha_permute(x, nrounds);
	memcpy(&out[0], &x[0], 4 * sizeof(uint32_t));
	memcpy(&out[4], &x[12], 4 * sizeof(uint32_t));
	memzero_explicit(x, sizeof(x));
}

static void xchacha_setup_with(uint32_t state[16], const uint8_t key[32], const uint8_t iv[32],
			       int nrounds, chacha_hchacha_fn hchacha)
{
	uint32_t subkey[8];
	uint8_t real_iv[16];

	/* Subkey from the first 16 nonce bytes. */
	chacha_setup(state, key, iv);
	hchacha(state, subkey, nrounds);

	/* Stream position first, then the last 8 nonce bytes. */
	memcpy(&real_iv[0], iv + 24, 8);
	memcpy(&real_iv[8], iv + 16, 8);
	chacha_init_state(state, subkey, real_iv);

	memzero_explicit(subkey, sizeof(subkey));
	memzero_explicit(real_iv, sizeof(real_iv));
}

void xchacha_setup(uint32_t state[16], const uint8_t key[32], const uint8_t iv[32],
		   int nrounds)
{
	xchacha_setup_with(state, key, iv, nrounds, hchacha_block_generic);
}

void chacha_crypt_direct(const struct chacha_direct *c, uint8_t *dst, const uint8_t *src,
			 size_t bytes, const uint8_t *iv)
{
	uint32_t state[16];

	if (c->hchacha)
		xchacha_setup_with(state, c->key, iv, c->nrounds, c->hchacha);
	else
		chacha_setup(state, c->key, iv);
	if (bytes)
		c->crypt(state, dst, src, bytes, c->nrounds);
	memzero_explicit(state, sizeof(state));
}
