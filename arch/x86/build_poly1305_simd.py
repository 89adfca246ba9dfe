"""cffi (API mode) builder for poly1305-simd, the v5.0 SSE2/AVX2 Poly1305.

* ``crypto_api.arch.x86._poly1305_simd``  poly1305_simd_desc.c
  poly1305_simd_powers.c poly1305_sse2.c poly1305_avx2.c, with the portable
  core and descriptor (algs/poly1305_core.c, algs/poly1305_desc.c) whose
  26-bit accumulator the vectorised code shares.

SSE2 is part of x86_64, and the AVX2 functions carry
``__attribute__((target("avx2")))`` (call them only where the CPU has AVX2:
``isa`` POLY1305_SIMD_AVX2).  On a non-x86_64 machine the SIMD bodies are
stubs that abort (the driver is never registered there).  The descriptor
types are declared here, not included: nothing of this extension is handed
to another one.  Paths, flags and ``__main__`` come from algs/build_common.py.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "algs"))
from build_common import X86_DIRS, extension, main  # noqa: E402

CDEF = """
#define POLY1305_SIMD_SSE2 1
#define POLY1305_SIMD_AVX2 2

typedef struct { uint64_t w[6]; } poly1305_core_key;
typedef struct { uint64_t w[3]; } poly1305_core_state;

struct poly1305_simd_powers { uint32_t r[4][5]; uint32_t count; };

struct poly1305_desc {
    poly1305_core_key r;
    poly1305_core_state h;
    uint8_t s[16];
    uint8_t buf[16];
    uint32_t buflen;
    uint32_t rset;
    uint32_t sset;
};

struct poly1305_simd_desc {
    struct poly1305_desc base;
    struct poly1305_simd_powers pw;
};

void poly1305_simd_init(struct poly1305_simd_desc *d);
void poly1305_simd_update_generic(struct poly1305_simd_desc *d, const uint8_t *src, size_t len);
void poly1305_simd_update(struct poly1305_simd_desc *d, const uint8_t *src, size_t len, int isa);
int poly1305_simd_final(struct poly1305_simd_desc *d, uint8_t digest[16]);
int poly1305_simd_digest(const uint8_t *src, size_t len, uint8_t digest[16], int isa);
int poly1305_simd_digest_bytes(const char *src, size_t len, char *digest, int isa);
/* The same as the routine of the C entry point (crypto_api/digest_call.h):
 * ``handle`` points to the isa. */
int poly1305_simd_digest_call(const void *handle, char *digest, const char *src, size_t len);

/* The block functions alone, for the tests: Poly1305 of nblocks whole
   blocks under clamp(raw_r), no "+ s"; isa 0 = the scalar 26-bit code. */
void poly1305_simd_hash(const uint8_t raw_r[16], const uint8_t *src, size_t nblocks,
                        int isa, uint8_t out[16]);
"""

SOURCE = """
#include "poly1305_simd_desc.h"

static int poly1305_simd_digest_bytes(const char *src, size_t len, char *digest, int isa)
{
	return poly1305_simd_digest((const uint8_t *)src, len, (uint8_t *)digest, isa);
}

static int poly1305_simd_digest_call(const void *handle, char *digest, const char *src, size_t len)
{
	return poly1305_simd_digest_bytes(src, len, digest, *(const int *)handle);
}

static void poly1305_simd_hash(const uint8_t raw_r[16], const uint8_t *src, size_t nblocks,
			       int isa, uint8_t out[16])
{
	poly1305_core_key key;
	poly1305_core_state h;
	struct poly1305_simd_powers pw = { .count = 0 };
	size_t lanes = isa == POLY1305_SIMD_AVX2 ? 4 : 2;
	size_t steps = isa ? nblocks / lanes : 0;

	poly1305_generic_setkey(&key, raw_r);
	poly1305_generic_init(&h);
	poly1305_simd_powers_fill(&pw, &key, (uint32_t)lanes);
	if (isa == POLY1305_SIMD_AVX2)
		poly1305_blocks_avx2(&h, &pw, src, steps, 1);
	else if (isa == POLY1305_SIMD_SSE2)
		poly1305_blocks_sse2(&h, &pw, src, steps, 1);
	poly1305_generic_blocks(&h, &key, src + steps * lanes * 16, nblocks - steps * lanes, 1);
	poly1305_generic_emit(&h, out);
}
"""


ffibuilder = extension(
    "crypto_api.arch.x86._poly1305_simd", CDEF, SOURCE,
    ["arch/x86/poly1305_simd_desc.c", "arch/x86/poly1305_simd_powers.c", "arch/x86/poly1305_sse2.c",
     "arch/x86/poly1305_avx2.c", "algs/poly1305_core.c", "algs/poly1305_desc.c"],
    include_dirs=X86_DIRS)

if __name__ == "__main__":
    main(ffibuilder)
