"""cffi (API mode) builder for the one-pass AVX2 ChaCha20-Poly1305 core.

* ``crypto_api.arch.x86._chacha20poly1305_avx2``  chacha20poly1305_avx2.c
  with the AVX2 ChaCha (chacha_ssse3.c, chacha_avx2.c), the powers of r for
  the four-lane Poly1305 (poly1305_simd_powers.c) and the portable 26-bit
  Poly1305 core (algs/poly1305_core.c), all built with -mavx2 like the AVX2
  ChaCha extension: call it only where the CPU has AVX2 and OS YMM state.

On a non-x86 machine the same cdef is built without -m flags against stubs
that abort (the driver is never registered there).  Run directly to build
into a scratch directory:
``python3 arch/x86/build_chacha20poly1305.py [outdir]`` (default /tmp/x86_build).
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
ALGS = os.path.join(os.path.dirname(os.path.dirname(HERE)), "algs")
INCLUDE_DIRS = [HERE, ALGS, os.path.join(ALGS, "include")]
IS_X86 = platform.machine().lower() in ("x86_64", "amd64")
FLAGS = ["-O3", "-Wall", "-Wextra"] + (["-mavx2"] if IS_X86 else [])

CDEF = """
#define CHACHAPOLY_KEY_SIZE 32
#define CHACHAPOLY_NONCE_SIZE 12
#define CHACHAPOLY_TAG_SIZE 16
#define CHACHAPOLY_EBADMSG 74

void chacha20poly1305_seal_avx2(const uint8_t key[32], const uint8_t nonce[12],
                                const uint8_t *ad, size_t adlen,
                                const uint8_t *src, size_t len, uint8_t *dst);
int chacha20poly1305_open_avx2(const uint8_t key[32], const uint8_t nonce[12],
                               const uint8_t *ad, size_t adlen,
                               const uint8_t *src, size_t len, const uint8_t tag[16],
                               uint8_t *dst);
"""

ffibuilder = FFI()
ffibuilder.cdef(CDEF)
ffibuilder.set_source(
    "crypto_api.arch.x86._chacha20poly1305_avx2",
    '#include "chacha20poly1305_avx2.h"\n',
    sources=[os.path.join(HERE, f) for f in (
        "chacha20poly1305_avx2.c", "chacha_ssse3.c", "chacha_avx2.c", "poly1305_simd_powers.c")]
    + [os.path.join(ALGS, "poly1305_core.c")],
    depends=[os.path.join(HERE, f) for f in (
        "chacha20poly1305_avx2.h", "poly1305_simd.h", "poly1305_lanes.h", "poly1305_lanes_avx2.h")],
    include_dirs=INCLUDE_DIRS,
    extra_compile_args=FLAGS,
)


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "/tmp/x86_build"
    ffibuilder.compile(tmpdir=out, verbose=False)
