"""cffi build script for ``crypto_api.arch.x86._aria``: the byte-sliced ARIA
cores of arch/x86/aria_x86.c (one template, aria_simd.h, instantiated for
AVX/16 blocks, AVX2/32 and AVX-512/64 blocks, with AES-NI or GFNI S-boxes;
per-function target attributes, no -m flags).  ``struct aria_ctx`` is the
generic extension's (``crypto_api.algs._aria_generic``, included), so one key
schedule serves both.  Call a variant only when the CPU has its instruction
sets.  Paths, flags and ``__main__`` come from algs/build_common.py.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "algs"))
from build_common import X86_DIRS, extension, load_builder, main  # noqa: E402

GENERIC = load_builder("algs/build_aria.py")

VARIANTS = ("avx_aesni", "avx_gfni", "avx2_aesni", "avx2_gfni", "avx512_gfni")

CDEF = """
#define ARIA_X86_ECB_DECRYPT 0
#define ARIA_X86_ECB_ENCRYPT 1
#define ARIA_X86_CTR 2
void aria_x86_crypt_bytes(const struct aria_ctx *ctx, int level, int gfni, int mode,
                          char *dst, const char *src, size_t n, const char *iv_in);
""" + "".join(f"""
void aria_{v}_ecb(const struct aria_ctx *ctx, uint8_t *out, const uint8_t *in,
                  size_t ncalls, int encrypt);
void aria_{v}_ctr(const struct aria_ctx *ctx, uint8_t *out, const uint8_t *in,
                  size_t ncalls, uint8_t *iv);
""" for v in VARIANTS)

ffibuilder = extension("crypto_api.arch.x86._aria", CDEF, '#include "aria_x86.h"\n',
                       ["arch/x86/aria_x86.c", "algs/aria_generic.c"], include_dirs=X86_DIRS,
                       includes=[GENERIC.ffibuilder])

if __name__ == "__main__":
    main(ffibuilder)
