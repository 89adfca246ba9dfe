"""The ``cbc`` template (crypto/cbc.c): C_i = E(P_i ⊕ C_{i-1}), C_{-1} = IV.

ivsize = the cipher's block size (a power of 2, else EINVAL); after a
request ``req.iv`` holds the last ciphertext block in both directions (the
output IV for chaining, as the kernel leaves it); a length that is not whole
blocks is EINVAL.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.algs.modes_common import (IvState, check_block_cipher, dst_ptr, simple_instance,
                                          src_ptr, walk_blocks, xor_bytes)
from crypto_api.algs._modes import ffi, lib

MODULE_NAME = "cbc"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("cbc")


def _crypt(req, encrypt: bool) -> None:
    ctx = req.tfm.ctx
    cipher = ctx.cipher
    bs = cipher.alg.cra_blocksize
    iv = IvState(req, bs)
    c_fn = lib.modes_cbc_encrypt if encrypt else lib.modes_cbc_decrypt

    def step(src, dst, n):
        run = ctx.run
        if run is not None and run(encrypt, lambda fn, c: c_fn(fn, c, dst_ptr(dst), src_ptr(src), n // bs,
                                                                 iv.buf), n):
            return
        prev = bytes(ffi.buffer(iv.buf))
        for o in range(0, n, bs):
            block = bytes(src[o:o + bs])
            if encrypt:
                prev = cipher.encrypt_one(xor_bytes(block, prev))
                dst[o:o + bs] = prev
            else:
                dst[o:o + bs] = xor_bytes(cipher.decrypt_one(block), prev)
                prev = block
        ffi.memmove(iv.buf, prev, bs)
    walk_blocks(req, step)
    iv.put_back()


def cbc_encrypt(req) -> None:
    _crypt(req, True)


def cbc_decrypt(req) -> None:
    _crypt(req, False)


def cbc_create(tmpl, tb) -> None:
    simple_instance(tmpl, tb, "cbc", check=lambda c: check_block_cipher("cbc", c),
                    ivsize="block", encrypt=cbc_encrypt, decrypt=cbc_decrypt)


TEMPLATE = capi.Template(name="cbc", create=cbc_create)


def module_init() -> None:
    capi.crypto_register_template(TEMPLATE)


def module_exit() -> None:
    capi.crypto_unregister_template(TEMPLATE)
