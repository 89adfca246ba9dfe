"""NHPoly1305 generic shash (crypto/nhpoly1305.c).

``nhpoly1305-generic`` (priority 100): key 1088 bytes (Poly1305 r ‖ NH key),
digest 16 bytes, no block size.  The streaming state machine is C
(algs/nhpoly1305.c) and takes the NH function and Poly1305 core as
arguments; :func:`nhpoly1305_alg` builds the SIMD variants too, whose update
runs SIMD NH in FPU sections of at most 4 KiB each, as fpu_trace() records
them (untraced, the same computation is one C call in one section), and
falls back to the generic update for short inputs or when SIMD is unusable.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.algs._poly1305 import ffi, lib
from crypto_api.algs.poly1305_generic import GENERIC_OPS
from crypto_api.cinterface import Kind, Nhpoly1305Entries, Offer
from crypto_api.errors import EINVAL, CryptoError
from crypto_api.fpu import DECLINE, GENERIC, SIMD
from crypto_api.direct import digest_direct
from crypto_api.simd_rule import SimdRule

MODULE_NAME = "nhpoly1305"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("nhpoly1305", "nhpoly1305-generic")

NHPOLY1305_KEY_SIZE = 1088
NHPOLY1305_DIGEST_SIZE = 16
SIMD_CHUNK = 4096
#: The SIMD NH runs for inputs of 64 bytes or more (v5.0's glues); the
#: descriptors' ``simd_rule``, which update, digest and the direct path apply.
NH_SIMD_RULE = SimdRule(above=63)
DESCSIZE = ffi.sizeof("struct nhpoly1305_state")
NH_GENERIC = ffi.addressof(lib, "nh_generic")
DIGEST_CALL = ffi.addressof(lib, "nhpoly1305_digest_call")

_from_buffer = ffi.from_buffer
_update = lib.nhpoly1305_update


def nhpoly1305_alg(driver: str, priority: int, nh_simd=None, poly_ops=GENERIC_OPS,
                   module: str = None) -> capi.ShashAlg:
    """An ``nhpoly1305`` shash: generic NH, or ``nh_simd`` inside FPU sections."""

    def setkey(tfm, key):
        if len(key) != NHPOLY1305_KEY_SIZE:
            raise CryptoError(EINVAL, f"{driver}: key is {len(key)} bytes, expected {NHPOLY1305_KEY_SIZE}")
        ctx = tfm.ctx
        k = getattr(ctx, "key", None)
        if k is None:
            k = ctx.key = ffi.new("struct nhpoly1305_key *")
        else:
            lib.crypto_memzero(k, ffi.sizeof(k[0]))
        lib.nhpoly1305_setkey(k, _from_buffer("uint8_t[]", key), poly_ops)

    nh_small = NH_GENERIC
    nh_bulk = nh_simd if nh_simd is not None else nh_small

    def nhpoly1305_entries(tfm, simd: bool) -> Nhpoly1305Entries:
        """The NHPOLY1305 offer: the SIMD NH for the bulk where allowed."""
        return Nhpoly1305Entries(nh_bulk=nh_bulk if simd else nh_small, nh_small=nh_small,
                                 poly=poly_ops, key=tfm.ctx.key)

    def exit_tfm(tfm):
        k = getattr(tfm.ctx, "key", None)
        if k is not None:
            lib.crypto_memzero(k, ffi.sizeof(k[0]))

    def init(desc):
        lib.nhpoly1305_init(_from_buffer("struct nhpoly1305_state *", desc.state), poly_ops)

    def update_generic(desc, data):
        buf = _from_buffer("uint8_t[]", data)
        _update(_from_buffer("struct nhpoly1305_state *", desc.state), desc.tfm.ctx.key,
                buf, len(buf), NH_GENERIC, poly_ops)

    def update_simd(desc, data):
        buf = _from_buffer("uint8_t[]", data)
        n = len(buf)
        choice = NH_SIMD_RULE.choice(n)
        st = _from_buffer("struct nhpoly1305_state *", desc.state)
        key = desc.tfm.ctx.key
        if choice == GENERIC:
            _update(st, key, buf, n, NH_GENERIC, poly_ops)
            return
        if choice == SIMD:
            # Same result in one C call; the 4 KiB sections are only made
            # (below) when a trace is recording them.
            capi.kernel_fpu_begin()
            try:
                _update(st, key, buf, n, nh_simd, poly_ops)
            finally:
                capi.kernel_fpu_end()
            return
        pos = 0
        while pos < n:
            chunk = min(n - pos, SIMD_CHUNK)
            capi.kernel_fpu_begin()
            _update(st, key, buf + pos, chunk, nh_simd, poly_ops)
            capi.fpu_account(chunk)
            capi.kernel_fpu_end()
            pos += chunk

    def final(desc):
        out = ffi.new("uint8_t[16]")
        lib.nhpoly1305_final(_from_buffer("struct nhpoly1305_state *", desc.state), desc.tfm.ctx.key,
                             out, NH_GENERIC, poly_ops)
        return bytes(ffi.buffer(out))

    def digest(desc, data):
        buf = _from_buffer("uint8_t[]", data)
        n = len(buf)
        choice = NH_SIMD_RULE.choice(n) if nh_simd is not None else GENERIC
        if choice == DECLINE:               # a trace records: the real sections
            init(desc)
            update_simd(desc, data)
            return final(desc)
        out = ffi.new("uint8_t[16]")
        simd = choice == SIMD
        if simd:
            capi.kernel_fpu_begin()
        try:
            lib.nhpoly1305_digest(desc.tfm.ctx.key, buf, n, out,
                                  nh_simd if simd else NH_GENERIC, NH_GENERIC, poly_ops)
        finally:
            if simd:
                capi.kernel_fpu_end()
        return bytes(ffi.buffer(out))

    def direct(tfm):
        """tfm.digest in one C call for any C-contiguous buffer, with the request
        path's rule: SIMD NH for 64 bytes or more when fpu.simd_choice() says
        SIMD; it declines such a digest while an fpu_trace() records.  The
        C entry point (crypto_api.direct.digest_direct); None where it is not built."""
        key = tfm.ctx.key
        generic = ffi.new("struct nhpoly1305_call *", {"key": key, "nh_bulk": NH_GENERIC, "poly": poly_ops})
        simd = generic if nh_simd is None else \
            ffi.new("struct nhpoly1305_call *", {"key": key, "nh_bulk": nh_simd, "poly": poly_ops})
        return digest_direct(DIGEST_CALL, generic, simd, NHPOLY1305_DIGEST_SIZE, rule=NH_SIMD_RULE,
                             keep=key)

    return capi.ShashAlg(
        cra_name="nhpoly1305", cra_driver_name=driver, cra_priority=priority,
        cra_blocksize=0, cra_module=module,
        digestsize=NHPOLY1305_DIGEST_SIZE, descsize=DESCSIZE,
        setkey=setkey, init=init, update=update_generic if nh_simd is None else update_simd,
        final=final, digest=digest, exit_tfm=exit_tfm, direct=direct,
        c_entries=(Offer(Kind.NHPOLY1305, nhpoly1305_entries),), simd_rule=NH_SIMD_RULE)


ALG = nhpoly1305_alg("nhpoly1305-generic", 100)


def module_init() -> None:
    capi.crypto_register_shash(ALG)


def module_exit() -> None:
    capi.crypto_unregister_shash(ALG)
