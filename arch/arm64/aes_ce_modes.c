/*
 * The block modes of the aes-ce-blk build of arch/arm64/crypto/aes-glue.c
 * (aes-modes.S with aes-ce.S): arch/common/aes_modes.h's loops, through
 * aes_blk_entries.h, over the AES-CE one-block routines of aes_ce.c.
 * Built with -march=armv8-a+crypto; only run on a CPU whose HWCAP has "aes".
 */
#include "aes_arm64.h"
#include "aes_blk_entries.h"
#include "aes_ce_modes.h"

AES_BLK_ENTRIES(aes_ce, aes_ce_encrypt, aes_ce_decrypt)
