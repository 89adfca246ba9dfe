/*
 * GHASH with the POWER8 vector polynomial multiply (vpmsumd): the role of
 * the kernel's ghashp8-ppc.pl (gcm_init_p8, gcm_ghash_p8) behind p8_ghash
 * (drivers/crypto/vmx/ghash.c).  Key and descriptor are the generic C's
 * structs (algs/ghash_generic.h), so a descriptor may move between this
 * block function and the generic one between calls, as the glue's
 * no-SIMD path needs.  Built -mcpu=power8; only run where HWCAP2 has
 * vcrypto.
 */
#ifndef CRYPTO_API_PPC_GHASH_P8_H
#define CRYPTO_API_PPC_GHASH_P8_H

#include <stddef.h>
#include <stdint.h>

#include "ghash_generic.h"

/* A ghash_blocks_fn (algs/ghash_generic.h): acc = (acc ^ block) * H per block. */
void ghash_blocks_p8(uint8_t *acc, const struct ghash_key *key, const uint8_t *data, size_t nblocks);

/* cdef: begin */
/* the hash key from the 16-byte H (the glue's setkey section); key: a struct ghash_key */
void ghash_p8_setkey(void *key, const uint8_t *raw);
/* ghash_update / ghash_final (algs/ghash_generic.c) over the vpmsumd blocks;
 * desc: a struct ghash_desc_ctx, key: a struct ghash_key. */
void ghash_p8_update(void *desc, const void *key, const uint8_t *src, size_t len);
void ghash_p8_final(void *desc, const void *key, uint8_t *out);
/* sizeof(struct ghash_desc_ctx) and sizeof(struct ghash_key) in this build,
 * as (desc << 8) | key (the glue checks them against the host's). */
size_t ghash_p8_layout(void);
/* cdef: end */

#endif
