"""cffi build script for ``crypto_api.algs._modes``: the block-cipher mode
loops (algs/modes_core.c) over a cipher's one-block function.  The function
pointer type ``aes_block_fn`` is the one of ``crypto_api.algs._aes_generic``
(included), so the block functions aes-generic and aes-aesni publish pass as
they are."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from build_common import extension, header_cdef, load_builder, main  # noqa: E402

AES = load_builder("algs/build_aes.py")   # aes_block_fn, shared

CDEF = header_cdef("algs/modes_core.h")

SOURCE = """
#include "aes_generic.h"   /* struct crypto_aes_ctx of the included _aes_generic */
#include "modes_core.h"
"""

ffibuilder = extension("crypto_api.algs._modes", CDEF, SOURCE, ["algs/modes_core.c"],
                       includes=(AES.ffibuilder,))

if __name__ == "__main__":
    main(ffibuilder)
