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
from build_common import extension, header_cdef, load_builder, main  # noqa: E402

POLY = load_builder("algs/build_poly1305.py")   # the Poly1305/NH types, shared

# poly1305_core_ops, nh_fn_t and struct nhpoly1305_key: from _poly1305 (included)
CDEF = header_cdef("algs/adiantum_core.h") + """
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
