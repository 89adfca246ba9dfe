"""ghash-clmulni (arch/x86/ghash_clmulni_intel_glue.py over arch/x86/ghash_clmul.c):
the kernel's name, priority and module; the kernel's ghash vectors; any key
and message in any pieces against ghash-generic; one FPU section per update
(and per final with a partial block), none when SIMD is unusable; the
self-test manager's full tests; gcm(aes) picks it up as its GHASH child."""

import random

import pytest
from hypothesis import given, settings, strategies as st

import crypto_api as capi
from crypto_api.arch.x86.cpufeature import IS_X86, boot_cpu_has
from crypto_api.testmgr.vectors import load_json
from drawn_bytes import exactly
from shash_pieces import digest_in_pieces

pytestmark = pytest.mark.skipif(
    not IS_X86 or not (boot_cpu_has("pclmulqdq") and boot_cpu_has("ssse3")),
    reason="x86 with PCLMULQDQ and SSSE3 only")

DRIVER = "ghash-clmulni"


@pytest.fixture(scope="module")
def tfms():
    clmul, generic = capi.crypto_alloc_shash(DRIVER), capi.crypto_alloc_shash("ghash-generic")
    yield clmul, generic
    clmul.free()
    generic.free()


def test_name_priority_module(proc_records, tfms):
    (rec,) = [r for r in proc_records() if r["driver"] == DRIVER]
    assert (rec["name"], rec["priority"], rec["module"], rec["type"]) == \
        ("ghash", "400", "ghash_clmulni_intel", "shash")
    assert (rec["blocksize"], rec["digestsize"]) == ("16", "16")


@pytest.mark.parametrize("vec", load_json("ghash.json")["vectors"], ids=lambda v: v["id"])
def test_kernel_vectors(tfms, vec):
    clmul, _ = tfms
    clmul.setkey(bytes.fromhex(vec["key"]))
    assert clmul.digest(bytes.fromhex(vec["message"])).hex() == vec["digest"]


@settings(max_examples=80, deadline=None)
@given(key=exactly(16), msg=st.binary(max_size=700), cuts=st.lists(st.integers(0, 700), max_size=4))
def test_any_key_and_message_in_any_pieces_match_the_generic(tfms, key, msg, cuts):
    clmul, generic = tfms
    clmul.setkey(key)
    generic.setkey(key)
    want = generic.digest(msg)
    assert clmul.digest(msg) == want
    assert digest_in_pieces(clmul, msg, cuts) == want


def test_edge_keys_match_the_generic(tfms):
    """Keys with the top or bottom bit alone, all ones: the carries of the reduction."""
    clmul, generic = tfms
    msg = bytes(range(256)) * 3
    for key in (bytes(16), b"\x80" + bytes(15), bytes(15) + b"\x01", b"\xff" * 16,
                b"\x00" * 8 + b"\xff" * 8, b"\xff" * 8 + b"\x00" * 8):
        clmul.setkey(key)
        generic.setkey(key)
        assert clmul.digest(msg) == generic.digest(msg), key.hex()


def test_one_fpu_section_per_update_and_per_final_with_a_partial_block(tfms):
    clmul, generic = tfms
    rng = random.Random(3)
    key = rng.randbytes(16)
    clmul.setkey(key)
    generic.setkey(key)
    sizes = [16, 5, 11, 4096, 33]
    data = [rng.randbytes(n) for n in sizes]
    with capi.fpu_trace() as tr:
        d = clmul.desc().init()
        for chunk in data:
            d.update(chunk)
        digest = d.final()                      # 33 bytes ended the input: one partial block
    assert digest == generic.digest(b"".join(data))
    assert tr.nbytes == sizes + [16]
    assert all(s.closed for s in tr.sections)
    with capi.fpu_trace() as tr:                # whole blocks: the final computes nothing
        d = clmul.desc().init()
        d.update(bytes(64))
        d.final()
    assert tr.nbytes == [64]


def test_no_fpu_when_simd_is_unusable(tfms):
    clmul, generic = tfms
    data = random.Random(4).randbytes(1000)
    clmul.setkey(bytes(range(16)))
    generic.setkey(bytes(range(16)))
    for ctx in (capi.simd_disabled, capi.interrupt_context):
        with capi.fpu_trace() as tr, ctx():
            assert clmul.digest(data) == generic.digest(data)
        assert tr.sections == [], ctx


def test_selftest_manager_full(selftest_level):
    selftest_level("full")
    assert capi.testmgr.alg_test(DRIVER, "ghash") == 0


def test_gcm_aes_takes_the_best_ghash():
    capi.request_module("crypto-ghash")
    with capi.crypto_alloc_shash("ghash") as h:
        assert h.driver_name == DRIVER
    # the template by its own name: a plain gcm(aes) finds generic-gcm-aesni (test_aesni_gcm.py)
    with capi.crypto_alloc_aead("gcm_base(ctr(aes),ghash)") as t:
        assert t.driver_name.endswith(f",{DRIVER})")
