/*
 * Block-cipher mode loops (the work of crypto/ecb.c, cbc.c, ctr.c, xctr.c and xts.c)
 * over any cipher's one-block function: the cipher is passed as a function
 * pointer and its context, as aes-generic and aes-aesni publish them
 * (crypto_api.cinterface, ``c_block``).  16-byte blocks only.
 */
#ifndef CRYPTO_API_MODES_CORE_H
#define CRYPTO_API_MODES_CORE_H

#include <stddef.h>
#include <stdint.h>

typedef void (*aes_block_fn)(const void *ctx, uint8_t *out, const uint8_t *in);

/* cdef: begin */
/* nblocks independent blocks; out may equal in. */
void modes_ecb(aes_block_fn fn, const void *ctx, uint8_t *out, const uint8_t *in, size_t nblocks);
/* CBC over nblocks; iv (16 bytes) is replaced by the last ciphertext block. */
void modes_cbc_encrypt(aes_block_fn enc, const void *ctx, uint8_t *out, const uint8_t *in,
		       size_t nblocks, uint8_t *iv);
void modes_cbc_decrypt(aes_block_fn dec, const void *ctx, uint8_t *out, const uint8_t *in,
		       size_t nblocks, uint8_t *iv);
/* CTR over nbytes; ctr (16 bytes, big endian) advanced by ceil(nbytes/16). */
void modes_ctr(aes_block_fn enc, const void *ctx, uint8_t *out, const uint8_t *in,
	       size_t nbytes, uint8_t *ctr);
/* XCTR (the HCTR2 paper; crypto/xctr.c) over nbytes: block i of the
 * keystream is E(iv ^ le32(ctr + i)) in its first 4 bytes, ctr the number
 * of the first block (1 at the start of a request); iv is left unchanged. */
void modes_xctr(aes_block_fn enc, const void *ctx, uint8_t *out, const uint8_t *in,
		size_t nbytes, const uint8_t *iv, uint32_t ctr);
/* An xctr(<cipher>) instance's XCTR entry (crypto_api.cinterface, XCTR):
 * modes_xctr from block 1 with the cipher in a struct modes_xctr_key. */
struct modes_xctr_key {
	aes_block_fn enc;
	const void *ctx;
};
void modes_xctr_entry(const void *key, uint8_t *out, const uint8_t *in, size_t nbytes,
		      const uint8_t *iv);
/* T = E_tweak(iv): the first XTS tweak. */
void modes_xts_first_tweak(aes_block_fn tenc, const void *tctx, uint8_t *t, const uint8_t *iv);
/* XTS over whole blocks with the running tweak t (advanced past them). */
void modes_xts_blocks(aes_block_fn fn, const void *ctx, uint8_t *out, const uint8_t *in,
		      size_t nblocks, uint8_t *t);
/* XTS over the last 16 + r bytes (0 < r < 16) with ciphertext stealing; t is
 * the tweak of the first of them. */
void modes_xts_tail(aes_block_fn fn, const void *ctx, uint8_t *out, const uint8_t *in,
		    size_t r, uint8_t *t, int enc);
/* The tweaks of nblocks from t on XOR-ed into buf (t advanced): the
 * template's pass over the data around a child that is not a C cipher. */
/* The whole of XTS over nbytes >= 16 (tweak from iv, blocks, stealing). */
void modes_xts_crypt(aes_block_fn fn, const void *ctx, aes_block_fn tenc, const void *tctx,
                     const uint8_t *iv, uint8_t *out, const uint8_t *in, size_t nbytes, int enc);
void modes_xts_xor(uint8_t *buf, size_t nblocks, uint8_t *t);
/* cdef: end */
void modes_gf128mul_x_ble(uint8_t *t);

#endif
