/*
 * GHASH with the 8-bit polynomial multiply of plain ASIMD (PMULL.8B,
 * vmull_p8): the role of arch/arm64/crypto/ghash-ce-core.S's
 * pmull_ghash_update_p8 behind the ghash-neon shash, for CPUs without the
 * 64-bit PMULL of the Crypto Extensions.  Built for plain ARMv8-A (no
 * +crypto); needs only HWCAP "asimd".
 */
#ifndef CRYPTO_API_ARM64_GHASH_NEON_H
#define CRYPTO_API_ARM64_GHASH_NEON_H

#include <stddef.h>
#include <stdint.h>

#include "ghash_generic.h"

/* A ghash_blocks_fn (algs/ghash_generic.h): acc = (acc ^ block) * H per block. */
void ghash_blocks_p8(uint8_t *acc, const struct ghash_key *key,
		     const uint8_t *data, size_t nblocks);

/* cdef: begin */
/* ghash_update / ghash_final (algs/ghash_generic.c) with the 8-bit PMULL
 * blocks; desc: a struct ghash_desc_ctx, key: a struct ghash_key. */
void ghash_neon_update(void *desc, const void *key, const uint8_t *src, size_t len);
void ghash_neon_final(void *desc, const void *key, uint8_t *out);
/* sizeof(struct ghash_desc_ctx) and sizeof(struct ghash_key) in this build,
 * as (desc << 8) | key (the glue checks them against the host's). */
size_t ghash_neon_layout(void);
/* cdef: end */

#endif
