/*
 * CTR with the POWER8 vector-crypto instructions (see aes_p8_modes.h): the
 * core of p8_aes_ctr (drivers/crypto/vmx/aes_ctr.c).  The counter block is
 * one big-endian 128-bit integer; in register order it is a quadword, so
 * each step is one vadduqm (vec_add on __int128 lanes), the add that
 * carries through all 128 bits (the kernel's core since 5.1).
 */
#include "aes_p8_modes.h"
#include "aes_p8_vec.h"
#include "memzero.h"

typedef vector unsigned __int128 vu128;

void aes_p8_ctr_blocks(const uint8_t *rk, int rounds, uint8_t *dst, const uint8_t *src, size_t nblocks,
		       const uint8_t *iv)
{
	vu64 k[P8_MAX_ROUNDS + 1] = { 0 };
	vu128 ctr = (vu128)p8_load(iv);
	const vu128 one = { 1 };

	p8_load_schedule(k, rk, rounds);
	for (size_t i = 0; i < nblocks; i++) {
		vu64 ks = p8_encrypt_block(k, rounds, (vu64)ctr);

		p8_store(dst + 16 * i, p8_load(src + 16 * i) ^ ks);
		ctr = vec_add(ctr, one);
	}
	memzero_explicit(k, sizeof(k));
}
