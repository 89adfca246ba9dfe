"""cffi build script for ``crypto_api.arch.x86._chacha_glue``: the v5.0 ChaCha
glue loop over one contiguous buffer (arch/x86/chacha_glue_walk.c), portable C
with no ISA code; the SIMD routine is passed in as a function pointer.
Paths, flags and ``__main__`` come from algs/build_common.py."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "algs"))
from build_common import X86_DIRS, extension, main  # noqa: E402

CDEF = """
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
"""

ffibuilder = extension("crypto_api.arch.x86._chacha_glue", CDEF, '#include "chacha_glue_walk.h"\n',
                       ["arch/x86/chacha_glue_walk.c"], include_dirs=X86_DIRS)

if __name__ == "__main__":
    main(ffibuilder)
