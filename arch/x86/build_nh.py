"""cffi build script for the x86 NH cores (each function compiled for its
target, the wrapper baseline; see arch/x86/x86_common.h):

* ``crypto_api.arch.x86._nh_sse2``  nh_sse2.c
* ``crypto_api.arch.x86._nh_avx2``  nh_avx2.c

Both functions have the ``nh_fn_t`` signature of algs/include/nhpoly1305.h;
``ffi.addressof(lib, "nh_avx2")`` is a typed ``nh_fn_t`` that the generic
``nhpoly1305_update`` (algs/nhpoly1305.c, in ``crypto_api.algs._poly1305``,
whose types this extension includes) takes as it is.  On a non-x86 machine
the same cdef is built against stubs.  Paths, flags and ``__main__`` come
from algs/build_common.py.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "algs"))
from build_common import X86_DIRS, extension, load_builder, main  # noqa: E402

POLY = load_builder("algs/build_poly1305.py")   # the Poly1305/NH types, shared

CDEF = """
void nh_%(isa)s(const uint32_t *key, const uint8_t *message, size_t message_len,
             uint8_t hash[32]);
void crypto_memzero(void *p, size_t n);
"""

SOURCE = """
#include "x86_common.h"
#include "nhpoly1305.h"

void nh_%(isa)s(const uint32_t *key, const uint8_t *message, size_t message_len,
             uint8_t hash[NH_HASH_BYTES]);
"""


def _make(isa: str):
    return extension("crypto_api.arch.x86._nh_" + isa, CDEF % {"isa": isa}, POLY.TYPES_SOURCE + SOURCE % {"isa": isa},
                     ["arch/x86/nh_%s.c" % isa], include_dirs=X86_DIRS,
                     includes=[POLY.ffibuilder])


ffi_sse2 = _make("sse2")
ffi_avx2 = _make("avx2")

if __name__ == "__main__":
    main(ffi_sse2, ffi_avx2)
