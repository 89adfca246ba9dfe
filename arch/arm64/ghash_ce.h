/*
 * GHASH with the ARMv8 64x64-bit polynomial multiply (PMULL/PMULL2 of the
 * Crypto Extensions): the role of arch/arm64/crypto/ghash-ce-core.S's
 * pmull_ghash_update_p64 behind the ghash-ce shash, and the hash half of the
 * gcm-aes-ce core (gcm_aes_ce.c).  Built -march=armv8-a+crypto; only run on
 * a CPU whose HWCAP has "pmull".
 */
#ifndef CRYPTO_API_ARM64_GHASH_CE_H
#define CRYPTO_API_ARM64_GHASH_CE_H

#include <stddef.h>
#include <stdint.h>

#include "ghash_generic.h"

/* A ghash_blocks_fn (algs/ghash_generic.h): acc = (acc ^ block) * H per block. */
void ghash_blocks_pmull(uint8_t *acc, const struct ghash_key *key,
			const uint8_t *data, size_t nblocks);

/* cdef: begin */
/* ghash_update / ghash_final (algs/ghash_generic.c) with the PMULL blocks;
 * desc: a struct ghash_desc_ctx, key: a struct ghash_key. */
void ghash_ce_update(void *desc, const void *key, const uint8_t *src, size_t len);
void ghash_ce_final(void *desc, const void *key, uint8_t *out);
/* sizeof(struct ghash_desc_ctx) and sizeof(struct ghash_key) in this build,
 * as (desc << 8) | key (the glue checks them against the host's). */
size_t ghash_ce_layout(void);
/* cdef: end */

#endif
