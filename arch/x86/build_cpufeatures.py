"""cffi (API mode) builder for the x86 CPU feature probe.

* ``crypto_api.arch.x86._cpufeatures``  cpufeatures.c

``lib.cpu_has(b"avx2")`` -> 1/0: the CPUID bit is set and, for AVX/AVX-512
class features, the OS saves the register state (XCR0 via XGETBV).
``lib.cpu_cpuid_has(name)`` gives the raw CPUID bit, ``lib.cpu_xcr0()`` the
XCR0 value, ``lib.cpu_feature_known(name)`` whether a name is recognised
(unknown names report 0 from cpu_has).  OS state names: ``xsave_ymm`` (alias
``os_ymm``) and ``xsave_zmm`` (alias ``os_zmm``).  See cpufeatures.h for
the full name list.  On a non-x86 machine every query returns 0.

Run directly to build into a scratch directory:
``python3 arch/x86/build_cpufeatures.py [outdir]`` (default /tmp/x86_build).
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
int cpu_has(const char *name);
int cpu_cpuid_has(const char *name);
int cpu_feature_known(const char *name);
uint64_t cpu_xcr0(void);
void crypto_memzero(void *p, size_t n);
"""

ffibuilder = FFI()
ffibuilder.cdef(CDEF)
ffibuilder.set_source(
    "crypto_api.arch.x86._cpufeatures",
    '#include "x86_common.h"\n#include "cpufeatures.h"\n',
    sources=[os.path.join(HERE, "cpufeatures.c")],
    include_dirs=INCLUDE_DIRS,
    extra_compile_args=BASE_FLAGS,
)


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "/tmp/x86_build"
    ffibuilder.compile(tmpdir=out, verbose=False)
