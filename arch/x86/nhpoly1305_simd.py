"""Shared set-up of the x86 NHPoly1305 drivers (nhpoly1305-sse2/-avx2-glue.c).

The drivers differ only in the NH code and the CPU features they need; both
use the generic NHPoly1305 streaming code with the SIMD NH inside FPU
sections of at most 4 KiB and the 64-bit-limb Poly1305 core for the
Poly1305 step (see crypto_api.algs.nhpoly1305_generic.nhpoly1305_alg).
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.algs.nhpoly1305_generic import nhpoly1305_alg


def x86_64_poly_ops():
    """The 64-bit-limb core's ops table, typed as _poly1305's (ffi.include)."""
    from crypto_api.arch.x86._poly1305_x86_64 import ffi, lib
    return ffi.addressof(lib, "poly1305_x86_64_ops")


def make_alg(driver: str, priority: int, nh_simd) -> capi.ShashAlg:
    """``nh_simd``: the SIMD NH function (an ``nh_fn_t`` cdata)."""
    return nhpoly1305_alg(driver, priority, nh_simd=nh_simd, poly_ops=x86_64_poly_ops())
