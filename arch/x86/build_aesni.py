"""cffi build script for ``crypto_api.arch.x86._aesni``: the AES-NI core
(arch/x86/aesni.c, its functions compiled for target("aes,sse4.1")), the
CBC/CTR/XTS loops (aesni_modes.c, the same target) and the VAES/AVX2 bulk
code for XTS and CTR (aesni_vaes.c over aesni_vaes_body.h, three widths),
the one-call entry aesni_mode_oneshot (aesni_oneshot.c):
call ``aes_vaes_avx2_*`` only when the CPU has VAES, VPCLMULQDQ and AVX2, and
``aes_vaes_avx10_256/512_*`` only when it also has AVX512F/VL/BW.

``struct aesni_ctx`` is allocated by Python (``ffi.new("struct aesni_ctx *")``);
it carries its own alignment slack, so no aligned allocation is needed.
``aesni_setkey`` returns 0 or -22 (-EINVAL) for a length other than 16/24/32.
Only call into this module when cpu_has("aes") is true.  On a non-x86
machine the same cdef is built against stubs (setkey returns -19, -ENODEV).
Paths, flags and ``__main__`` come from algs/build_common.py.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "algs"))
from build_common import X86_DIRS, extension, main  # noqa: E402

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

void aesni_cbc_encrypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in,
                       size_t nblocks, uint8_t *iv);
void aesni_cbc_decrypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in,
                       size_t nblocks, uint8_t *iv);
void aesni_ctr_crypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in,
                     size_t nbytes, uint8_t *iv);
int aesni_xts_crypt(const struct aesni_ctx *ctx, const struct aesni_ctx *tweak_ctx,
                    uint8_t *out, const uint8_t *in, size_t nbytes, const uint8_t *iv, int dec);
void aes_vaes_avx2_ctr_crypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in,
                       size_t nbytes, uint8_t *iv);
int aes_vaes_avx2_xts_crypt(const struct aesni_ctx *ctx, const struct aesni_ctx *tweak_ctx,
                      uint8_t *out, const uint8_t *in, size_t nbytes, const uint8_t *iv, int dec);
void aes_vaes_avx10_256_ctr_crypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in,
                       size_t nbytes, uint8_t *iv);
int aes_vaes_avx10_256_xts_crypt(const struct aesni_ctx *ctx, const struct aesni_ctx *tweak_ctx,
                      uint8_t *out, const uint8_t *in, size_t nbytes, const uint8_t *iv, int dec);
void aes_vaes_avx10_512_ctr_crypt(const struct aesni_ctx *ctx, uint8_t *out, const uint8_t *in,
                       size_t nbytes, uint8_t *iv);
int aes_vaes_avx10_512_xts_crypt(const struct aesni_ctx *ctx, const struct aesni_ctx *tweak_ctx,
                      uint8_t *out, const uint8_t *in, size_t nbytes, const uint8_t *iv, int dec);

void crypto_memzero(void *p, size_t n);

#define AESNI_ONESHOT_ECB 0
#define AESNI_ONESHOT_CBC 1
#define AESNI_ONESHOT_CTR 2
#define AESNI_ONESHOT_XTS 3
struct aesni_oneshot {
    const struct aesni_ctx *ctx;
    void (*fn)(void);
    int mode;
    int dec;
};
int aesni_mode_oneshot(const struct aesni_oneshot *h, char *dst, const char *src, size_t n,
                       const char *iv);
"""

ffibuilder = extension("crypto_api.arch.x86._aesni", CDEF, '#include "aesni_modes.h"\n',
                       ["arch/x86/aesni.c", "arch/x86/aesni_modes.c", "arch/x86/aesni_vaes.c",
                        "arch/x86/aesni_oneshot.c"],
                       include_dirs=X86_DIRS)

if __name__ == "__main__":
    main(ffibuilder)
