"""sha256-ni / sha224-ni (arch/x86/sha256_ssse3_glue.py, arch/x86/sha256_ni.c):
FIPS 180-2 vectors, any message in any pieces against hashlib, the FPU
sections, and the generic fallback when SIMD is unusable."""

import hashlib

import pytest
from hypothesis import given, settings, strategies as st

import crypto_api as capi
from crypto_api.arch.x86.cpufeature import IS_X86, boot_cpu_has
from crypto_api.testmgr.vectors import load_json
from shash_pieces import digest_in_pieces

pytestmark = pytest.mark.skipif(not IS_X86 or not boot_cpu_has("sha"), reason="x86 with the SHA extensions only")


@pytest.mark.parametrize("v", load_json("sha256.json")["vectors"], ids=lambda v: v["id"])
def test_vectors(v):
    with capi.crypto_alloc_shash(v["kernel_alg"] + "-ni") as h:
        assert h.digest(bytes.fromhex(v["message"])).hex() == v["digest"]


def test_best_sha256_is_the_ni_driver():
    for name in ("sha256", "sha224"):
        with capi.crypto_alloc_shash(name) as h:
            assert (h.driver_name, h.alg.cra_priority, h.alg.cra_module) == (f"{name}-ni", 250, "sha256_ssse3")


@settings(max_examples=80, deadline=None)
@given(msg=st.binary(max_size=3000), cuts=st.lists(st.integers(0, 3000), max_size=5),
       name=st.sampled_from(["sha224", "sha256"]))
def test_any_message_in_any_pieces(msg, cuts, name):
    want = hashlib.new(name, msg).digest()
    with capi.crypto_alloc_shash(name + "-ni") as h:
        assert h.digest(msg) == want
        assert digest_in_pieces(h, msg, cuts) == want


def test_sections_and_fallback():
    data = bytes(range(256)) * 40
    want = hashlib.sha256(data).digest()
    with capi.crypto_alloc_shash("sha256-ni") as h:
        with capi.fpu_trace() as tr:
            assert h.digest(data) == want
        assert tr.sections and all(s.closed for s in tr.sections)
        for ctx in (capi.simd_disabled, capi.interrupt_context):
            with capi.fpu_trace() as tr, ctx():
                assert h.digest(data) == want
            assert tr.sections == [], ctx
