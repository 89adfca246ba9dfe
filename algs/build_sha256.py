"""cffi build script for ``crypto_api.algs._sha256``: SHA-224/SHA-256
(algs/sha256_generic.c).  Paths and flags come from algs/build_common.py."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from build_common import extension, header_cdef, main  # noqa: E402

CDEF = """
struct sha256_state {
    uint32_t state[8];
    uint64_t count;
    uint8_t buf[64];
};
""" + header_cdef("algs/sha256_generic.h")     # the struct's size there is a macro: written here

SOURCE = """
#include "sha256_generic.h"
"""

ffibuilder = extension("crypto_api.algs._sha256", CDEF, SOURCE, ["algs/sha256_generic.c"])

if __name__ == "__main__":
    main(ffibuilder)
