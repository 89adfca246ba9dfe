"""The ``ctr`` and ``rfc3686`` templates (crypto/ctr.c).

``ctr(<cipher>)``: keystream E(counter), the counter being the IV as one
big-endian integer of the block size, incremented per block (carrying
through all of it); any length (block size 1, chunk and walk size 16); the
output IV is the counter after the last (partial) block.  The cipher's
block size must be a multiple of 4, at least 4.

``rfc3686(<ctr skcipher>)``: key = inner key ‖ 4-byte nonce, IV 8 bytes; the
inner runs with the counter block nonce ‖ IV ‖ be32(1).
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.algs.modes_common import IvState, dst_ptr, simple_instance, src_ptr, walk_blocks, xor_bytes
from crypto_api.algs._modes import ffi, lib
from crypto_api.errors import EINVAL, CryptoError

MODULE_NAME = "ctr"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("ctr", "rfc3686")

RFC3686_NONCE_SIZE = 4
RFC3686_IV_SIZE = 8
RFC3686_BLOCK_SIZE = 16


def _inc(counter: bytes) -> bytes:
    n = len(counter)
    return ((int.from_bytes(counter, "big") + 1) % (1 << (8 * n))).to_bytes(n, "big")


def ctr_crypt(req) -> None:
    ctx = req.tfm.ctx
    cipher = ctx.cipher
    bs = cipher.alg.cra_blocksize
    iv = IvState(req, bs)

    def step(src, dst, n):
        run = ctx.run
        if run is not None and run(True, lambda fn, c: lib.modes_ctr(fn, c, dst_ptr(dst), src_ptr(src), n,
                                                                       iv.buf), n):
            return
        counter = bytes(ffi.buffer(iv.buf))
        for o in range(0, n, bs):
            chunk = bytes(src[o:o + bs])
            dst[o:o + len(chunk)] = xor_bytes(chunk, cipher.encrypt_one(counter)[:len(chunk)])
            counter = _inc(counter)
        ffi.memmove(iv.buf, counter, bs)
    walk_blocks(req, step, partial_last=True)
    iv.put_back()


def _check_ctr_cipher(c) -> None:
    if c.cra_blocksize < 4 or c.cra_blocksize % 4:
        raise CryptoError(EINVAL, f"ctr: {c.cra_driver_name} has block size {c.cra_blocksize}, "
                                  "a multiple of 4 (at least 4) is required")


def ctr_create(tmpl, tb) -> None:
    simple_instance(tmpl, tb, "ctr", check=_check_ctr_cipher, ivsize="block", cra_blocksize=1,
                    chunksize=16, walksize=16, encrypt=ctr_crypt, decrypt=ctr_crypt)


# --------------------------------------------------------------------------
# rfc3686

def rfc3686_init_tfm(tfm) -> None:
    tfm.ctx.child = capi.crypto_spawn_skcipher(tfm.alg.instance.spawns[0])
    tfm.ctx.nonce = b""


def rfc3686_exit_tfm(tfm) -> None:
    child = getattr(tfm.ctx, "child", None)
    if child is not None:
        child.free()
        tfm.ctx.child = None


def rfc3686_setkey(tfm, key) -> None:
    name = tfm.alg.cra_driver_name
    kv = memoryview(key).cast("B")
    if len(kv) < RFC3686_NONCE_SIZE:
        raise CryptoError(EINVAL, f"{name}: key is {len(kv)} bytes, the 4-byte nonce at its end is missing")
    child = tfm.ctx.child
    child.clear_flags(capi.CRYPTO_TFM_REQ_MASK)
    child.set_flags(tfm.crt_flags & capi.CRYPTO_TFM_REQ_MASK)
    child.setkey(kv[:-RFC3686_NONCE_SIZE])
    tfm.ctx.nonce = bytes(kv[-RFC3686_NONCE_SIZE:])


def rfc3686_crypt(req) -> int:
    ctx = req.tfm.ctx
    counter = bytearray(ctx.nonce + bytes(memoryview(req.iv)[:RFC3686_IV_SIZE]) + (1).to_bytes(4, "big"))
    sub = capi.skcipher_request_alloc(ctx.child)
    capi.skcipher_request_set_callback(sub, req.flags, req.complete, req.data)
    capi.skcipher_request_set_crypt(sub, req.src, req.dst, req.cryptlen, counter)
    return capi.crypto_skcipher_encrypt(sub)


def rfc3686_create(tmpl, tb) -> None:
    algt = capi.crypto_get_attr_type(tb)
    if (algt.type ^ capi.CRYPTO_ALG_TYPE_SKCIPHER) & algt.mask & capi.CRYPTO_ALG_TYPE_MASK:
        raise CryptoError(EINVAL, "rfc3686: instances are skciphers, another type was asked for")
    mask = capi.crypto_requires_sync(algt.type, algt.mask)
    spawn = capi.crypto_grab_skcipher(capi.crypto_attr_alg_name(tb, 1, "rfc3686"), 0, mask)
    a = spawn.alg
    if a.ivsize != RFC3686_BLOCK_SIZE or a.cra_blocksize != 1:
        raise CryptoError(EINVAL, f"rfc3686: {a.cra_driver_name} is not a CTR mode of a 16-byte "
                                  f"block cipher (ivsize {a.ivsize}, block size {a.cra_blocksize})")
    inst = capi.SkcipherAlg(
        cra_name=capi.crypto_inst_name("rfc3686", a.cra_name),
        cra_driver_name=capi.crypto_inst_name("rfc3686", a.cra_driver_name),
        cra_priority=a.cra_priority, cra_blocksize=1, cra_alignmask=a.cra_alignmask,
        cra_flags=a.cra_flags & capi.CRYPTO_ALG_ASYNC,
        min_keysize=a.min_keysize + RFC3686_NONCE_SIZE, max_keysize=a.max_keysize + RFC3686_NONCE_SIZE,
        ivsize=RFC3686_IV_SIZE, chunksize=a.chunksize, setkey=rfc3686_setkey,
        encrypt=rfc3686_crypt, decrypt=rfc3686_crypt, init=rfc3686_init_tfm, exit=rfc3686_exit_tfm)
    capi.skcipher_register_instance(tmpl, inst, [spawn])


TEMPLATES = (capi.Template(name="ctr", create=ctr_create),
             capi.Template(name="rfc3686", create=rfc3686_create))


def module_init() -> None:
    capi.crypto_register_templates(TEMPLATES)


def module_exit() -> None:
    capi.crypto_unregister_templates(TEMPLATES)
