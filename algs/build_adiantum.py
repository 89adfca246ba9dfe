"""cffi build script for crypto_api.algs._adiantum: Adiantum over one
contiguous buffer in a single call (adiantum_core.c), reaching the inner
drivers through function pointers; the NHPoly1305 streaming code
(nhpoly1305.c) is compiled in from the same source as the generic hash."""

import os

from cffi import FFI

# setuptools (setup.py's cffi_modules, run from the project root) refuses
# absolute source paths, so they are relative to the working directory there;
# ffi.compile() (running this file directly) works from inside its tmpdir and
# needs absolute ones.
_HERE_ABS = os.path.dirname(os.path.abspath(__file__))
HERE = _HERE_ABS if __name__ == "__main__" else os.path.relpath(_HERE_ABS)
INCLUDE = os.path.join(HERE, "include")

CDEF = """
typedef struct { uint64_t w[6]; } poly1305_core_key;
typedef struct { uint64_t w[3]; } poly1305_core_state;
typedef struct poly1305_core_ops poly1305_core_ops;
struct nhpoly1305_key;
typedef void (*nh_fn_t)(const uint32_t *key, const uint8_t *message,
                        size_t message_len, uint8_t hash[32]);
typedef void (*adiantum_stream_fn)(uint32_t *state, uint8_t *dst, const uint8_t *src,
                                   size_t bytes, int nrounds);
typedef void (*adiantum_hchacha_fn)(const uint32_t *state, uint32_t *out, int nrounds);
typedef void (*adiantum_block_fn)(const void *ctx, uint8_t *out, const uint8_t *in);

struct adiantum_fast {
    adiantum_stream_fn stream_crypt;
    adiantum_stream_fn stream_small;
    adiantum_hchacha_fn hchacha;
    adiantum_hchacha_fn hchacha_small;
    int nrounds;
    const uint8_t *stream_key;
    adiantum_block_fn block_encrypt;
    adiantum_block_fn block_decrypt;
    const void *block_ctx;
    nh_fn_t nh_bulk;
    nh_fn_t nh_small;
    const poly1305_core_ops *hash_poly;
    const struct nhpoly1305_key *hash_key;
    const uint8_t *header_r;
};

int adiantum_crypt(const struct adiantum_fast *f, uint8_t *dst, const uint8_t *src,
                   size_t nbytes, const uint8_t *tweak, size_t tweak_len, int enc);
/* adiantum_crypt with char pointers and the kernel's 32-byte tweak, so that
 * cffi takes bytes as they are (the tfm.encrypt fast path) */
int adiantum_encrypt_bytes(const struct adiantum_fast *f, char *dst, const char *src,
                           size_t nbytes, const char *tweak);
int adiantum_decrypt_bytes(const struct adiantum_fast *f, char *dst, const char *src,
                           size_t nbytes, const char *tweak);
"""

SOURCE = """
#include "adiantum_core.h"

static int adiantum_encrypt_bytes(const struct adiantum_fast *f, char *dst, const char *src,
				  size_t nbytes, const char *tweak)
{
	return adiantum_crypt(f, (uint8_t *)dst, (const uint8_t *)src, nbytes,
			      (const uint8_t *)tweak, 32, 1);
}

static int adiantum_decrypt_bytes(const struct adiantum_fast *f, char *dst, const char *src,
				  size_t nbytes, const char *tweak)
{
	return adiantum_crypt(f, (uint8_t *)dst, (const uint8_t *)src, nbytes,
			      (const uint8_t *)tweak, 32, 0);
}
"""

ffibuilder = FFI()
ffibuilder.cdef(CDEF)
ffibuilder.set_source(
    "crypto_api.algs._adiantum",
    SOURCE,
    sources=[os.path.join(HERE, "adiantum_core.c"), os.path.join(HERE, "nhpoly1305.c")],
    depends=[os.path.join(HERE, "adiantum_core.h"), os.path.join(INCLUDE, "nhpoly1305.h"),
             os.path.join(INCLUDE, "poly1305_core.h"), os.path.join(INCLUDE, "memzero.h")],
    include_dirs=[HERE, INCLUDE],
    extra_compile_args=["-O3"],
)

if __name__ == "__main__":
    ffibuilder.compile(tmpdir=os.environ.get("CRYPTO_API_BUILD_DIR", "/tmp/crypto_api_build"), verbose=True)
