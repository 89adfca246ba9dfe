/*
 * AES decryption on plain NEON, and the block modes of the aes-neon-blk
 * build of arch/arm64/crypto/aes-glue.c over it (the roles of
 * aes-neon.S's inverse cipher and aes-modes.S).  Built with -march=armv8-a;
 * needs HWCAP asimd.  Encryption is aes_neon_encrypt (aes_neon_xctr.c);
 * the mode loops are arch/common/aes_modes.h's (through aes_blk_entries.h),
 * the same the AES-CE core and arm's aes-ce run.
 *
 * Decryption is the equivalent inverse cipher on key_dec (the generic
 * schedule's, InvMixColumns already applied to the middle round keys):
 * InvSubBytes (the inverse S-box through TBL/TBX), InvShiftRows,
 * InvMixColumns, AddRoundKey: aes_neon_rounds.h's round loop.
 */
#include <arm_neon.h>

#include "aes_blk_entries.h"
#include "aes_neon_modes.h"
#include "aes_neon_rounds.h"
#include "aes_neon_xctr.h"
#include "aes_sbox.h"

#define AS_BYTE(s) (s),
static const uint8_t inv_sbox[256] = { AES_INV_SBOX_LIST(AS_BYTE) };

/* Byte i of the result is byte inv_shift_rows_idx[i] of the state. */
static const uint8_t inv_shift_rows_idx[16] = {0, 13, 10, 7, 4, 1, 14, 11, 8, 5, 2, 15, 12, 9, 6, 3};

void aes_neon_decrypt(const uint32_t *rk, uint8_t *out, const uint8_t *in, unsigned int rounds)
{
	aes_neon_cipher(inv_sbox, inv_shift_rows_idx, 1, rk, out, in, rounds);
}

AES_BLK_ENTRIES(aes_neon, aes_neon_encrypt, aes_neon_decrypt)
