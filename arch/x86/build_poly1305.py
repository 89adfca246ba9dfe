"""cffi build script for ``crypto_api.arch.x86._poly1305_x86_64``: the
64-bit-limb Poly1305 core (arch/x86/poly1305_x86_64.c).

Exports ``poly1305_x86_64_ops``, a ``poly1305_core_ops`` table of the type
declared by ``crypto_api.algs._poly1305`` (included here), so
``ffi.addressof(lib, "poly1305_x86_64_ops")`` is passed to the generic
descriptor and NHPoly1305 code of that extension as it is.  The four
operations are also exported as plain functions, plus the one-shot
``poly1305_x86_64_hash`` used by the tests.

Pure C (64x64->128 multiplies, adc through _addcarry_u64), no ISA code: it
runs on any x86_64 CPU; on a non-x86 machine the same cdef is built against
stubs.  Paths, flags and ``__main__`` come from algs/build_common.py.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "algs"))
from build_common import X86_DIRS, extension, load_builder, main  # noqa: E402

POLY = load_builder("algs/build_poly1305.py")   # the Poly1305/NH types, shared

CDEF = """
extern poly1305_core_ops poly1305_x86_64_ops;   /* const in C: read-only */

void poly1305_x86_64_setkey(poly1305_core_key *key, const uint8_t raw_r[16]);
void poly1305_x86_64_init(poly1305_core_state *state);
void poly1305_x86_64_blocks(poly1305_core_state *state, const poly1305_core_key *key,
                            const uint8_t *src, size_t nblocks, uint32_t hibit);
void poly1305_x86_64_emit(const poly1305_core_state *state, uint8_t out[16]);
void poly1305_x86_64_hash(const uint8_t raw_r[16], const uint8_t *src,
                          size_t nblocks, uint32_t hibit, uint8_t out[16]);

void crypto_memzero(void *p, size_t n);
"""

# cffi treats a "const" struct in the cdef as a value constant, which has no
# address; so the cdef names it as a variable and this wrapper translation
# unit sees it through a cast (the object itself stays const, in read-only
# memory: never assign its fields from Python).
SOURCE = """
#include "x86_common.h"
#include "poly1305_x86_64.h"
#define poly1305_x86_64_ops (*(poly1305_core_ops *)&poly1305_x86_64_ops)
"""

ffibuilder = extension("crypto_api.arch.x86._poly1305_x86_64", CDEF, POLY.TYPES_SOURCE + SOURCE,
                       ["arch/x86/poly1305_x86_64.c"], include_dirs=X86_DIRS,
                       includes=[POLY.ffibuilder])

if __name__ == "__main__":
    main(ffibuilder)
