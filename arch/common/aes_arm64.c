/*
 * Scalar table-driven AES for arm64: the role of arch/arm64/crypto/
 * aes-cipher-core.S (the aes-arm64 cipher); the arm machine's aes-arm builds
 * this same file for ARMv7 (arch/arm/crypto/aes-cipher-core.S's role).
 *
 * One 1 KiB table per direction: Te[x] is MixColumns applied to a column
 * holding S(x) in row 0 only, Td[x] InvMixColumns of InvS(x) in row 0.  A byte
 * in row r uses the table word rotated left by 8*r (one ror each on arm64).
 * The last round looks bytes up in the S-boxes.  State and round keys are
 * little-endian column words (byte 0 = row 0), the layout of the generic key
 * schedule, so the generic expansion feeds these routines directly.
 * The tables are computed once at load time from GF(2^8) arithmetic.
 */
#include <stdint.h>

#include "aes_arm64.h"
#include "byteorder.h"

static uint8_t sbox[256], inv_sbox[256];
static uint32_t te[256], td[256];

static uint8_t gf_mul(uint8_t a, uint8_t b)
{
	uint8_t p = 0;

	while (b) {
		if (b & 1)
			p ^= a;
		a = (uint8_t)((a << 1) ^ ((a & 0x80) ? 0x1b : 0));
		b >>= 1;
	}
	return p;
}

static uint8_t rotl8(uint8_t x, int n)
{
	return (uint8_t)((x << n) | (x >> (8 - n)));
}

__attribute__((constructor)) static void aes_arm64_tables(void)
{
	int x;

	for (x = 0; x < 256; x++) {
		uint8_t inv = 0, s;
		int y;

		for (y = 1; x && y < 256; y++)	/* multiplicative inverse, 0 -> 0 */
			if (gf_mul((uint8_t)x, (uint8_t)y) == 1) {
				inv = (uint8_t)y;
				break;
			}
		s = (uint8_t)(inv ^ rotl8(inv, 1) ^ rotl8(inv, 2) ^ rotl8(inv, 3) ^ rotl8(inv, 4) ^ 0x63);
		sbox[x] = s;
		inv_sbox[s] = (uint8_t)x;
	}
	for (x = 0; x < 256; x++) {
		uint8_t s = sbox[x], v = inv_sbox[x];

		te[x] = (uint32_t)gf_mul(s, 2) | (uint32_t)s << 8 | (uint32_t)s << 16 |
			(uint32_t)gf_mul(s, 3) << 24;
		td[x] = (uint32_t)gf_mul(v, 14) | (uint32_t)gf_mul(v, 9) << 8 |
			(uint32_t)gf_mul(v, 13) << 16 | (uint32_t)gf_mul(v, 11) << 24;
	}
}

static inline uint32_t rol32(uint32_t x, int n)
{
	return (x << n) | (x >> (32 - n));
}

#define B(w, r) (((w) >> (8 * (r))) & 0xff)

/* Row r of output column j comes from input column (j + shift*r) mod 4. */
#define ROUND(t, s, j, sh, k)                                           \
	((t)[B(s[(j) & 3], 0)] ^ rol32((t)[B(s[((j) + (sh)) & 3], 1)], 8) ^   \
	 rol32((t)[B(s[((j) + 2 * (sh)) & 3], 2)], 16) ^                   \
	 rol32((t)[B(s[((j) + 3 * (sh)) & 3], 3)], 24) ^ (k))

#define LAST(box, s, j, sh, k)                                          \
	((uint32_t)(box)[B(s[(j) & 3], 0)] |                                \
	 (uint32_t)(box)[B(s[((j) + (sh)) & 3], 1)] << 8 |                  \
	 (uint32_t)(box)[B(s[((j) + 2 * (sh)) & 3], 2)] << 16 |             \
	 (uint32_t)(box)[B(s[((j) + 3 * (sh)) & 3], 3)] << 24) ^ (k)

/* sh = 1: ShiftRows (encrypt); sh = 3 (= -1 mod 4): InvShiftRows. */
static void crypt_block(const uint32_t *table, const uint8_t *box, int sh,
			const uint32_t *rk, uint8_t *out, const uint8_t *in,
			unsigned int rounds)
{
	uint32_t s[4], t[4];
	unsigned int r;
	int j;

	for (j = 0; j < 4; j++)
		s[j] = get_le32(in + 4 * j) ^ rk[j];
	for (r = 1; r < rounds; r++) {
		rk += 4;
		for (j = 0; j < 4; j++)
			t[j] = ROUND(table, s, j, sh, rk[j]);
		for (j = 0; j < 4; j++)
			s[j] = t[j];
	}
	rk += 4;
	for (j = 0; j < 4; j++)
		t[j] = LAST(box, s, j, sh, rk[j]);
	for (j = 0; j < 4; j++)
		put_le32(out + 4 * j, t[j]);
}

void aes_arm64_encrypt(const uint32_t *rk, uint8_t *out, const uint8_t *in, unsigned int rounds)
{
	crypt_block(te, sbox, 1, rk, out, in, rounds);
}

void aes_arm64_decrypt(const uint32_t *rk, uint8_t *out, const uint8_t *in, unsigned int rounds)
{
	crypt_block(td, inv_sbox, 3, rk, out, in, rounds);
}
