/*
 * What the POWER8 AES cores share (aes_p8.c and the mode cores
 * aes_p8_cbc.c, aes_p8_ctr.c, aes_p8_xts.c): moving a 16-byte block between
 * memory order and the big-endian register order the vector-crypto
 * instructions work in, and one block through all rounds each way.
 *
 * A schedule is FIPS-197's expansion as (rounds + 1) 16-byte round keys in
 * block byte order (aes_p8_expandkey).  Decryption runs vncipher, which is
 * InvShiftRows, InvSubBytes, AddRoundKey, InvMixColumns, over the same round
 * keys in reverse, so one schedule serves both directions.
 */
#ifndef CRYPTO_API_PPC_AES_P8_VEC_H
#define CRYPTO_API_PPC_AES_P8_VEC_H

#include <altivec.h>
#include <stdint.h>

typedef vector unsigned char vu8;
typedef vector unsigned long long vu64;

#define P8_MAX_ROUNDS 14

/* little-endian lanes <-> the instructions' big-endian register order */
static inline vu64 p8_swap(vu64 v)
{
	return (vu64)vec_perm((vu8)v, (vu8)v,
			      (vu8){ 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0 });
}

static inline vu64 p8_load(const uint8_t *p)
{
	return p8_swap((vu64)vec_xl(0, (const unsigned char *)p));
}

static inline void p8_store(uint8_t *p, vu64 v)
{
	vec_xst((vu8)p8_swap(v), 0, (unsigned char *)p);
}

/* the round keys in registers, once per call rather than once per block */
static inline void p8_load_schedule(vu64 k[P8_MAX_ROUNDS + 1], const uint8_t *rk, int rounds)
{
	for (int r = 0; r <= rounds; r++)
		k[r] = p8_load(rk + 16 * r);
}

static inline vu64 p8_encrypt_block(const vu64 k[], int rounds, vu64 s)
{
	s ^= k[0];
	for (int r = 1; r < rounds; r++)
		s = __builtin_crypto_vcipher(s, k[r]);
	return __builtin_crypto_vcipherlast(s, k[rounds]);
}

static inline vu64 p8_decrypt_block(const vu64 k[], int rounds, vu64 s)
{
	s ^= k[rounds];
	for (int r = rounds - 1; r > 0; r--)
		s = __builtin_crypto_vncipher(s, k[r]);
	return __builtin_crypto_vncipherlast(s, k[0]);
}

#endif
