"""cffi build script for the x86 ChaCha cores: one extension per instruction
set, each function of the SIMD files compiled for its own target (see
arch/x86/x86_common.h), the wrapper code baseline x86-64, so each
``chacha_dosimd_<isa>`` may only be called when the CPU has that set (check
with crypto_api.arch.x86._cpufeatures.lib.cpu_has first):

* ``crypto_api.arch.x86._chacha_ssse3``    chacha_ssse3.c
* ``crypto_api.arch.x86._chacha_avx2``     chacha_ssse3.c chacha_avx2.c
  (also ``hchacha_lanes_avx2`` and ``chacha_lanes_xor_avx2``: eight
  independent streams at once, one per lane)
* ``crypto_api.arch.x86._chacha_avx512vl`` chacha_ssse3.c chacha_avx512vl.c
* ``crypto_api.arch.x86._chacha_avx512``   chacha_ssse3.c chacha_avx512vl.c chacha_avx512f.c
  (``chacha_dosimd_avx512``: the 16-block zmm code, beyond the v5.0 kernel)

Every extension exports ``hchacha_block_ssse3`` and ``crypto_memzero``; the
entries wipe the stack their worker used, and the worker ``chacha_<isa>_blocks``
(no wipe) is for the C glue loop, which wipes once per request.  On a
non-x86 machine the same cdef is built against stub bodies that abort (the
glue never calls them there).  Paths, flags and ``__main__`` come from
algs/build_common.py.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "algs"))
from build_common import X86_DIRS, extension, main  # noqa: E402

CDEF = """
void hchacha_block_ssse3(const uint32_t state[16], uint32_t out[8], int nrounds);
void crypto_memzero(void *p, size_t n);
void chacha_dosimd_%(isa)s(uint32_t state[16], uint8_t *dst, const uint8_t *src,
                      size_t bytes, int nrounds);
/* the same without the stack wipe, for the glue loop, which wipes once */
void chacha_%(isa)s_blocks(uint32_t state[16], uint8_t *dst, const uint8_t *src,
                         size_t bytes, int nrounds);
"""


#: The AVX2 extension also runs eight independent streams at once (for
#: Adiantum over many sectors: crypto_api.arch.x86.chacha_glue.lanes_c_stream).
LANES_CDEF = """
void hchacha_lanes_avx2(const uint32_t *states, uint32_t *out, unsigned lanes, int nrounds);
void chacha_lanes_xor_avx2(uint32_t *states, uint8_t *dst, const uint8_t *src, size_t stride,
                           size_t bytes, unsigned lanes, int nrounds);
"""


def _make(isa: str, files, extra: str = ""):
    return extension("crypto_api.arch.x86._chacha_" + isa, CDEF % {"isa": isa} + extra,
                     '#include "chacha_x86.h"\n', ["arch/x86/" + f for f in files], include_dirs=X86_DIRS)


ffi_ssse3 = _make("ssse3", ["chacha_ssse3.c"])
ffi_avx2 = _make("avx2", ["chacha_ssse3.c", "chacha_avx2.c"], LANES_CDEF)
ffi_avx512vl = _make("avx512vl", ["chacha_ssse3.c", "chacha_avx512vl.c"])
ffi_avx512 = _make("avx512", ["chacha_ssse3.c", "chacha_avx512vl.c", "chacha_avx512f.c"])

if __name__ == "__main__":
    main(ffi_ssse3, ffi_avx2, ffi_avx512vl, ffi_avx512)
