"""cffi (API mode) builders for the x86 ChaCha cores.

Four extensions, one per instruction set, each compiled with its own -m
flags (so each may only be called when the CPU has that set; check with
crypto_api.arch.x86._cpufeatures.lib.cpu_has first):

* ``crypto_api.arch.x86._chacha_ssse3``    chacha_ssse3.c               -mssse3
* ``crypto_api.arch.x86._chacha_avx2``     chacha_ssse3.c chacha_avx2.c -mavx2
* ``crypto_api.arch.x86._chacha_avx512vl`` chacha_ssse3.c chacha_avx512vl.c
                                           -mavx512vl -mavx512bw
* ``crypto_api.arch.x86._chacha_avx512``   chacha_ssse3.c chacha_avx512vl.c
                                           chacha_avx512f.c
                                           -mavx512f -mavx512vl -mavx512bw
  (``chacha_dosimd_avx512``: the 16-block zmm code, beyond the v5.0 kernel)

Every extension exports ``hchacha_block_ssse3`` and ``crypto_memzero``; the
SSSE3 code inside the AVX2/AVX-512 extensions is built with those flags.
On a non-x86 machine the same cdef is built without -m flags against stub
bodies that abort (the glue never calls them there).

Run directly to build into a scratch directory:
``python3 arch/x86/build_chacha.py [outdir]`` (default /tmp/x86_build).
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

COMMON_CDEF = """
void hchacha_block_ssse3(const uint32_t state[16], uint32_t out[8], int nrounds);
void crypto_memzero(void *p, size_t n);
"""

DOSIMD_CDEF = """
void chacha_dosimd_%s(uint32_t state[16], uint8_t *dst, const uint8_t *src,
                      size_t bytes, int nrounds);
"""


def _src(name):
    return os.path.join(HERE, name)


def _make(isa, files, isa_flags):
    ffi = FFI()
    ffi.cdef(COMMON_CDEF + DOSIMD_CDEF % isa)
    ffi.set_source(
        "crypto_api.arch.x86._chacha_" + isa,
        '#include "chacha_x86.h"\n',
        sources=[_src(f) for f in files],
        include_dirs=INCLUDE_DIRS,
        extra_compile_args=BASE_FLAGS + (isa_flags if IS_X86 else []),
    )
    return ffi


ffi_ssse3 = _make("ssse3", ["chacha_ssse3.c"], ["-mssse3"])
ffi_avx2 = _make("avx2", ["chacha_ssse3.c", "chacha_avx2.c"], ["-mavx2"])
ffi_avx512vl = _make("avx512vl", ["chacha_ssse3.c", "chacha_avx512vl.c"],
                     ["-mavx2", "-mavx512f", "-mavx512vl", "-mavx512bw"])
ffi_avx512 = _make("avx512", ["chacha_ssse3.c", "chacha_avx512vl.c", "chacha_avx512f.c"],
                   ["-mavx2", "-mavx512f", "-mavx512vl", "-mavx512bw"])


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "/tmp/x86_build"
    for f in (ffi_ssse3, ffi_avx2, ffi_avx512vl, ffi_avx512):
        f.compile(tmpdir=out, verbose=False)
