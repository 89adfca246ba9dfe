"""cffi build script for ``crypto_api.algs._sha256``: SHA-224/SHA-256
(algs/sha256_generic.c).  Paths and flags come from algs/build_common.py."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from build_common import extension, main  # noqa: E402

CDEF = """
struct sha256_state {
    uint32_t state[8];
    uint64_t count;
    uint8_t buf[64];
};
typedef void (*sha256_blocks_fn)(uint32_t *state, const uint8_t *data, size_t nblocks);
void sha256_init(struct sha256_state *s);
void sha224_init(struct sha256_state *s);
void sha256_blocks_generic(uint32_t *state, const uint8_t *data, size_t nblocks);
void sha256_update(struct sha256_state *s, const uint8_t *data, size_t len, sha256_blocks_fn blocks);
void sha256_final(struct sha256_state *s, uint8_t *out, size_t digest_size, sha256_blocks_fn blocks);
"""

SOURCE = """
#include "sha256_generic.h"
"""

ffibuilder = extension("crypto_api.algs._sha256", CDEF, SOURCE, ["algs/sha256_generic.c"])

if __name__ == "__main__":
    main(ffibuilder)
