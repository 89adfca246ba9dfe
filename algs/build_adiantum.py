"""cffi build script for ``crypto_api.algs._adiantum``: Adiantum over one
contiguous buffer in a single call (algs/adiantum_core.c), reaching the inner
drivers through function pointers; the NHPoly1305 streaming code
(algs/nhpoly1305.c) is compiled in from the same source as the generic hash.
The Poly1305/NH types are those of ``crypto_api.algs._poly1305`` (included),
so its ``poly1305_core_ops *`` and key pointers are assigned as they are.
Paths, flags and ``__main__`` come from algs/build_common.py."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from build_common import extension, load_builder, main  # noqa: E402

POLY = load_builder("algs/build_poly1305.py")   # the Poly1305/NH types, shared

CDEF = """
/* poly1305_core_ops, nh_fn_t and struct nhpoly1305_key: from _poly1305 (included) */
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

ffibuilder = extension("crypto_api.algs._adiantum", CDEF, POLY.TYPES_SOURCE + SOURCE,
                       ["algs/adiantum_core.c", "algs/nhpoly1305.c"],
                       includes=[POLY.ffibuilder])

if __name__ == "__main__":
    main(ffibuilder)
