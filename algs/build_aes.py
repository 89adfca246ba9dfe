"""cffi build script for ``crypto_api.algs._aes_generic``: the portable AES
core (algs/aes_generic.c).  Paths, flags and ``python algs/build_aes.py
[outdir]`` come from algs/build_common.py."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from build_common import extension, main  # noqa: E402

CDEF = """
#define AES_BLOCK_SIZE 16
#define AES_MIN_KEY_SIZE 16
#define AES_MAX_KEY_SIZE 32
#define AES_KEYSIZE_128 16
#define AES_KEYSIZE_192 24
#define AES_KEYSIZE_256 32

struct crypto_aes_ctx {
    uint32_t key_enc[60];
    uint32_t key_dec[60];
    uint32_t key_length;
};

int aes_expandkey_generic(struct crypto_aes_ctx *ctx, const uint8_t *in_key, size_t key_len);
void aes_encrypt_generic(const struct crypto_aes_ctx *ctx, uint8_t *out, const uint8_t *in);
void aes_decrypt_generic(const struct crypto_aes_ctx *ctx, uint8_t *out, const uint8_t *in);
void aes_ecb_encrypt_generic(const struct crypto_aes_ctx *ctx, uint8_t *out,
                             const uint8_t *in, size_t nblocks);
void aes_ecb_decrypt_generic(const struct crypto_aes_ctx *ctx, uint8_t *out,
                             const uint8_t *in, size_t nblocks);

void crypto_memzero(void *p, size_t n);

/* One block through any AES core's block function (generic or AES-NI, whose
 * contexts differ), with char pointers so that cffi takes bytes as they are
 * (the encrypt_one fast path). */
typedef void (*aes_block_fn)(const void *ctx, uint8_t *out, const uint8_t *in);
void aes_block_bytes(aes_block_fn fn, const void *ctx, char *out, const char *in);

/* The same as the routine of the C entry point (crypto_api/digest_call.h):
 * ``handle`` names the block function and its context; n is the block's 16. */
struct aes_block_call {
    aes_block_fn fn;
    const void *ctx;
};
int aes_block_call(const void *handle, char *out, const char *in, size_t n);
"""

SOURCE = """
#include "aes_generic.h"
#include "memzero.h"

static void aes_block_bytes(aes_block_fn fn, const void *ctx, char *out, const char *in)
{
	fn(ctx, (uint8_t *)out, (const uint8_t *)in);
}

static int aes_block_call(const void *handle, char *out, const char *in, size_t n)
{
	const struct aes_block_call *c = handle;

	(void)n;
	c->fn(c->ctx, (uint8_t *)out, (const uint8_t *)in);
	return 0;
}
"""

ffibuilder = extension("crypto_api.algs._aes_generic", CDEF, SOURCE, ["algs/aes_generic.c"])

if __name__ == "__main__":
    main(ffibuilder)
