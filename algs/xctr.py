"""The ``xctr`` template (crypto/xctr.c, Linux 6.0).

``xctr(<cipher>)``: XCTR, the counter mode of HCTR2 ("Length-preserving
encryption with HCTR2", Crowley and Biggers): keystream block i (from 1) is
E(IV ⊕ le(i)), the block number XOR-ed little endian into the IV (the
kernel keeps it in 32 bits, in the IV's first 4 bytes), instead of CTR's
big-endian addition.  Any length (block size 1, chunk and walk size 16),
IV 16 bytes; the cipher's block size must be 16.  The IV is not advanced:
a request leaves it as it was (the kernel XORs the counter in and out).
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.algs.modes_common import BLOCK, dst_ptr, simple_instance, src_ptr, walk_blocks, xor_bytes
from crypto_api.algs._modes import ffi, lib
from crypto_api.cinterface import Kind, Offer, XctrEntries
from crypto_api.errors import EINVAL, CryptoError

MODULE_NAME = "xctr"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("xctr")

XCTR_BLOCKSIZE = 16


def xctr_block(iv: bytes, counter: int) -> bytes:
    """The cipher input of keystream block ``counter``: IV ⊕ le32(counter)."""
    return xor_bytes(iv[:4], (counter & 0xFFFFFFFF).to_bytes(4, "little")) + iv[4:16]


def xctr_crypt(req) -> None:
    ctx = req.tfm.ctx
    cipher = ctx.cipher
    iv = bytes(memoryview(req.iv)[:XCTR_BLOCKSIZE])
    counter = [1]                       # the number of the next keystream block

    def step(src, dst, n):
        first = counter[0]
        counter[0] += (n + BLOCK - 1) // BLOCK
        run = ctx.run
        if run is not None and run(True, lambda fn, c: lib.modes_xctr(fn, c, dst_ptr(dst), src_ptr(src), n,
                                                                        iv, first & 0xFFFFFFFF), n):
            return
        for o in range(0, n, BLOCK):
            chunk = bytes(src[o:o + BLOCK])
            ks = cipher.encrypt_one(xctr_block(iv, first + o // BLOCK))
            dst[o:o + len(chunk)] = xor_bytes(chunk, ks[:len(chunk)])
    walk_blocks(req, step, partial_last=True)


_XCTR_ENTRY = ffi.addressof(lib, "modes_xctr_entry")


def xctr_entries(tfm, simd: bool):
    """The XCTR offer (crypto_api.cinterface): modes_xctr_entry over the
    inner cipher's block function (its BLOCK entries, SIMD code where
    ``simd``); None where the cipher offers none."""
    run = tfm.ctx.run
    if run is None:
        return None
    enc, _, bctx = run.ops[simd]
    return XctrEntries(crypt=_XCTR_ENTRY, key=ffi.new("struct modes_xctr_key *", {"enc": enc, "ctx": bctx}))


def _check_xctr_cipher(c) -> None:
    if c.cra_blocksize != XCTR_BLOCKSIZE:
        raise CryptoError(EINVAL, f"xctr: {c.cra_driver_name} has block size {c.cra_blocksize}, "
                                  f"XCTR needs a {XCTR_BLOCKSIZE}-byte block cipher")


def xctr_create(tmpl, tb) -> None:
    simple_instance(tmpl, tb, "xctr", check=_check_xctr_cipher, ivsize=XCTR_BLOCKSIZE, cra_blocksize=1,
                    chunksize=XCTR_BLOCKSIZE, walksize=XCTR_BLOCKSIZE, encrypt=xctr_crypt,
                    decrypt=xctr_crypt, c_entries=(Offer(Kind.XCTR, xctr_entries),))


TEMPLATE = capi.Template(name="xctr", create=xctr_create)


def module_init() -> None:
    capi.crypto_register_template(TEMPLATE)


def module_exit() -> None:
    capi.crypto_unregister_template(TEMPLATE)
