"""cffi (API mode) builder for the one-pass AVX2 ChaCha20-Poly1305 core.

* ``crypto_api.arch.x86._chacha20poly1305_avx2``  chacha20poly1305_avx2.c
  with the AVX2 and AVX-512 ChaCha (chacha_ssse3.c, chacha_avx2.c,
  chacha_avx512vl.c, chacha_avx512f.c; the 8- and 16-block rounds carry the
  stitched Poly1305 blocks) and the 64-bit-limb Poly1305 core
  (poly1305_x86_64.c).  No -m flags: the SIMD functions carry target
  attributes (x86_common.h), so call the *_avx2 entry points only where the
  CPU has AVX2, BMI2 (mulx) and OS YMM state, the *_avx512 ones only where
  it also has AVX-512F/VL/BW and OS ZMM state.

On a non-x86 machine the same cdef is built against stubs that abort (the
driver is never registered there).  Paths, flags and ``__main__`` come from
algs/build_common.py.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "algs"))
from build_common import X86_DIRS, extension, header_cdef, main  # noqa: E402

CDEF = header_cdef("arch/x86/chacha20poly1305_avx2.h")


ffibuilder = extension(
    "crypto_api.arch.x86._chacha20poly1305_avx2", CDEF, '#include "chacha20poly1305_avx2.h"\n',
    ["arch/x86/chacha20poly1305_avx2.c", "arch/x86/chacha_ssse3.c", "arch/x86/chacha_avx2.c",
     "arch/x86/chacha_avx512vl.c", "arch/x86/chacha_avx512f.c", "arch/x86/poly1305_x86_64.c"],
    include_dirs=X86_DIRS)

if __name__ == "__main__":
    main(ffibuilder)
