"""cffi (API mode) builders for the x86 NH cores.

* ``crypto_api.arch.x86._nh_sse2``  nh_sse2.c  -msse2
* ``crypto_api.arch.x86._nh_avx2``  nh_avx2.c  -mavx2

Both functions have the ``nh_fn_t`` signature of algs/include/nhpoly1305.h
and are meant to be handed to the generic ``nhpoly1305_update`` (algs/
nhpoly1305.c) of another extension.  Two ways to get the pointer:

* ``lib.nh_avx2_address()`` returns it as an integer (uintptr_t); the other
  extension turns it back with ``other_ffi.cast("nh_fn_t", addr)``;
* ``ffi.addressof(lib, "nh_avx2")`` gives a cdata function pointer of this
  ffi (cast it to ``uintptr_t`` to move it between ffi instances).

On a non-x86 machine the same cdef is built without -m flags against stubs.
Run directly to build into a scratch directory:
``python3 arch/x86/build_nh.py [outdir]`` (default /tmp/x86_build).
"""

import os
import platform
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
IS_X86 = platform.machine().lower() in (
    "x86_64", "amd64", "i386", "i486", "i586", "i686", "x86")
BASE_FLAGS = ["-O3"]

CDEF = """
void nh_%(isa)s(const uint32_t *key, const uint8_t *message, size_t message_len,
             uint8_t hash[32]);
uintptr_t nh_%(isa)s_address(void);
void crypto_memzero(void *p, size_t n);
"""

SOURCE = """
#include "x86_common.h"
#include "nhpoly1305.h"

void nh_%(isa)s(const uint32_t *key, const uint8_t *message, size_t message_len,
             uint8_t hash[NH_HASH_BYTES]);

static uintptr_t nh_%(isa)s_address(void)
{
    return (uintptr_t)(nh_fn_t)nh_%(isa)s;
}
"""


def _make(isa, isa_flags):
    ffi = FFI()
    ffi.cdef(CDEF % {"isa": isa})
    ffi.set_source(
        "crypto_api.arch.x86._nh_" + isa,
        SOURCE % {"isa": isa},
        sources=[os.path.join(HERE, "nh_%s.c" % isa)],
        include_dirs=INCLUDE_DIRS,
        extra_compile_args=BASE_FLAGS + (isa_flags if IS_X86 else []),
    )
    return ffi


ffi_sse2 = _make("sse2", ["-msse2"])
ffi_avx2 = _make("avx2", ["-mavx2"])


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "/tmp/x86_build"
    for f in (ffi_sse2, ffi_avx2):
        f.compile(tmpdir=out, verbose=False)
