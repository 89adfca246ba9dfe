/*
 * The POWER8 AES mode cores behind p8_aes_cbc, p8_aes_ctr and p8_aes_xts
 * (the kernel's aes_p8_cbc_encrypt, aes_p8_ctr32_encrypt_blocks and
 * aes_p8_xts_encrypt/decrypt of aesp8-ppc.pl, here C with the vcipher /
 * vncipher builtins), each a core of its own: aes_p8_cbc.c, aes_p8_ctr.c,
 * aes_p8_xts.c.  rk/rounds: a schedule of aes_p8_expandkey (aes_p8.h); the
 * glue holds the VSX section around each call.
 */
#ifndef CRYPTO_API_PPC_AES_P8_MODES_H
#define CRYPTO_API_PPC_AES_P8_MODES_H

#include <stddef.h>
#include <stdint.h>

/* cdef: begin aes_p8_cbc */
/* CBC over len bytes (a multiple of 16); iv: the chaining value, left as the
 * last ciphertext block for the next call.  enc 0: decrypt. */
void aes_p8_cbc_crypt(const uint8_t *rk, int rounds, uint8_t *dst, const uint8_t *src, size_t len,
		      uint8_t *iv, int enc);
/* cdef: end */
/* cdef: begin aes_p8_ctr */
/* CTR over nblocks whole blocks from the big-endian 128-bit counter iv
 * (carried through all 128 bits); iv itself is not advanced (the glue does). */
void aes_p8_ctr_blocks(const uint8_t *rk, int rounds, uint8_t *dst, const uint8_t *src, size_t nblocks,
		       const uint8_t *iv);
/* cdef: end */
/* cdef: begin aes_p8_xts */
/* XTS over len bytes (a multiple of 16) from the tweak already encrypted
 * (E_K2(IV)), which is left advanced past the last block for the next call.
 * enc 0: decrypt (data rounds reversed, same schedule). */
void aes_p8_xts_crypt(const uint8_t *rk, int rounds, uint8_t *dst, const uint8_t *src, size_t len,
		      uint8_t *tweak, int enc);
/* cdef: end */

#endif
