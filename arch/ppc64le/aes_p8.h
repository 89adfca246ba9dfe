/*
 * The POWER8 AES core (aes_p8.c): key expansion and one block each way.
 */
#ifndef CRYPTO_API_PPC_AES_P8_H
#define CRYPTO_API_PPC_AES_P8_H

#include <stdint.h>

/* cdef: begin */
/* rk: (rounds + 1) * 16 bytes; returns the number of rounds, or 0 for a bad key length */
int aes_p8_expandkey(const uint8_t *key, unsigned int key_len, uint8_t *rk);
void aes_p8_encrypt(const uint8_t *rk, int rounds, uint8_t *dst, const uint8_t *src);
void aes_p8_decrypt(const uint8_t *rk, int rounds, uint8_t *dst, const uint8_t *src);
/* cdef: end */

#endif
