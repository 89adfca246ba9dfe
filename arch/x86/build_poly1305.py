"""cffi (API mode) builder for the 64-bit-limb Poly1305 core.

* ``crypto_api.arch.x86._poly1305_x86_64``  poly1305_x86_64.c

Exports ``poly1305_x86_64_ops`` (a ``poly1305_core_ops`` table, see
algs/include/poly1305_core.h) for the generic descriptor code of another
extension.  Take its address with ``lib.poly1305_x86_64_ops_address()`` (an
integer; the consumer does ``other_ffi.cast("const poly1305_core_ops *",
addr)``) or, within this ffi, ``ffi.addressof(lib, "poly1305_x86_64_ops")``.
The four operations are also exported as plain functions, plus the one-shot
``poly1305_x86_64_hash`` used by the tests.

Pure C (64x64->128 multiplies, adc through _addcarry_u64), no ISA flags:
it runs on any x86_64 CPU; on a non-x86 machine the same cdef is built
against stubs.  Run directly to build into a scratch directory:
``python3 arch/x86/build_poly1305.py [outdir]`` (default /tmp/x86_build).
"""

import os
import sys

from cffi import FFI

# setuptools (setup.py's cffi_modules, run from the project root) refuses
# absolute source paths, so they are relative to the working directory there;
# ffi.compile() (running this file directly) works from inside its tmpdir and
# needs absolute ones.
_HERE_ABS = os.path.dirname(os.path.abspath(__file__))
HERE = _HERE_ABS if __name__ == "__main__" else os.path.relpath(_HERE_ABS)
ROOT = os.path.dirname(os.path.dirname(HERE))
INCLUDE_DIRS = [HERE, os.path.join(ROOT, "algs", "include")]
BASE_FLAGS = ["-O3"]

CDEF = """
typedef struct { uint64_t w[6]; } poly1305_core_key;
typedef struct { uint64_t w[3]; } poly1305_core_state;

typedef struct poly1305_core_ops {
    const char *name;
    void (*setkey)(poly1305_core_key *key, const uint8_t raw_r[16]);
    void (*init)(poly1305_core_state *state);
    void (*blocks)(poly1305_core_state *state, const poly1305_core_key *key,
                   const uint8_t *src, size_t nblocks, uint32_t hibit);
    void (*emit)(const poly1305_core_state *state, uint8_t out[16]);
} poly1305_core_ops;

extern poly1305_core_ops poly1305_x86_64_ops;   /* const in C: read-only */
uintptr_t poly1305_x86_64_ops_address(void);

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

ffibuilder = FFI()
ffibuilder.cdef(CDEF)
ffibuilder.set_source(
    "crypto_api.arch.x86._poly1305_x86_64",
    SOURCE,
    sources=[os.path.join(HERE, "poly1305_x86_64.c")],
    include_dirs=INCLUDE_DIRS,
    extra_compile_args=BASE_FLAGS,
)


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "/tmp/x86_build"
    ffibuilder.compile(tmpdir=out, verbose=False)
