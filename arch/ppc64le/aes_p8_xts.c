/*
 * XTS with the POWER8 vector-crypto instructions (see aes_p8_modes.h): the
 * core of p8_aes_xts (drivers/crypto/vmx/aes_xts.c), whole blocks only (the
 * glue sends a partial last block to its fallback).  The tweak is a
 * little-endian 128-bit element of GF(2^128); multiplying it by x is a left
 * shift with x^128 folded back as 0x87 (IEEE P1619).
 */
#include "aes_p8_modes.h"
#include "aes_p8_vec.h"
#include "byteorder.h"
#include "memzero.h"

static inline void xts_mul_x(uint8_t t[16])
{
	uint64_t lo = get_le64(t), hi = get_le64(t + 8);
	uint64_t carry = hi >> 63;

	put_le64(t + 8, (hi << 1) | (lo >> 63));
	put_le64(t, (lo << 1) ^ (carry * 0x87));
}

void aes_p8_xts_crypt(const uint8_t *rk, int rounds, uint8_t *dst, const uint8_t *src, size_t len,
		      uint8_t *tweak, int enc)
{
	vu64 k[P8_MAX_ROUNDS + 1] = { 0 };

	p8_load_schedule(k, rk, rounds);
	for (size_t off = 0; off + 16 <= len; off += 16) {
		vu64 t = p8_load(tweak);
		vu64 in = p8_load(src + off) ^ t;

		in = enc ? p8_encrypt_block(k, rounds, in) : p8_decrypt_block(k, rounds, in);
		p8_store(dst + off, in ^ t);
		xts_mul_x(tweak);
	}
	memzero_explicit(k, sizeof(k));
}
