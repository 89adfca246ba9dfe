/*
 * p8_aes's core (drivers/crypto/vmx/aes.c over aesp8-ppc.pl): AES with the
 * POWER8 vector-crypto instructions vcipher/vcipherlast and
 * vncipher/vncipherlast, one 16-byte block per call (the glue opens one VSX
 * section per block).
 *
 * The schedule is FIPS-197's expansion (computed here in scalar C: the
 * instructions have no key-expansion step), kept as 16-byte round keys in
 * block byte order; the rounds themselves are aes_p8_vec.h's, which the
 * mode cores share (decryption: vncipher over the same round keys in
 * reverse, no InvMixColumns-transformed decryption schedule).
 */
#include <stddef.h>
#include <stdint.h>

#include "aes_p8.h"
#include "aes_p8_vec.h"
#include "aes_sbox.h"

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

void aes_p8_encrypt(const uint8_t *rk, int rounds, uint8_t *dst, const uint8_t *src)
{
	vu64 k[P8_MAX_ROUNDS + 1] = { 0 };

	p8_load_schedule(k, rk, rounds);
	p8_store(dst, p8_encrypt_block(k, rounds, p8_load(src)));
}

void aes_p8_decrypt(const uint8_t *rk, int rounds, uint8_t *dst, const uint8_t *src)
{
	vu64 k[P8_MAX_ROUNDS + 1] = { 0 };

	p8_load_schedule(k, rk, rounds);
	p8_store(dst, p8_decrypt_block(k, rounds, p8_load(src)));
}
