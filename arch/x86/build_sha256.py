"""cffi build script for ``crypto_api.arch.x86._sha256_ni``: the SHA-256
block function on the SHA extensions (arch/x86/sha256_ni.c, target
attribute per function; stubs on other machines).  Its ``sha256_blocks_fn``
and ``struct sha256_state`` are those of ``crypto_api.algs._sha256``
(included), whose buffering and padding take it as it is."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "algs"))
from build_common import X86_DIRS, extension, load_builder, main  # noqa: E402

SHA = load_builder("algs/build_sha256.py")

CDEF = """
void sha256_blocks_ni(uint32_t *state, const uint8_t *data, size_t nblocks);
"""

SOURCE = """
#include "sha256_generic.h"
void sha256_blocks_ni(uint32_t *state, const uint8_t *data, size_t nblocks);
"""

ffibuilder = extension("crypto_api.arch.x86._sha256_ni", CDEF, SOURCE, ["arch/x86/sha256_ni.c"],
                       include_dirs=X86_DIRS, includes=[SHA.ffibuilder])

if __name__ == "__main__":
    main(ffibuilder)
