"""cffi build script for ``crypto_api.arch.x86._sha256_ni``: the SHA-256
block functions of the x86 drivers (module sha256_ssse3): on the SHA
extensions (arch/x86/sha256_ni.c) and the SSSE3/AVX/AVX2 builds of one body
(arch/x86/sha256_simd.c over sha256_simd_body.h); a target attribute per
function, stubs on other machines.  Its ``sha256_blocks_fn``
and ``struct sha256_state`` are those of ``crypto_api.algs._sha256``
(included), whose buffering and padding take it as it is."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "algs"))
from build_common import X86_DIRS, extension, load_builder, main  # noqa: E402

SHA = load_builder("algs/build_sha256.py")

CDEF = """
void sha256_blocks_ni(uint32_t *state, const uint8_t *data, size_t nblocks);
void sha256_ssse3_blocks(uint32_t *state, const uint8_t *data, size_t nblocks);
void sha256_avx_blocks(uint32_t *state, const uint8_t *data, size_t nblocks);
void sha256_avx2_blocks(uint32_t *state, const uint8_t *data, size_t nblocks);
"""

SOURCE = """
#include "sha256_generic.h"
""" + CDEF

ffibuilder = extension("crypto_api.arch.x86._sha256_ni", CDEF, SOURCE, ["arch/x86/sha256_ni.c", "arch/x86/sha256_simd.c"],
                       include_dirs=X86_DIRS, includes=[SHA.ffibuilder])

if __name__ == "__main__":
    main(ffibuilder)
