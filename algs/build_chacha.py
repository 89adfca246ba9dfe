"""cffi build script for ``crypto_api.algs._chacha_generic``: the portable
ChaCha core (algs/chacha_generic.c).  Paths, flags and ``python
algs/build_chacha.py [outdir]`` come from algs/build_common.py."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from build_common import extension, header_cdef, main  # noqa: E402

CDEF = header_cdef("algs/chacha_generic.h") + """
void crypto_memzero(void *p, size_t n);

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
