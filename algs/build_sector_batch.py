"""cffi build script for ``crypto_api.algs._sector_batch``: many dm-crypt
sectors in one call (algs/sector_batch.c), each sector's IV made in C from
its number, the sector handed to the picked driver's C entry point through a
function pointer (crypto_api.algs.sector_batch fills the description); and
the disk journal's per-sector SHA-256 digests in one call (algs/sha256_generic.c
compiled in from the same source as the sha256 shash).  Paths,
flags and ``__main__`` come from algs/build_common.py."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from build_common import extension, main  # noqa: E402

CDEF = """
#define SECTOR_WIDE 0
#define SECTOR_XTS 1
#define SECTOR_CBC 2
#define SECTOR_IV_PLAIN 0
#define SECTOR_IV_PLAIN64 1
#define SECTOR_MAX_IV 32

typedef int (*sector_wide_fn)(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nbytes,
                              const uint8_t *iv, size_t iv_len, int enc);
typedef int (*sector_xts_fn)(const void *ctx, const void *tweak_ctx, uint8_t *dst,
                             const uint8_t *src, size_t nbytes, const uint8_t *iv, int dec);
typedef void (*sector_cbc_fn)(const void *ctx, uint8_t *dst, const uint8_t *src, size_t nblocks,
                              uint8_t *iv);
typedef void (*sector_block_fn)(const void *ctx, uint8_t *out, const uint8_t *in);

struct sector_batch {
    int kind;
    int ivmode;
    size_t ivsize;
    sector_wide_fn wide;
    sector_xts_fn xts;
    sector_cbc_fn cbc_encrypt;
    sector_cbc_fn cbc_decrypt;
    const void *ctx;
    const void *ctx2;
    sector_block_fn iv_encrypt;
    const void *iv_ctx;
};

int sector_batch_crypt(const struct sector_batch *b, uint8_t *dst, const uint8_t *src,
                       size_t sector_size, size_t count, uint64_t iv_first, uint64_t iv_step,
                       int enc);

/* the per-sector SHA-256 digests (algs/sha256_generic.c compiled in) */
void sha256_blocks_generic(uint32_t *state, const uint8_t *data, size_t nblocks);
int sector_sha256_digests(void (*blocks)(uint32_t *state, const uint8_t *data, size_t nblocks),
                          uint8_t *out, size_t digest_len, const uint8_t *src, size_t sector_size,
                          size_t count);
"""

SOURCE = """
#include "sector_batch.h"
#include "sha256_generic.h"
"""

ffibuilder = extension("crypto_api.algs._sector_batch", CDEF, SOURCE,
                       ["algs/sector_batch.c", "algs/sha256_generic.c"])

if __name__ == "__main__":
    main(ffibuilder)
