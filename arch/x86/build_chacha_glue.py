"""cffi build script for crypto_api.arch.x86._chacha_glue: the v5.0 ChaCha glue
loop over one contiguous buffer (chacha_glue_walk.c), portable C with no ISA
flags; the SIMD routine is passed in as a function pointer."""

import os

from cffi import FFI

# setuptools (setup.py's cffi_modules, run from the project root) refuses
# absolute source paths, so they are relative to the working directory there;
# ffi.compile() (running this file directly) works from inside its tmpdir and
# needs absolute ones.
_HERE_ABS = os.path.dirname(os.path.abspath(__file__))
HERE = _HERE_ABS if __name__ == "__main__" else os.path.relpath(_HERE_ABS)

ffibuilder = FFI()
ffibuilder.cdef("""
typedef void (*chacha_crypt_fn)(uint32_t *state, uint8_t *dst, const uint8_t *src,
                                size_t bytes, int nrounds);
size_t chacha_glue_walk_linear(chacha_crypt_fn crypt, uint32_t state[16], uint8_t *dst,
                               const uint8_t *src, size_t total, size_t src_off,
                               size_t dst_off, int nrounds, uint32_t *sections,
                               size_t max_sections);
typedef void (*hchacha_fn)(const uint32_t *state, uint32_t *out, int nrounds);
size_t chacha_glue_crypt_linear(chacha_crypt_fn crypt, hchacha_fn hchacha,
                                const uint8_t key[32], const uint8_t *iv, uint8_t *dst,
                                const uint8_t *src, size_t total, size_t src_off,
                                size_t dst_off, int nrounds, uint32_t *sections,
                                size_t max_sections);
""")
ffibuilder.set_source(
    "crypto_api.arch.x86._chacha_glue",
    '#include "chacha_glue_walk.h"\n',
    sources=[os.path.join(HERE, "chacha_glue_walk.c")],
    depends=[os.path.join(HERE, "chacha_glue_walk.h")],
    include_dirs=[HERE, os.path.join(os.path.dirname(os.path.dirname(HERE)), "algs", "include")],
    extra_compile_args=["-O2"],
)

if __name__ == "__main__":
    ffibuilder.compile(tmpdir=os.environ.get("CRYPTO_API_BUILD_DIR", "/tmp/crypto_api_build"), verbose=True)
