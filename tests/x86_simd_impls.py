"""The x86 SIMD cores of a C-level test, one per ISA, each skipped where the CPU lacks its ISA.

``Impl(isa, module, features, entry)`` holds a cffi extension's ffi/lib and its
entry point ``<entry><isa>`` (e.g. ``chacha_dosimd_avx2``, ``nh_sse2``) as
``fn``; ``impl_params(impls)`` makes them pytest parameters, skipped with the
missing features named (crypto_api.arch.x86._cpufeatures decides).
"""

import pytest

from crypto_api.arch.x86 import _cpufeatures


def cpu_has(name):
    return bool(_cpufeatures.lib.cpu_has(name.encode()))


class Impl:
    def __init__(self, isa, module, features, entry):
        self.isa = isa
        self.ffi = module.ffi
        self.lib = module.lib
        self.fn = getattr(module.lib, entry + isa)
        self.features = features

    def __repr__(self):
        return self.isa


def impl_params(impls):
    out = []
    for impl in impls:
        missing = [f for f in impl.features if not cpu_has(f)]
        marks = [pytest.mark.skipif(bool(missing),
                                    reason="CPU lacks %s" % "/".join(missing).upper())]
        out.append(pytest.param(impl, id=impl.isa, marks=marks))
    return out
