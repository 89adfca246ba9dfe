"""The v5.0 ChaCha glue's FPU model, seen through fpu_trace().

One kernel_fpu_begin/end around the walk; a 4096-byte budget used by the
non-final steps, with an end+begin (preemption point) each time it runs out;
no FPU at all for requests of 64 bytes or less or when SIMD is unusable.
The contiguous fast path (the glue loop in C) must record exactly the
sections of the step-by-step walk.
"""

import os
import random

import pytest

import crypto_api as capi
from crypto_api.arch.x86.cpufeature import boot_cpu_has

pytestmark = pytest.mark.skipif(not boot_cpu_has("ssse3"), reason="CPU lacks SSSE3: no x86 SIMD drivers")


@pytest.fixture(scope="module")
def tfm():
    capi.load_all()
    t = capi.crypto_alloc_skcipher("xchacha12-simd")
    t.setkey(os.urandom(32))
    yield t
    t.free()


def model_sections(src_off, dst_off, total):
    """The v5.0 rule, computed independently from the spec text (§6.1, §7.3)."""
    page, stride = 4096, 64
    sections, cur, budget = [], 0, 4096
    while total:
        n = min(total, page - src_off % page, page - dst_off % page)
        bsize = min(stride, total)
        step = bsize if n < bsize else n
        if step < total:
            step -= step % stride
            budget -= step
        cur += step
        if budget <= 0:
            sections.append(cur)
            cur, budget = 0, 4096
        src_off += step
        dst_off += step
        total -= step
    return sections + [cur]


@pytest.mark.parametrize("k", [1, 2, 3, 8])
def test_k_pages_give_k_sections(tfm, k):
    with capi.fpu_trace() as tr:
        tfm.encrypt(bytes(4096 * k), bytes(32))
    assert tr.nbytes == [4096] * k
    assert tr.yields == k - 1


@pytest.mark.parametrize("n", [1, 16, 63, 64])
def test_no_section_for_64_bytes_or_less(tfm, n):
    with capi.fpu_trace() as tr:
        tfm.encrypt(bytes(n), bytes(32))
    assert tr.sections == []


def test_first_section_for_65_bytes(tfm):
    with capi.fpu_trace() as tr:
        tfm.encrypt(bytes(65), bytes(32))
    assert tr.nbytes == [65]


def test_no_section_under_simd_disabled(tfm):
    with capi.simd_disabled(), capi.fpu_trace() as tr:
        tfm.encrypt(bytes(20000), bytes(32))
    assert tr.sections == []


def test_no_nested_begin_and_all_sections_closed(tfm):
    with capi.fpu_trace() as tr:
        tfm.encrypt(bytes(50000), bytes(32))
    assert all(s.closed for s in tr.sections)
    assert not capi.in_kernel_fpu()
    capi.kernel_fpu_begin()
    try:
        # inside an FPU section SIMD is not usable, so the driver falls back
        with capi.fpu_trace() as tr2:
            tfm.encrypt(bytes(5000), bytes(32))
        assert tr2.sections == []
    finally:
        capi.kernel_fpu_end()


def test_contiguous_fast_path_matches_walk_and_model(tfm):
    """Same bytes and same sections whether the request is one entry (C loop)
    or split into entries that the walk must handle step by step."""
    rng = random.Random(4096)
    key_iv = bytes(32)
    for _ in range(60):
        total = rng.randrange(65, 30000)
        off = rng.randrange(4096)
        data = rng.randbytes(total)
        one = bytearray(off) + bytearray(data) + bytearray(16)
        req = capi.skcipher_request_alloc(tfm)
        sg = capi.sg_init_one(one, off, total)
        capi.skcipher_request_set_crypt(req, sg, sg, total, bytearray(key_iv))
        with capi.fpu_trace() as fast:
            capi.crypto_skcipher_encrypt(req)
        # two entries over the same bytes, cut at a page boundary: the walk
        # gives the same steps, so the same bytes and sections
        two = bytearray(off) + bytearray(data) + bytearray(16)
        cut = min(total, 4096 - off) if off else min(total, 4096)
        sgl = capi.sg_init_table(2 if cut < total else 1)
        capi.sg_set_buf(sgl[0], two, off, cut)
        if cut < total:
            capi.sg_set_buf(sgl[1], two, off + cut, total - cut)
        req2 = capi.skcipher_request_alloc(tfm)
        capi.skcipher_request_set_crypt(req2, sgl, sgl, total, bytearray(key_iv))
        with capi.fpu_trace() as walked:
            capi.crypto_skcipher_encrypt(req2)
        assert one == two
        assert fast.nbytes == walked.nbytes == model_sections(off, off, total)
