/*
 * POLYVAL with the ARMv8 PMULL instructions (arch/arm64/polyval_ce.c): the
 * role of the declarations of arch/arm64/crypto/polyval-ce-glue.c.
 */
#ifndef CRYPTO_API_ARM64_POLYVAL_CE_H
#define CRYPTO_API_ARM64_POLYVAL_CE_H

#include <stddef.h>
#include <stdint.h>

#include "polyval_generic.h"

/* The polyval_blocks_fn of algs/polyval_generic.h on PMULL (needs HWCAP pmull). */
void polyval_blocks_pmull(uint64_t *acc, const struct polyval_key *key, const uint8_t *data,
			  size_t nblocks);

/*
 * polyval_update / polyval_final (algs/polyval_generic.c) on a struct
 * polyval_state (state) with a struct polyval_key (key), over the PMULL
 * block function; the glue keeps both structs and checks their sizes.
 */
/* cdef: begin */
void polyval_ce_update(void *state, const void *key, const uint8_t *data, size_t len);
void polyval_ce_final(void *state, const void *key, uint8_t *out);
/* sizeof(struct polyval_state) and sizeof(struct polyval_key) as this build lays them out */
size_t polyval_ce_state_size(void);
size_t polyval_ce_key_size(void);
/* cdef: end */

#endif
