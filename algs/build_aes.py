"""cffi (API mode) build script for the portable AES core.

Builds ``crypto_api.algs._aes_generic`` from algs/aes_generic.c.  Run directly
it compiles into ``$CRYPTO_API_BUILD_DIR`` (default:
<tmpdir>/crypto_api_build), never into the source tree.
"""
import os
import tempfile

from cffi import FFI

# setuptools (setup.py's cffi_modules, run from the project root) refuses
# absolute source paths, so they are relative to the working directory there;
# ffi.compile() (running this file directly) works from inside its tmpdir and
# needs absolute ones.
_HERE_ABS = os.path.dirname(os.path.abspath(__file__))
HERE = _HERE_ABS if __name__ == "__main__" else os.path.relpath(_HERE_ABS)
INCLUDE = os.path.join(HERE, "include")

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
"""

SOURCE = """
#include "aes_generic.h"
#include "memzero.h"

typedef void (*aes_block_fn)(const void *ctx, uint8_t *out, const uint8_t *in);

static void aes_block_bytes(aes_block_fn fn, const void *ctx, char *out, const char *in)
{
	fn(ctx, (uint8_t *)out, (const uint8_t *)in);
}

static void crypto_memzero(void *p, size_t n)
{
	memzero_explicit(p, n);
}
"""

ffibuilder = FFI()
ffibuilder.cdef(CDEF)
ffibuilder.set_source(
    "crypto_api.algs._aes_generic",
    SOURCE,
    sources=[os.path.join(HERE, "aes_generic.c")],
    depends=[
        os.path.join(HERE, "aes_generic.h"),
        os.path.join(INCLUDE, "memzero.h"),
    ],
    include_dirs=[HERE, INCLUDE],
    extra_compile_args=["-O3"],
)

if __name__ == "__main__":
    ffibuilder.compile(
        tmpdir=os.environ.get(
            "CRYPTO_API_BUILD_DIR",
            os.path.join(tempfile.gettempdir(), "crypto_api_build"),
        ),
        verbose=True,
    )
