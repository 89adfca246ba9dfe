/*
 * AES modes with the ARMv8 Crypto Extensions in AArch32: the role of
 * arch/arm/crypto/aes-ce-core.S's mode routines (the aes-arm-ce module).
 * The loops are arch/common/aes_modes.h's, over the one-block AESE/AESD
 * routines of arch/common/aes_ce.c (arm64's aes-ce builds them too), here
 * for AArch32 (-mfpu=crypto-neon-fp-armv8).  Only run on a CPU whose HWCAP2 has "aes".
 */
#include "aes_arm64.h"
#include "aes_ce_modes.h"
#include "aes_modes.h"

void arm_aes_ce_ecb(const uint32_t *rk, uint8_t *dst, const uint8_t *src, size_t blocks,
		    unsigned int rounds, int encrypt)
{
	aes_ecb_loop(encrypt ? aes_ce_encrypt : aes_ce_decrypt, rk, dst, src, blocks, rounds);
}

void arm_aes_ce_cbc(const uint32_t *rk, uint8_t *dst, const uint8_t *src, size_t blocks,
		    uint8_t *iv, unsigned int rounds, int encrypt)
{
	aes_cbc_loop(encrypt ? aes_ce_encrypt : aes_ce_decrypt, rk, dst, src, blocks, iv, rounds, encrypt);
}

void arm_aes_ce_cbc_cts(const uint32_t *key_enc, const uint32_t *key_dec, uint8_t *dst,
			const uint8_t *src, size_t nbytes, const uint8_t *iv, unsigned int rounds,
			int encrypt)
{
	aes_cbc_cts_loop(aes_ce_encrypt, aes_ce_decrypt, key_enc, key_dec, dst, src, nbytes, iv, rounds,
			 encrypt);
}

void arm_aes_ce_ctr(const uint32_t *key_enc, uint8_t *dst, const uint8_t *src, size_t nbytes,
		    uint8_t *ctr, unsigned int rounds)
{
	aes_ctr_loop(aes_ce_encrypt, key_enc, dst, src, nbytes, ctr, rounds);
}

void arm_aes_ce_xts(const uint32_t *rk1, const uint32_t *rk2, uint8_t *dst, const uint8_t *src,
		    size_t nbytes, uint8_t *iv, unsigned int rounds, unsigned int flags)
{
	int encrypt = flags & 1;

	if (nbytes < AES_MODES_BLOCK)
		return;
	aes_xts_loop(aes_ce_encrypt, encrypt ? aes_ce_encrypt : aes_ce_decrypt, rk1, rk2, dst, src, nbytes,
		     iv, rounds, encrypt, (flags >> 1) & 1);
}
