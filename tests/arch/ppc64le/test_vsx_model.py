"""The powerpc VSX bracket in the shared FPU model: enable_kernel_vsx /
disable_kernel_vsx (preemption off in between), unit "vsx" in the trace,
may_use_simd() false in interrupt context and inside a section."""

import pytest

import crypto_api as capi
from crypto_api.fpu import FpuUsageError


def test_sections_are_traced_with_unit_vsx():
    with capi.fpu_trace() as t:
        capi.enable_kernel_vsx()
        assert not capi.may_use_simd() and not capi.crypto_simd_usable()
        capi.fpu_account(48)
        capi.disable_kernel_vsx()
        assert capi.may_use_simd()
    assert t.units == ["vsx"] and t.nbytes == [48]


def test_nesting_sleeping_and_mismatched_units_are_bugs():
    capi.enable_kernel_vsx()
    try:
        with pytest.raises(FpuUsageError):
            capi.enable_kernel_vsx()
        with pytest.raises(FpuUsageError):
            capi.might_sleep("test")
        with pytest.raises(FpuUsageError):
            capi.kernel_neon_end()
    finally:
        capi.disable_kernel_vsx()
    with pytest.raises(FpuUsageError):
        capi.disable_kernel_vsx()


def test_interrupt_context_cannot_use_vsx():
    with capi.interrupt_context():
        assert not capi.may_use_simd()
        with pytest.raises(FpuUsageError):
            capi.enable_kernel_vsx()
