"""Shared set-up of the x86 NHPoly1305 drivers (nhpoly1305-sse2/-avx2-glue.c).

The drivers differ only in the NH code and the CPU features they need; both
use the generic NHPoly1305 streaming code with the SIMD NH inside FPU
sections of at most 4 KiB and the 64-bit-limb Poly1305 core for the
Poly1305 step (see crypto_api.algs.nhpoly1305_generic.nhpoly1305_alg).
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.algs.nhpoly1305_generic import nh_from_address, nhpoly1305_alg
from crypto_api.algs.poly1305_generic import ops_from_address


def x86_64_poly_ops():
    from crypto_api.arch.x86._poly1305_x86_64 import lib
    return ops_from_address(lib.poly1305_x86_64_ops_address())


def make_alg(driver: str, priority: int, nh_address: int) -> capi.ShashAlg:
    return nhpoly1305_alg(driver, priority, nh_simd=nh_from_address(nh_address),
                          poly_ops=x86_64_poly_ops())
