/*
 * p8_aes's core (drivers/crypto/vmx/aes.c over aesp8-ppc.pl): AES with the
 * POWER8 vector-crypto instructions vcipher/vcipherlast and
 * vncipher/vncipherlast, one 16-byte block per call (the glue opens one VSX
 * section per block).
 *
 * The schedule is FIPS-197's expansion (computed here in scalar C: the
 * instructions have no key-expansion step), kept as 16-byte round keys in
 * block byte order.  Decryption runs vncipher over the same round keys in
 * reverse: vncipher is InvShiftRows, InvSubBytes, AddRoundKey,
 * InvMixColumns, the plain inverse cipher, so no InvMixColumns-transformed
 * decryption schedule is needed.
 */
#include <altivec.h>
#include <stddef.h>
#include <stdint.h>

#include "aes_p8.h"
#include "aes_sbox.h"

typedef vector unsigned char vu8;
typedef vector unsigned long long vu64;

static const uint8_t sbox[256] = { AES_SBOX_LIST(AES_SBOX_BYTE) };

/* rk: (rounds + 1) * 16 bytes; returns the number of rounds, or 0 for a bad key length */
int aes_p8_expandkey(const uint8_t *key, unsigned int key_len, uint8_t *rk)
{
	unsigned int nk = key_len / 4, rounds = nk + 6, total = 4 * (rounds + 1);
	uint8_t rcon = 1;

	if (key_len != 16 && key_len != 24 && key_len != 32)
		return 0;
	for (unsigned int i = 0; i < key_len; i++)
		rk[i] = key[i];
	for (unsigned int w = nk; w < total; w++) {
		uint8_t t[4] = { rk[4 * w - 4], rk[4 * w - 3], rk[4 * w - 2], rk[4 * w - 1] };

		if (w % nk == 0) {
			uint8_t t0 = t[0];

			t[0] = sbox[t[1]] ^ rcon;
			t[1] = sbox[t[2]];
			t[2] = sbox[t[3]];
			t[3] = sbox[t0];
			rcon = (uint8_t)((rcon << 1) ^ ((rcon >> 7) * 0x1b));
		} else if (nk > 6 && w % nk == 4) {
			for (int j = 0; j < 4; j++)
				t[j] = sbox[t[j]];
		}
		for (int j = 0; j < 4; j++)
			rk[4 * w + j] = rk[4 * (w - nk) + j] ^ t[j];
	}
	return (int)rounds;
}

/* bytes in memory order <-> the instructions' big-endian register order */
static inline vu64 load_be(const uint8_t *p)
{
	vu8 v = vec_xl(0, (const unsigned char *)p);

	return (vu64)vec_perm(v, v, (vu8){ 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0 });
}

static inline void store_be(uint8_t *p, vu64 s)
{
	vu8 v = (vu8)s;

	vec_xst(vec_perm(v, v, (vu8){ 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0 }), 0,
		(unsigned char *)p);
}

void aes_p8_encrypt(const uint8_t *rk, int rounds, uint8_t *dst, const uint8_t *src)
{
	vu64 s = load_be(src) ^ load_be(rk);

	for (int r = 1; r < rounds; r++)
		s = __builtin_crypto_vcipher(s, load_be(rk + 16 * r));
	store_be(dst, __builtin_crypto_vcipherlast(s, load_be(rk + 16 * rounds)));
}

void aes_p8_decrypt(const uint8_t *rk, int rounds, uint8_t *dst, const uint8_t *src)
{
	vu64 s = load_be(src) ^ load_be(rk + 16 * rounds);

	for (int r = rounds - 1; r > 0; r--)
		s = __builtin_crypto_vncipher(s, load_be(rk + 16 * r));
	store_be(dst, __builtin_crypto_vncipherlast(s, load_be(rk)));
}
