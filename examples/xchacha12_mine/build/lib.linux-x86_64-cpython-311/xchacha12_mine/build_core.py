"""cffi (API mode) build script for the example's C core: ``xchacha12_mine._core``."""

import os

from cffi import FFI

HERE = os.path.dirname(os.path.abspath(__file__))

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
    sources=[os.path.relpath(os.path.join(HERE, "chacha_mine.c"))],
    include_dirs=[os.path.relpath(HERE)],
    extra_compile_args=["-O2", "-std=c99"],
)

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)
