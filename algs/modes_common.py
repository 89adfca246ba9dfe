"""What the mode templates (ecb, cbc, ctr, xts) share: the inner cipher's C
block function (its BLOCK offer, crypto_api.cinterface) run inside the FPU
section the SIMD model asks for, the walk loop over whole blocks, and the
IV buffer a C loop updates and the request gets back (crypto/skcipher.c's
walk with the per-mode loops of crypto/ecb.c, cbc.c, ctr.c, xts.c).
"""

from __future__ import annotations

from typing import Callable, Optional

import crypto_api as capi
from crypto_api.algs._modes import ffi
from crypto_api.cinterface import Delegate, Kind, entries
from crypto_api.errors import EINVAL, CryptoError
from crypto_api.fpu import DECLINE, SIMD, simd_choice
from crypto_api.walk import skcipher_walk_done, skcipher_walk_virt

BLOCK = 16
_from_buffer = ffi.from_buffer


def c_cipher(cipher) -> Optional[Callable]:
    """``run(encrypt, body, nbytes)`` calling ``body(fn, ctx)`` with the
    C block function of ``cipher`` (a cipher tfm, or one that delegates to
    one: an ``ecb`` instance) inside the section the FPU model wants; None
    when it offers no BLOCK entries (the per-block Python path).
    ``run`` returns False when a trace records (DECLINE): the caller then
    takes the per-block path, whose sections the trace shows."""
    if cipher.alg.cra_blocksize != BLOCK:
        return None
    ops = {}
    for simd in (False, True):
        e = entries(cipher, Kind.BLOCK, simd)
        if e is None:
            return None
        ops[simd] = (ffi.cast("aes_block_fn", e.encrypt), ffi.cast("aes_block_fn", e.decrypt),
                     ffi.cast("void *", e.key))

    def run(encrypt: bool, body: Callable, nbytes: int) -> bool:
        choice = simd_choice()
        if choice == DECLINE:
            return False
        simd = choice == SIMD
        enc, dec, bctx = ops[simd]
        if simd:
            capi.kernel_fpu_begin()
        try:
            body(enc if encrypt else dec, bctx)
            if simd:
                capi.fpu_account(nbytes)
        finally:
            if simd:
                capi.kernel_fpu_end()
        return True
    run.ops = ops
    return run


def src_ptr(view):
    return view if type(view) is bytes else _from_buffer("uint8_t[]", view)


def dst_ptr(view):
    return _from_buffer("uint8_t[]", view, require_writable=True)


def walk_blocks(req, step: Callable[[memoryview, memoryview, int], None], partial_last: bool = False) -> None:
    """Walk ``req`` handing ``step(src, dst, n)`` whole blocks of each step
    (and, with ``partial_last``, the final partial block: CTR); a leftover
    that is not a whole block fails the walk with EINVAL after the full
    blocks are written, as the kernel's walk does."""
    w = skcipher_walk_virt(req)
    bs = w.blocksize if not partial_last else BLOCK
    while w.nbytes:
        n = w.nbytes
        if not (partial_last and n == w.total):
            n -= n % bs
        if n:
            step(w.src[:n], w.dst[:n], n)
        skcipher_walk_done(w, w.nbytes - n)


class IvState:
    """The request's IV in a C buffer for the loops to advance; ``put_back``
    writes the output IV into ``req.iv`` (kernel: req->iv is updated for
    chaining) when that buffer is writable."""

    def __init__(self, req, size: int) -> None:
        self.req = req
        self.size = size
        self.buf = ffi.new(f"uint8_t[{size}]", bytes(memoryview(req.iv)[:size]))

    def put_back(self) -> None:
        mv = memoryview(self.req.iv)
        if not mv.readonly:
            mv.cast("B")[:self.size] = bytes(ffi.buffer(self.buf))


def check_block_cipher(tname: str, cipher_alg) -> None:
    """The inner cipher must have a power-of-two block size (cbc's rule)."""
    bs = cipher_alg.cra_blocksize
    if bs <= 0 or bs & (bs - 1):
        raise CryptoError(EINVAL, f"{tname}: {cipher_alg.cra_driver_name} has block size {bs}, "
                                  "a power of 2 is required")


def simple_instance(tmpl, tb, tname: str, **fields) -> None:
    """``skcipher_alloc_instance_simple``: one cipher parameter, the
    instance's names, priority, block size, alignmask and key sizes from it;
    ``fields`` give the rest (ivsize, ``"block"`` for the cipher's block
    size; callbacks, overrides; ``check(cipher_alg)`` may refuse it)."""
    algt = capi.crypto_get_attr_type(tb)
    if (algt.type ^ capi.CRYPTO_ALG_TYPE_SKCIPHER) & algt.mask & capi.CRYPTO_ALG_TYPE_MASK:
        raise CryptoError(EINVAL, f"{tname}: instances are skciphers, another type was asked for")
    if len(tb) > 2:
        raise CryptoError(EINVAL, f"{tname}: takes 1 parameter, got {len(tb) - 1}")
    name = capi.crypto_attr_alg_name(tb, 1, tname)
    spawn = capi.crypto_grab_cipher(name)
    c = spawn.alg
    check = fields.pop("check", None)
    if check is not None:
        check(c)
    args = dict(cra_name=capi.crypto_inst_name(tname, c.cra_name),
                cra_driver_name=capi.crypto_inst_name(tname, c.cra_driver_name),
                cra_priority=c.cra_priority, cra_blocksize=c.cra_blocksize,
                cra_alignmask=c.cra_alignmask, min_keysize=c.min_keysize,
                max_keysize=c.max_keysize, init=cipher_init_tfm, exit=cipher_exit_tfm,
                setkey=cipher_setkey)
    args.update(fields)
    if args.get("ivsize") == "block":          # cbc, ctr: one cipher block of IV
        args["ivsize"] = c.cra_blocksize
    capi.skcipher_register_instance(tmpl, capi.SkcipherAlg(**args), [spawn])


def cipher_child(tfm):
    """The instance's keyed inner cipher tfm."""
    return tfm.ctx.cipher


#: ``ecb(<cipher>)``'s declaration (crypto_api.cinterface): ECB is the
#: cipher's block function over each block, so the cipher's C entries (its
#: BLOCK offer) stand for the instance's, for the xts template's C loops.
CIPHER_DELEGATE = Delegate(cipher_child)


def cipher_init_tfm(tfm) -> None:
    tfm.ctx.cipher = capi.crypto_spawn_cipher(tfm.alg.instance.spawns[0])
    tfm.ctx.run = None


def cipher_exit_tfm(tfm) -> None:
    cipher = getattr(tfm.ctx, "cipher", None)
    tfm.ctx.run = None
    if cipher is not None:
        cipher.free()
        tfm.ctx.cipher = None


def cipher_setkey(tfm, key) -> None:
    """The key goes to the inner cipher (request flags copied down)."""
    ctx = tfm.ctx
    ctx.run = None
    child = ctx.cipher
    child.clear_flags(capi.CRYPTO_TFM_REQ_MASK)
    child.set_flags(tfm.crt_flags & capi.CRYPTO_TFM_REQ_MASK)
    child.setkey(key)
    ctx.run = c_cipher(child)


def xor_bytes(a, b) -> bytes:
    return (int.from_bytes(a, "little") ^ int.from_bytes(b, "little")).to_bytes(len(a), "little")
