/*
 * AES encryption on plain NEON, and XCTR over it: the role of
 * arch/arm64/crypto/aes-neon.S with the XCTR path of aes-modes.S (the
 * aes-neon-blk build of aes-glue.c, 6.0+: the xctr-aes-neon skcipher).
 * Built with -march=armv8-a (no crypto extension); needs HWCAP asimd.  The
 * round steps (TBL S-box, ShiftRows permutation, MixColumns) are
 * aes_neon_rounds.h's; the inverse cipher is aes_neon_modes.c's.
 */
#include <arm_neon.h>

#include "aes_neon_rounds.h"
#include "aes_neon_xctr.h"
#include "aes_sbox.h"
#include "xctr_loop.h"

#define AS_BYTE(s) (s),
static const uint8_t sbox[256] = { AES_SBOX_LIST(AS_BYTE) };

/* Byte i of the result is byte shift_rows_idx[i] of the state. */
static const uint8_t shift_rows_idx[16] = {0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11};

void aes_neon_encrypt(const uint32_t *rk, uint8_t *out, const uint8_t *in, unsigned int rounds)
{
	aes_neon_cipher(sbox, shift_rows_idx, 0, rk, out, in, rounds);
}

void aes_neon_xctr(const uint32_t *rk, uint8_t *dst, const uint8_t *src, size_t nbytes,
		   const uint8_t *iv, uint32_t byte_ctr, unsigned int rounds)
{
	xctr_loop(aes_neon_encrypt, rk, dst, src, nbytes, iv, byte_ctr, rounds);
}
