"""cffi (API mode) build script for the example's C core: ``xchacha12_mine._core``.

The conventions of crypto_api's own build scripts (algs/build_common.py),
written out here because a plug-in stands alone and does not import the
project's build helper: warnings on (-Wall -Wextra, an implicit function
declaration is an error; the C builds with none), source paths relative to
the project root for setuptools (``cffi_modules`` in setup.py) and absolute
for ``python xchacha12_mine/build_core.py [outdir]``, which builds into
outdir (default <tmpdir>/xchacha12_mine_build), never into the source tree.
"""

import os
import sys
import tempfile

from cffi import FFI

HERE = os.path.dirname(os.path.abspath(__file__))
CFLAGS = ["-O2", "-std=c99", "-Wall", "-Wextra", "-Werror=implicit-function-declaration"]


def _path(p: str) -> str:
    # ffi.compile() works from inside its output directory: absolute paths there
    return p if __name__ == "__main__" else os.path.relpath(p)


ffibuilder = FFI()
ffibuilder.cdef("""
    struct mine_state { uint32_t w[16]; int rounds; };
    void mine_xchacha_init(struct mine_state *st, const uint8_t key[32], const uint8_t iv[32], int rounds);
    void mine_chacha_crypt(struct mine_state *st, uint8_t *dst, const uint8_t *src, size_t len);
    void mine_wipe(void *p, size_t len);
""")
ffibuilder.set_source(
    "xchacha12_mine._core",
    '#include "chacha_mine.h"',
    sources=[_path(os.path.join(HERE, "chacha_mine.c"))],
    include_dirs=[_path(HERE)],
    extra_compile_args=CFLAGS,
)

if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(tempfile.gettempdir(), "xchacha12_mine_build")
    print(ffibuilder.compile(tmpdir=out, verbose=True))
