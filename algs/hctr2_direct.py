"""HCTR2's one-call path: the whole construction over one contiguous buffer
in algs/hctr2_core.c, through the C entries of the block cipher (BLOCK), the
XCTR (XCTR) and POLYVAL (POLYVAL) children (crypto_api.cinterface).

No kernel counterpart (crypto/hctr2.c always goes through its children's
requests); algs/hctr2.py's composed path stays the reference and the
fallback for children that offer no entries, an FPU trace that records,
and scattered buffers.  Its bytes are the same.
"""

from __future__ import annotations

from typing import Optional

import crypto_api as capi
from crypto_api.algs._hctr2 import ffi, lib
from crypto_api.algs.polyval_generic import GENERIC_BLOCKS
from crypto_api.cinterface import Kind, entries
from crypto_api.direct import skcipher_direct
from crypto_api.errors import EINVAL, CryptoError
from crypto_api.fpu import DECLINE, GENERIC, SIMD
from crypto_api.scatterlist import sg_linear_views
from crypto_api.simd_rule import ANY_LENGTH, SimdRule

BLOCK = 16
TWEAK_SIZE = 32
#: With no generic C entries (a SIMD-only child), anything but SIMD declines.
SIMD_ONLY = SimdRule(only=True)
_CRYPT_PTRS = {True: ffi.addressof(lib, "hctr2_encrypt_bytes"),
               False: ffi.addressof(lib, "hctr2_decrypt_bytes")}
_SETUP_BLOCKS = ffi.cast("polyval_blocks_fn", GENERIC_BLOCKS)


class FastPath:
    """One keyed instance's ``struct hctr2_fast`` per SIMD choice (None
    where the children offer no entries for it), with the records that keep
    their pointers alive."""

    __slots__ = ("structs", "records")

    def __init__(self, structs, records) -> None:
        self.structs = structs
        self.records = records

    @property
    def rule(self) -> SimdRule:
        return ANY_LENGTH if self.structs[False] is not None else SIMD_ONLY

    def wipe(self) -> None:
        """Zero the structs: L, the hash states and the raw pointers."""
        for f in self.structs.values():
            if f is not None:
                ffi.memmove(f, bytes(ffi.sizeof(f[0])), ffi.sizeof(f[0]))


def _struct(ctx, simd: bool):
    """(struct hctr2_fast *, records) for ``simd``, or None."""
    b = entries(ctx.blockcipher, Kind.BLOCK, simd)
    x = entries(ctx.xctr, Kind.XCTR, simd)
    p = entries(ctx.polyval, Kind.POLYVAL, simd)
    if b is None or x is None or p is None:
        return None
    f = ffi.new("struct hctr2_fast *")
    f.block_encrypt = ffi.cast("hctr2_block_fn", b.encrypt)
    f.block_decrypt = ffi.cast("hctr2_block_fn", b.decrypt)
    f.block_ctx = ffi.cast("void *", b.key)
    f.xctr_crypt = ffi.cast("hctr2_xctr_fn", x.crypt)
    f.xctr_key = ffi.cast("void *", x.key)
    f.polyval_blocks = ffi.cast("polyval_blocks_fn", p.blocks)
    f.polyval_key = ffi.cast("struct polyval_key *", p.key)
    lib.hctr2_fast_setup(f, bytes(ctx.L), _SETUP_BLOCKS)
    return f, (b, x, p)


def build(ctx) -> Optional[FastPath]:
    """The instance's FastPath after setkey, or None when a child offers no
    C entries where SIMD may run (the composed path is used).  The structs
    are context attributes too (``fast_generic``, ``fast_simd``), so that
    crypto_api.tfm.wipe_ctx zeroes them with the rest of the key material."""
    structs, records = {}, []
    for simd in (False, True):
        got = _struct(ctx, simd)
        structs[simd] = None if got is None else got[0]
        if got is not None:
            records.append(got[1])
    if structs[True] is None:
        if structs[False] is not None:
            FastPath(structs, records).wipe()
        return None
    ctx.fast_generic, ctx.fast_simd = structs[False], structs[True]
    return FastPath(structs, records)


def drop(ctx) -> None:
    fast = getattr(ctx, "fast", None)
    ctx.fast = ctx.fast_generic = ctx.fast_simd = None
    if fast is not None:
        fast.wipe()


def _crypt(tfm, src, dst, n: int, tweak, enc: bool) -> bool:
    """One C call over contiguous ``src``/``dst`` of ``n`` bytes, or False
    (no fast path, a trace recording, no SIMD for a SIMD-only child)."""
    fast = tfm.ctx.fast
    if fast is None:
        return False
    choice = fast.rule.choice(n)
    if choice == DECLINE or (choice == GENERIC and fast.structs[False] is None):
        return False
    simd = choice == SIMD
    if n < BLOCK:
        raise CryptoError(EINVAL, f"{tfm.alg.cra_driver_name}: message is {n} bytes, at least "
                                  f"{BLOCK} are required")
    if simd:
        capi.kernel_fpu_begin()
    try:
        lib.hctr2_crypt(fast.structs[simd], ffi.from_buffer("uint8_t[]", dst, require_writable=True),
                        src if type(src) is bytes else ffi.from_buffer("uint8_t[]", src),
                        n, bytes(tweak[:TWEAK_SIZE]), enc)
    finally:
        if simd:
            capi.kernel_fpu_end()
    return True


def request(req, enc: bool) -> bool:
    """A request over one contiguous buffer per side in one C call, or False."""
    if req.tfm.ctx.fast is None:
        return False
    views = sg_linear_views(req.src, req.dst, req.cryptlen)
    if views is None:
        return False
    return _crypt(req.tfm, views[0], views[1], req.cryptlen, bytes(memoryview(req.iv)[:TWEAK_SIZE]), enc)


def encrypt_contiguous(tfm, src, dst, n, iv) -> bool:
    return _crypt(tfm, src, dst, n, iv, True)


def decrypt_contiguous(tfm, src, dst, n, iv) -> bool:
    return _crypt(tfm, src, dst, n, iv, False)


def direct(tfm, encrypt: bool):
    """``SkcipherAlg.direct``: hctr2_encrypt/decrypt through
    crypto_api.direct.skcipher_direct, None without a fast path; messages
    under 16 bytes are left to the full path, which refuses them."""
    fast = tfm.ctx.fast
    if fast is None:
        return None
    simd = fast.structs[True]
    generic = fast.structs[False] if fast.structs[False] is not None else simd
    return skcipher_direct(_CRYPT_PTRS[encrypt], generic, simd, TWEAK_SIZE, rule=fast.rule,
                           min_len=BLOCK, returns_int=True, keep=fast.records)
