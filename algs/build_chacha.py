"""cffi (API mode) build script for the portable ChaCha core.

Builds ``crypto_api.algs._chacha_generic`` from algs/chacha_generic.c.
Run directly (``python3 algs/build_chacha.py``) it compiles into
``$CRYPTO_API_BUILD_DIR`` (default: <tmpdir>/crypto_api_build), never into the
source tree; setuptools picks up ``ffibuilder`` through ``cffi_modules``.
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
#define CHACHA_BLOCK_SIZE 64
#define CHACHA_KEY_SIZE 32
#define CHACHA_IV_SIZE 16
#define XCHACHA_IV_SIZE 32
#define CHACHA_STATE_WORDS 16
#define HCHACHA_OUT_WORDS 8

void chacha_init_state(uint32_t state[16], const uint32_t key[8], const uint8_t iv[16]);
void chacha_setup(uint32_t state[16], const uint8_t key[32], const uint8_t iv[16]);
void chacha_crypt_generic(uint32_t state[16], uint8_t *dst, const uint8_t *src,
                          size_t bytes, int nrounds);
void hchacha_block_generic(const uint32_t state[16], uint32_t out[8], int nrounds);
void xchacha_setup(uint32_t state[16], const uint8_t key[32], const uint8_t iv[32],
                   int nrounds);

void crypto_memzero(void *p, size_t n);

typedef void (*chacha_stream_fn)(uint32_t *state, uint8_t *dst, const uint8_t *src,
                                 size_t bytes, int nrounds);
typedef void (*chacha_hchacha_fn)(const uint32_t *state, uint32_t *out, int nrounds);
struct chacha_oneshot {
    chacha_stream_fn crypt;
    chacha_hchacha_fn hchacha;
    const uint8_t *key;
    int nrounds;
};
/* chacha_crypt_oneshot with char pointers, so that cffi takes bytes as they are */
void chacha_oneshot_bytes(const struct chacha_oneshot *c, char *dst, const char *src,
                          size_t bytes, const char *iv);
"""

SOURCE = """
#include "chacha_generic.h"
#include "memzero.h"

static void crypto_memzero(void *p, size_t n)
{
	memzero_explicit(p, n);
}

static void chacha_oneshot_bytes(const struct chacha_oneshot *c, char *dst, const char *src,
				 size_t bytes, const char *iv)
{
	chacha_crypt_oneshot(c, (uint8_t *)dst, (const uint8_t *)src, bytes, (const uint8_t *)iv);
}
"""

ffibuilder = FFI()
ffibuilder.cdef(CDEF)
ffibuilder.set_source(
    "crypto_api.algs._chacha_generic",
    SOURCE,
    sources=[os.path.join(HERE, "chacha_generic.c")],
    depends=[
        os.path.join(HERE, "chacha_generic.h"),
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
