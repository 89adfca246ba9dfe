/*
 * The mode entry points of the arm (AArch32) AES Crypto Extensions core
 * (arch/arm/aes_ce_modes.c): the roles of arch/arm/crypto/aes-ce-core.S's
 * ce_aes_{ecb,cbc,ctr,xts,cbc_cts}_* routines, over the AESE/AESD block
 * routines and key expansion of arch/common/aes_ce.c built for AArch32
 * (the ACLE intrinsics arm64 builds too).  Needs HWCAP2 aes.
 *
 * rk: key_enc (encryption, CTR, the XTS tweak key) or key_dec (decryption)
 * of struct crypto_aes_ctx; rounds 10, 12 or 14; encrypt 1 or 0.
 */
#ifndef CRYPTO_API_ARM_AES_CE_MODES_H
#define CRYPTO_API_ARM_AES_CE_MODES_H

#include <stddef.h>
#include <stdint.h>

/* cdef: begin */
/* ECB over whole blocks. */
void arm_aes_ce_ecb(const uint32_t *rk, uint8_t *dst, const uint8_t *src, size_t blocks,
		    unsigned int rounds, int encrypt);
/* CBC over whole blocks; iv (in/out) ends as the last ciphertext block. */
void arm_aes_ce_cbc(const uint32_t *rk, uint8_t *dst, const uint8_t *src, size_t blocks,
		    uint8_t *iv, unsigned int rounds, int encrypt);
/* The last 17..32 bytes of cts(cbc(aes)) (CS3); iv is read only. */
void arm_aes_ce_cbc_cts(const uint32_t *key_enc, const uint32_t *key_dec, uint8_t *dst,
			const uint8_t *src, size_t nbytes, const uint8_t *iv, unsigned int rounds,
			int encrypt);
/* CTR over any length; ctr (in/out) ends as the counter after the last block. */
void arm_aes_ce_ctr(const uint32_t *key_enc, uint8_t *dst, const uint8_t *src, size_t nbytes,
		    uint8_t *ctr, unsigned int rounds);
/*
 * XTS over nbytes (ciphertext stealing where it is not a multiple of 16):
 * rk1 of the data key for the direction, rk2 the tweak key's key_enc; iv
 * (in/out) the sector IV where first is 1, else the running tweak, and ends
 * as the tweak after the last block.  flags: bit 0 encrypt, bit 1 first.
 */
void arm_aes_ce_xts(const uint32_t *rk1, const uint32_t *rk2, uint8_t *dst, const uint8_t *src,
		    size_t nbytes, uint8_t *iv, unsigned int rounds, unsigned int flags);
/* cdef: end */

#endif
