"""The v5.0 ChaCha glue's FPU model, seen through fpu_trace().

One kernel_fpu_begin/end around the walk; a 4096-byte budget used by the
non-final steps, with an end+begin (preemption point) each time it runs out;
no FPU at all for requests of 64 bytes or less or when SIMD is unusable.
The contiguous path (the glue loop in C) must record exactly the
sections of the step-by-step walk.  The NHPoly1305 SIMD update (one section
per piece of at most 4096 bytes, none below 64 bytes) and Adiantum on the
SIMD drivers (hash pieces as sg_miter maps them, page by page) are checked
against the same kind of independent model.
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
    """The v5.0 rule, computed independently from v5.0's arch/x86/crypto/chacha_glue.c
    and crypto/skcipher.c."""
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


def nh_sections(n):
    """nhpoly1305-sse2/-avx2 update (arch/x86/crypto/nhpoly1305-*-glue.c): generic below 64 bytes, else one
    section per piece of at most 4096 bytes."""
    return [] if n < 64 else [min(4096, n - p) for p in range(0, n, 4096)]


def nh_driver():
    return "nhpoly1305-avx2" if boot_cpu_has("avx2") else "nhpoly1305-sse2"


def test_nhpoly1305_simd_sections():
    with capi.crypto_alloc_shash(nh_driver()) as h:
        h.setkey(os.urandom(1088))
        for n in (0, 63, 64, 4096, 4097, 10000):
            data = os.urandom(n)
            untraced = h.digest(data)            # one C call; traced: the real pieces
            with capi.fpu_trace() as tr:
                assert h.digest(data) == untraced
            assert tr.nbytes == nh_sections(n), n
            with capi.simd_disabled(), capi.fpu_trace() as tr:
                assert h.digest(data) == untraced
            assert tr.sections == []
        d = h.desc().init()
        with capi.fpu_trace() as tr:
            for n in (100, 40, 9000, 63):
                d.update(bytes(n))
            d.final()
        assert tr.nbytes == nh_sections(100) + nh_sections(9000)


def page_pieces(off, n):
    """What an atomic sg_miter maps of ``n`` bytes at ``off``: one page at a time."""
    out = []
    while n:
        k = min(n, 4096 - off % 4096)
        out.append(k)
        off += k
        n -= k
    return out


@pytest.mark.parametrize("n, off", [(64, 0), (65, 0), (512, 0), (4096, 0), (12345, 0), (8000, 100),
                                    (5000, 4000), (33, 4090)])
def test_adiantum_on_simd_drivers_sections(n, off):
    """Kernel order (crypto/adiantum.c): NH over the src bulk, the stream over stream_len,
    NH over the dst bulk; each hash update is one sg_miter page piece."""
    name = f"adiantum(xchacha12-simd,aes-generic,{nh_driver()})"
    with capi.crypto_alloc_skcipher(name) as t:
        t.setkey(os.urandom(32))
        bulk = n - 16
        stream = -(-bulk // 64) * 64 if -(-bulk // 64) * 64 <= n else bulk
        hashed = [s for k in page_pieces(off, bulk) for s in nh_sections(k)]
        chacha = model_sections(off, off, stream) if stream > 64 else []
        data = os.urandom(n)
        expect = t.encrypt(data, bytes(32))         # the one-call path, untraced
        buf = bytearray(off) + bytearray(data)
        sg = capi.sg_init_one(buf, off, n)
        req = capi.skcipher_request_alloc(t)
        capi.skcipher_request_set_crypt(req, sg, sg, n, bytearray(32))
        with capi.fpu_trace() as tr:
            capi.crypto_skcipher_encrypt(req)
        assert tr.nbytes == hashed + chacha + hashed
        assert buf[off:] == expect
        with capi.simd_disabled(), capi.fpu_trace() as tr:
            capi.crypto_skcipher_decrypt(req)
        assert tr.sections == [] and buf[off:] == data
