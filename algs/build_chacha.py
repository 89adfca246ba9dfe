"""cffi build script for ``crypto_api.algs._chacha_generic``: the portable
ChaCha core (algs/chacha_generic.c).  Paths, flags and ``python
algs/build_chacha.py [outdir]`` come from algs/build_common.py."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from build_common import extension, main  # noqa: E402

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

static void chacha_oneshot_bytes(const struct chacha_oneshot *c, char *dst, const char *src,
				 size_t bytes, const char *iv)
{
	chacha_crypt_oneshot(c, (uint8_t *)dst, (const uint8_t *)src, bytes, (const uint8_t *)iv);
}
"""

ffibuilder = extension("crypto_api.algs._chacha_generic", CDEF, SOURCE, ["algs/chacha_generic.c"])

if __name__ == "__main__":
    main(ffibuilder)
