"""cffi (API mode) builder for the AES-NI core.

* ``crypto_api.arch.x86._aesni``  aesni.c  -maes -msse4.1

``struct aesni_ctx`` is allocated by Python (``ffi.new("struct aesni_ctx *")``);
it carries its own alignment slack, so no aligned allocation is needed.
``aesni_setkey`` returns 0 or -22 (-EINVAL) for a length other than 16/24/32.
Only call into this module when cpu_has("aes") is true.

On a non-x86 machine the same cdef is built against stubs (setkey returns
-19, -ENODEV).  Run directly to build into a scratch directory:
``python3 arch/x86/build_aesni.py [outdir]`` (default /tmp/x86_build).
"""

import os
import platform
import sys

from cffi import FFI

# setuptools (setup.py's cffi_modules, run from the project root) refuses
# absolute source paths, so they are relative to the working directory there;
# ffi.compile() (running this file directly) works from inside its tmpdir and
# needs absolute ones.
_HERE_ABS = os.path.dirname(os.path.abspath(__file__))
HERE = _HERE_ABS if __name__ == "__main__" else os.path.relpath(_HERE_ABS)
ROOT = os.path.dirname(os.path.dirname(HERE))
INCLUDE_DIRS = [HERE, os.path.join(ROOT, "algs", "include")]
IS_X86 = platform.machine().lower() in (
    "x86_64", "amd64", "i386", "i486", "i586", "i686", "x86")
BASE_FLAGS = ["-O3"]
ISA_FLAGS = ["-maes", "-msse4.1"]

CDEF = """
#define AESNI_MAX_ROUND_KEYS 15

struct aesni_ctx {
    uint8_t raw[496];
    uint32_t key_length;
    uint32_t rounds;
    uint32_t offset;
};

int aesni_setkey(struct aesni_ctx *ctx, const uint8_t *key, size_t len);
void aesni_encrypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in);
void aesni_decrypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in);
void aesni_ecb_encrypt(const struct aesni_ctx *ctx, uint8_t *out,
                       const uint8_t *in, size_t nblocks);
void aesni_ecb_decrypt(const struct aesni_ctx *ctx, uint8_t *out,
                       const uint8_t *in, size_t nblocks);

void crypto_memzero(void *p, size_t n);
"""

ffibuilder = FFI()
ffibuilder.cdef(CDEF)
ffibuilder.set_source(
    "crypto_api.arch.x86._aesni",
    '#include "aesni.h"\n',
    sources=[os.path.join(HERE, "aesni.c")],
    include_dirs=INCLUDE_DIRS,
    extra_compile_args=BASE_FLAGS + (ISA_FLAGS if IS_X86 else []),
)


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "/tmp/x86_build"
    ffibuilder.compile(tmpdir=out, verbose=False)
