"""cffi build script for ``crypto_api.algs._modes``: the block-cipher mode
loops (algs/modes_core.c) over a cipher's one-block function.  The function
pointer type ``aes_block_fn`` is the one of ``crypto_api.algs._aes_generic``
(included), so the block functions aes-generic and aes-aesni publish pass as
they are."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from build_common import extension, load_builder, main  # noqa: E402

AES = load_builder("algs/build_aes.py")   # aes_block_fn, shared

CDEF = """
void modes_ecb(aes_block_fn fn, const void *ctx, uint8_t *out, const uint8_t *in, size_t nblocks);
void modes_cbc_encrypt(aes_block_fn enc, const void *ctx, uint8_t *out, const uint8_t *in,
                       size_t nblocks, uint8_t *iv);
void modes_cbc_decrypt(aes_block_fn dec, const void *ctx, uint8_t *out, const uint8_t *in,
                       size_t nblocks, uint8_t *iv);
void modes_ctr(aes_block_fn enc, const void *ctx, uint8_t *out, const uint8_t *in,
               size_t nbytes, uint8_t *ctr);
void modes_xts_first_tweak(aes_block_fn tenc, const void *tctx, uint8_t *t, const uint8_t *iv);
void modes_xts_blocks(aes_block_fn fn, const void *ctx, uint8_t *out, const uint8_t *in,
                      size_t nblocks, uint8_t *t);
void modes_xts_tail(aes_block_fn fn, const void *ctx, uint8_t *out, const uint8_t *in,
                    size_t r, uint8_t *t, int enc);
void modes_xts_crypt(aes_block_fn fn, const void *ctx, aes_block_fn tenc, const void *tctx,
                     const uint8_t *iv, uint8_t *out, const uint8_t *in, size_t nbytes, int enc);
void modes_xts_xor(uint8_t *buf, size_t nblocks, uint8_t *t);
"""

SOURCE = """
#include "aes_generic.h"   /* struct crypto_aes_ctx of the included _aes_generic */
#include "modes_core.h"
"""

ffibuilder = extension("crypto_api.algs._modes", CDEF, SOURCE, ["algs/modes_core.c"],
                       includes=(AES.ffibuilder,))

if __name__ == "__main__":
    main(ffibuilder)
