"""cffi build script for ``crypto_api.algs._aria_generic``: the portable ARIA
core (algs/aria_generic.c).  Paths, flags and ``python algs/build_aria.py
[outdir]`` come from algs/build_common.py."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from build_common import extension, main  # noqa: E402

# The context and entry points as Python sees them (shared with the x86
# extension through ``includes``).
CDEF = """
#define ARIA_BLOCK_SIZE 16
#define ARIA_MAX_RD_KEYS 17

struct aria_ctx {
    uint32_t enc_key[17][4];
    uint32_t dec_key[17][4];
    int rounds;
    int key_length;
};

int aria_set_key(struct aria_ctx *ctx, const uint8_t *in_key, size_t key_len);
void aria_encrypt(const struct aria_ctx *ctx, uint8_t *out, const uint8_t *in);
void aria_decrypt(const struct aria_ctx *ctx, uint8_t *out, const uint8_t *in);
void aria_ecb_generic(const struct aria_ctx *ctx, uint8_t *out, const uint8_t *in,
                      size_t nblocks, int encrypt);
void aria_ctr_generic(const struct aria_ctx *ctx, uint8_t *out, const uint8_t *in,
                      size_t nbytes, uint8_t *iv);
void aria_ctr_add(uint8_t *iv, uint64_t n);
void crypto_memzero(void *p, size_t n);

/* One block for encrypt_one/decrypt_one with char pointers (bytes as they are). */
void aria_block_bytes(const struct aria_ctx *ctx, int encrypt, char *out, const char *in);
/* The same as the routines of the C entry point (crypto_api/digest_call.h):
 * ``handle`` is the struct aria_ctx; n is the block's 16. */
int aria_encrypt_call(const void *handle, char *out, const char *in, size_t n);
int aria_decrypt_call(const void *handle, char *out, const char *in, size_t n);
"""

SOURCE = """
#include "aria_generic.h"
#include "memzero.h"

static void aria_block_bytes(const struct aria_ctx *ctx, int encrypt, char *out, const char *in)
{
	(encrypt ? aria_encrypt : aria_decrypt)(ctx, (uint8_t *)out, (const uint8_t *)in);
}

static int aria_encrypt_call(const void *handle, char *out, const char *in, size_t n)
{
	(void)n;
	aria_encrypt(handle, (uint8_t *)out, (const uint8_t *)in);
	return 0;
}

static int aria_decrypt_call(const void *handle, char *out, const char *in, size_t n)
{
	(void)n;
	aria_decrypt(handle, (uint8_t *)out, (const uint8_t *)in);
	return 0;
}
"""

ffibuilder = extension("crypto_api.algs._aria_generic", CDEF, SOURCE, ["algs/aria_generic.c"])

if __name__ == "__main__":
    main(ffibuilder)
