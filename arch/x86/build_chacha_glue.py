"""cffi build script for ``crypto_api.arch.x86._chacha_glue``: the v5.0 ChaCha
glue loop over one contiguous buffer (arch/x86/chacha_glue_walk.c), portable C
with no ISA code; the SIMD routine is passed in as a function pointer.
Paths, flags and ``__main__`` come from algs/build_common.py."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "algs"))
from build_common import X86_DIRS, extension, header_cdef, main  # noqa: E402

CDEF = header_cdef("arch/x86/chacha_glue_walk.h")

ffibuilder = extension("crypto_api.arch.x86._chacha_glue", CDEF, '#include "chacha_glue_walk.h"\n',
                       ["arch/x86/chacha_glue_walk.c"], include_dirs=X86_DIRS)

if __name__ == "__main__":
    main(ffibuilder)
