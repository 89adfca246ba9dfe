/*
 * CBC with the POWER8 vector-crypto instructions (see aes_p8_modes.h): the
 * core of p8_aes_cbc (drivers/crypto/vmx/aes_cbc.c).  Encryption chains one
 * block after another; decryption keeps each ciphertext block in a register
 * before its plaintext is written, so dst may be src.
 */
#include "aes_p8_modes.h"
#include "aes_p8_vec.h"
#include "memzero.h"

void aes_p8_cbc_crypt(const uint8_t *rk, int rounds, uint8_t *dst, const uint8_t *src, size_t len,
		      uint8_t *iv, int enc)
{
	vu64 k[P8_MAX_ROUNDS + 1] = { 0 };
	vu64 chain = p8_load(iv);

	p8_load_schedule(k, rk, rounds);
	for (size_t off = 0; off + 16 <= len; off += 16) {
		vu64 in = p8_load(src + off);

		if (enc) {
			chain = p8_encrypt_block(k, rounds, in ^ chain);
			p8_store(dst + off, chain);
		} else {
			p8_store(dst + off, p8_decrypt_block(k, rounds, in) ^ chain);
			chain = in;
		}
	}
	p8_store(iv, chain);
	memzero_explicit(k, sizeof(k));
}
