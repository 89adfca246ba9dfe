"""cffi build script for ``crypto_api.algs._sector_batch``: many dm-crypt
sectors in one call (algs/sector_batch.c), each sector's IV made in C from
its number, the sector handed to the picked driver's C entry point through a
function pointer (crypto_api.algs.sector_batch fills the description); and
the disk journal's per-sector SHA-256 digests in one call (algs/sha256_generic.c
compiled in from the same source as the sha256 shash).  Paths,
flags and ``__main__`` come from algs/build_common.py."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from build_common import extension, header_cdef, main  # noqa: E402

CDEF = header_cdef("algs/sector_batch.h") + """
/* the per-sector SHA-256 digests (algs/sha256_generic.c compiled in) */
void sha256_blocks_generic(uint32_t *state, const uint8_t *data, size_t nblocks);
"""

SOURCE = """
#include "sector_batch.h"
#include "sha256_generic.h"
"""

ffibuilder = extension("crypto_api.algs._sector_batch", CDEF, SOURCE,
                       ["algs/sector_batch.c", "algs/sha256_generic.c"])

if __name__ == "__main__":
    main(ffibuilder)
