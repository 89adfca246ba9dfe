/*
 * XCTR (HCTR2's counter mode) on the AES-CE block routine: the role of the
 * XCTR path of arch/arm64/crypto/aes-modes.S built with aes-ce.S (6.0+,
 * the xctr-aes-ce skcipher).  Built with -march=armv8-a+crypto; only run on
 * a CPU whose HWCAP has "aes".  The loop is xctr_loop.h's, over
 * aes_ce_encrypt (aes_ce.c).
 */
#include "aes_arm64.h"
#include "aes_ce_xctr.h"
#include "xctr_loop.h"

void aes_ce_xctr(const uint32_t *rk, uint8_t *dst, const uint8_t *src, size_t nbytes,
		 const uint8_t *iv, uint32_t byte_ctr, unsigned int rounds)
{
	xctr_loop(aes_ce_encrypt, rk, dst, src, nbytes, iv, byte_ctr, rounds);
}
