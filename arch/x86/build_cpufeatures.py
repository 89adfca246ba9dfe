"""cffi (API mode) builder for the x86 CPU feature probe.

* ``crypto_api.arch.x86._cpufeatures``  cpufeatures.c

``lib.cpu_has(b"avx2")`` -> 1/0: the CPUID bit is set and, for AVX/AVX-512
class features, the OS saves the register state (XCR0 via XGETBV).
``lib.cpu_cpuid_has(name)`` gives the raw CPUID bit, ``lib.cpu_xcr0()`` the
XCR0 value, ``lib.cpu_feature_known(name)`` whether a name is recognised
(unknown names report 0 from cpu_has).  OS state names: ``xsave_ymm`` (alias
``os_ymm``) and ``xsave_zmm`` (alias ``os_zmm``).  See cpufeatures.h for
the full name list.  On a non-x86 machine every query returns 0.

Paths, flags and ``__main__`` come from algs/build_common.py.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "algs"))
from build_common import X86_DIRS, extension, main  # noqa: E402

CDEF = """
int cpu_has(const char *name);
int cpu_cpuid_has(const char *name);
int cpu_feature_known(const char *name);
uint64_t cpu_xcr0(void);
void crypto_memzero(void *p, size_t n);
"""

ffibuilder = extension("crypto_api.arch.x86._cpufeatures", CDEF,
                       '#include "x86_common.h"\n#include "cpufeatures.h"\n',
                       ["arch/x86/cpufeatures.c"], include_dirs=X86_DIRS)

if __name__ == "__main__":
    main(ffibuilder)
