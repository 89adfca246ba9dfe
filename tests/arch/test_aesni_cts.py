"""cts-cbc-aes-aesni (aesni-intel_glue.c since 5.12: ``__cts-cbc-aes-aesni``,
priority 400, walksize 32, under the SIMD wrapper until 6.15): names and
sizes as /proc/crypto shows them, CBC-CS3 against an independent reference
over `cryptography` (tests/modes_ref.py) and against the cts template over
aes-generic (bytes and the IV left in the request), the refusal of texts
shorter than a block, one FPU section per request, and testmgr's full tests
(its cts(cbc(aes)) vectors, then fuzzing against cts(cbc(aes-generic)))."""

import pytest
from hypothesis import given, settings, strategies as st

import crypto_api as capi
from crypto_api.arch.x86.cpufeature import IS_X86, boot_cpu_has
from crypto_api.errors import EINVAL, CryptoError
from crypto_api.fpu import fpu_trace
from modes_ref import cts_cbc
from simd_pair import assert_simd_pair
from sglayout import gather, layouts, outside, scatter

pytestmark = pytest.mark.skipif(not (IS_X86 and boot_cpu_has("aes")), reason="x86 with AES-NI only")

DRIVER = "cts-cbc-aes-aesni"
KEYS = st.sampled_from([16, 24, 32]).flatmap(lambda n: st.binary(min_size=n, max_size=n))


def test_names_sizes_flags(proc_records):
    # by driver name: an earlier test of this process may have built the template's
    # cts(cbc-aes-aesni) at the same priority (which of the two answers "cts(cbc(aes))"
    # first in a fresh process is tests/kernels/test_x86_modes_versions.py's)
    with capi.crypto_alloc_skcipher(DRIVER) as tfm:
        assert tfm.alg.cra_name == "cts(cbc(aes))"
        recs = {r["driver"]: r for r in proc_records()}
    fields = {"priority": "400", "blocksize": "16", "min keysize": "16", "max keysize": "32",
              "ivsize": "16", "chunksize": "16", "type": "skcipher"}
    wrapper, inner = assert_simd_pair(recs, DRIVER, "cts(cbc(aes))", "aesni_intel", fields)
    # the kernel's walksize 32 on the internal algorithm; the SIMD wrapper does not copy it
    assert (inner["walksize"], wrapper["walksize"]) == ("32", "16")


@settings(max_examples=60, deadline=None)
@given(key=KEYS, iv=st.binary(min_size=16, max_size=16), msg=st.binary(min_size=16, max_size=600))
def test_against_the_reference_and_the_template(key, iv, msg):
    with capi.crypto_alloc_skcipher(DRIVER) as t, capi.crypto_alloc_skcipher("cts(cbc(aes-generic))") as g:
        t.setkey(key)
        g.setkey(key)
        ct = cts_cbc(key, iv, msg)
        iv_t, iv_g = bytearray(iv), bytearray(iv)
        assert t.encrypt(msg, iv_t) == ct == g.encrypt(msg, iv_g)
        assert iv_t == iv_g
        iv_t, iv_g = bytearray(iv), bytearray(iv)
        assert t.decrypt(ct, iv_t) == msg == g.decrypt(ct, iv_g)
        assert iv_t == iv_g


@settings(max_examples=30, deadline=None)
@given(data=st.data(), key=KEYS, iv=st.binary(min_size=16, max_size=16),
       msg=st.binary(min_size=16, max_size=700))
def test_scattered_requests_in_place(data, key, iv, msg):
    layout = data.draw(layouts(len(msg)))
    with capi.crypto_alloc_skcipher(DRIVER) as t:
        t.setkey(key)
        sgl, bufs = scatter(msg, layout, b"\x5a")
        around = outside(bufs, layout)
        req = capi.skcipher_request_alloc(t)
        capi.skcipher_request_set_crypt(req, sgl, sgl, len(msg), bytearray(iv))
        assert capi.crypto_skcipher_encrypt(req) == 0
        assert gather(bufs, layout) == cts_cbc(key, iv, msg) and outside(bufs, layout) == around


@pytest.mark.parametrize("n", [0, 1, 15])
def test_shorter_than_a_block_is_einval(n):
    with capi.crypto_alloc_skcipher(DRIVER) as t:
        t.setkey(bytes(16))
        with pytest.raises(CryptoError) as e:
            t.encrypt(bytes(n), bytes(16))
        assert e.value.errno == EINVAL and "cts-cbc-aes-aesni" in str(e.value) and str(n) in str(e.value)


@pytest.mark.parametrize("n", [16, 33, 3 * 4096 + 5])
def test_one_fpu_section_per_request_either_way(n):
    """The request path opens one section for CBC and stealing together (the
    kernel: CBC's per-step sections, then one for the last two blocks)."""
    with capi.crypto_alloc_skcipher(DRIVER) as t:
        t.setkey(bytes(32))
        for op in (t.encrypt, t.decrypt):
            with fpu_trace() as trace:
                op(bytes(n), bytes(16))
            assert trace.nbytes == [n], op


def test_selftest_manager_full(selftest_level):
    selftest_level("full")
    assert capi.testmgr.alg_test(DRIVER, "cts(cbc(aes))") == 0
