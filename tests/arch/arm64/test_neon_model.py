"""The arm64 kernel-mode NEON model (v5.0): kernel_neon_begin/end in the shared FPU model."""

import pytest

import crypto_api as capi


def test_neon_sections_are_traced_with_their_unit():
    with capi.fpu_trace() as tr:
        capi.kernel_neon_begin()
        capi.fpu_account(320)
        capi.kernel_neon_end()
        capi.kernel_fpu_begin()
        capi.fpu_account(64)
        capi.kernel_fpu_end()
    assert tr.units == ["neon", "fpu"]
    assert tr.nbytes == [320, 64]
    assert [s.unit for s in tr.sections] == ["neon", "fpu"]


def test_nested_user_sees_may_use_simd_false_and_nested_begin_is_a_bug():
    capi.kernel_neon_begin()
    try:
        assert not capi.may_use_simd() and not capi.crypto_simd_usable()
        assert capi.simd_choice() == capi.GENERIC
        with pytest.raises(capi.FpuUsageError, match="nested"):
            capi.kernel_neon_begin()
        with pytest.raises(capi.FpuUsageError, match="neon section"):
            capi.kernel_fpu_end()           # the open section is a NEON one
    finally:
        capi.kernel_neon_end()
    assert capi.may_use_simd()
    with pytest.raises(capi.FpuUsageError, match="no FPU section"):
        capi.kernel_neon_end()


def test_interrupts_and_nosimd():
    with capi.interrupt_context():
        assert not capi.may_use_simd()
        with pytest.raises(capi.FpuUsageError, match="interrupt"):
            capi.kernel_neon_begin()
    with capi.simd_disabled():
        assert capi.may_use_simd() and not capi.crypto_simd_usable()


def test_yield_keeps_the_unit():
    with capi.fpu_trace() as tr:
        capi.kernel_neon_begin()
        capi.kernel_fpu_yield()
        capi.kernel_neon_end()
    assert tr.units == ["neon", "neon"]
