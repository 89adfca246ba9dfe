"""The XCTR generations of the 6.17+ AES-NI glue (xctr-aes-aesni-avx 500,
-vaes-avx2 600, -vaes-avx10_512 800, the kernel's -vaes-avx512): each against
XCTR written from the HCTR2 paper (tests/hctr2_ref.py) at the lengths where
the VAES loops hand over to the 128-bit code (whole loops of 16 or 32
blocks, then blocks, then a partial block), the IV left unchanged, split
requests over scattered buffers the same as one buffer (and nothing around
them written), and testmgr's full tests.  The composite
registry has them beside 6.0's xctr-aes-aesni; the versions that have which
are tests/kernels/test_x86_modes_versions.py's."""

import os

import pytest
from hypothesis import given, settings, strategies as st

import crypto_api as capi
from crypto_api.arch.x86.aesni_cpu import has_vaes_avx2, has_vaes_avx10
from crypto_api.arch.x86.cpufeature import IS_X86, boot_cpu_has
from hctr2_ref import xctr as ref_xctr
from sglayout import gather, layouts, outside, scatter

HAS_AVX = IS_X86 and boot_cpu_has("aes") and boot_cpu_has("avx")
pytestmark = pytest.mark.skipif(not HAS_AVX, reason="x86 with AES-NI and AVX only")

DRIVERS = (["xctr-aes-aesni-avx"] + (["xctr-aes-vaes-avx2"] if HAS_AVX and has_vaes_avx2() else [])
           + (["xctr-aes-vaes-avx10_512"] if HAS_AVX and has_vaes_avx10() else []))
# 256 / 512 bytes: one VAES loop of the 256- / 512-bit code; around them the 128-bit tail
SIZES = [0, 1, 15, 16, 17, 255, 256, 257, 511, 512, 513, 767, 1024, 1040, 4096 + 17, 65536 + 9]


@pytest.mark.parametrize("driver", DRIVERS)
@pytest.mark.parametrize("keylen", [16, 24, 32])
def test_lengths_against_the_paper(driver, keylen):
    key = os.urandom(keylen)
    with capi.crypto_alloc_skcipher(driver) as t:
        assert t.alg.cra_name == "xctr(aes)"
        t.setkey(key)
        for n in SIZES:
            iv, data = os.urandom(16), os.urandom(n)
            ivbuf = bytearray(iv)
            ct = t.encrypt(data, ivbuf)
            assert ct == ref_xctr(key, iv, data), n
            assert t.decrypt(ct, iv) == data and bytes(ivbuf) == iv, n


@settings(max_examples=30, deadline=None)
@given(data=st.data(), driver=st.sampled_from(DRIVERS),
       key=st.sampled_from([16, 24, 32]).flatmap(lambda n: st.binary(min_size=n, max_size=n)),
       iv=st.binary(min_size=16, max_size=16), msg=st.binary(max_size=2100))
def test_scattered_requests_match_one_buffer(data, driver, key, iv, msg):
    layout = data.draw(layouts(len(msg)))
    with capi.crypto_alloc_skcipher(driver) as t:
        t.setkey(key)
        sgl, bufs = scatter(msg, layout, b"\xa5")
        around = outside(bufs, layout)
        ivbuf = bytearray(iv)
        req = capi.skcipher_request_alloc(t)
        capi.skcipher_request_set_crypt(req, sgl, sgl, len(msg), ivbuf)
        assert capi.crypto_skcipher_encrypt(req) == 0     # SIMD usable: the wrapper runs it now
        assert gather(bufs, layout) == ref_xctr(key, iv, msg) and bytes(ivbuf) == iv
        assert outside(bufs, layout) == around


@pytest.mark.parametrize("driver", DRIVERS)
def test_selftest_manager_full(driver, selftest_level):
    selftest_level("full")
    assert capi.testmgr.alg_test(driver, "xctr(aes)") == 0
