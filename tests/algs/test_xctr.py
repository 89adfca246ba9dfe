"""The xctr template through the public API (crypto/xctr.c, 6.0).

The google/hctr2 vectors both ways on the generic and the best instance, a
cross-check against XCTR written from the HCTR2 paper (tests/hctr2_ref.py)
over random keys, IVs, lengths and scatterlist layouts, the IV left as it
was, the instance's fields and the refusals.
"""

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import crypto_api as capi
from crypto_api.errors import EINVAL
from crypto_api.testmgr import alg_test
from crypto_api.testmgr.vectors import load_json
from hctr2_ref import xctr as ref_xctr
from sglayout import gather, layouts, outside, scatter

VECS = load_json("aes-xctr.json")["vectors"]
NAMES = ("xctr(aes-generic)", "xctr(aes)")


@pytest.fixture(scope="module")
def tfms():
    ts = {n: capi.crypto_alloc_skcipher(n) for n in NAMES}
    yield ts
    for t in ts.values():
        t.free()


def test_the_reference_agrees_with_the_official_vectors():
    for v in VECS:
        k, iv, p = (bytes.fromhex(v[f]) for f in ("key", "iv", "plaintext"))
        assert ref_xctr(k, iv, p).hex() == v["ciphertext"]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("vec", VECS, ids=[v["id"] for v in VECS])
def test_official_vector_both_ways(tfms, name, vec):
    t = tfms[name]
    k, iv, p, c = (bytes.fromhex(vec[f]) for f in ("key", "iv", "plaintext", "ciphertext"))
    t.setkey(k)
    assert t.encrypt(p, iv) == c
    assert t.decrypt(c, iv) == p


def test_instance_fields():
    with capi.crypto_alloc_skcipher("xctr(aes-generic)") as t:
        a = t.alg
        assert (a.cra_name, a.cra_driver_name) == ("xctr(aes)", "xctr(aes-generic)")
        with capi.crypto_alloc_cipher("aes-generic") as c:
            assert a.cra_priority == c.alg.cra_priority
        assert (t.ivsize, t.blocksize, a.chunksize, a.min_keysize, a.max_keysize) == (16, 1, 16, 16, 32)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key=st.sampled_from([16, 24, 32]).flatmap(lambda n: st.binary(min_size=n, max_size=n)),
       iv=st.binary(min_size=16, max_size=16), n=st.integers(0, 600), name=st.sampled_from(NAMES),
       data=st.data())
def test_random_inputs_and_layouts_match_the_paper(tfms, key, iv, n, name, data):
    msg = data.draw(st.binary(min_size=n, max_size=n))
    t = tfms[name]
    t.setkey(key)
    want = ref_xctr(key, iv, msg)
    layout = data.draw(layouts(n))
    src, sbufs = scatter(msg, layout, b"\xa5")
    dlayout = data.draw(layouts(n))
    dst, dbufs = scatter(bytes(n), dlayout, b"\x5a")
    around = outside(dbufs, dlayout)
    ivbuf = bytearray(iv)
    req = capi.skcipher_request_alloc(t)
    capi.skcipher_request_set_crypt(req, src, dst, n, ivbuf)
    capi.crypto_skcipher_encrypt(req)
    assert gather(dbufs, dlayout) == want
    assert outside(dbufs, dlayout) == around
    assert bytes(ivbuf) == iv           # the kernel XORs the counter in and out again
    assert t.decrypt(want, iv) == msg


def test_a_block_cipher_of_another_block_size_is_refused(register, selftest_level):
    """The inner cipher must have 16-byte blocks: an 8-byte-block plug-in is named."""
    selftest_level("off")
    register(capi.CipherAlg(
        cra_name="regtest-blk8", cra_driver_name="regtest-blk8-drv", cra_blocksize=8,
        min_keysize=16, max_keysize=16, setkey=lambda tfm, key: None,
        encrypt=lambda tfm, d, s: None, decrypt=lambda tfm, d, s: None))
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_skcipher("xctr(regtest-blk8)")
    assert e.value.errno == EINVAL and "regtest-blk8-drv" in str(e.value) and "16" in str(e.value)


def test_the_self_test_manager_passes_the_generic_and_the_best_instance():
    for name in NAMES:
        with capi.crypto_alloc_skcipher(name) as t:
            assert alg_test(t.driver_name, "xctr(aes)") == 0


@settings(max_examples=30, deadline=None)
@given(key=st.sampled_from([16, 24, 32]).flatmap(lambda n: st.binary(min_size=n, max_size=n)),
       iv=st.binary(min_size=16, max_size=16), msg=st.binary(max_size=600), simd=st.booleans())
def test_the_xctr_offer_is_the_paper_xctr(key, iv, msg, simd):
    """The XCTR C entry (crypto_api.cinterface) of xctr(aes-generic): the
    C loop over the cipher's block function, from block 1."""
    from crypto_api.cinterface import Kind, entries
    from xctr_entry import run_xctr_entry
    with capi.crypto_alloc_skcipher("xctr(aes-generic)") as t:
        assert entries(t, Kind.XCTR, simd) is None           # no key yet
        t.setkey(key)
        assert run_xctr_entry(entries(t, Kind.XCTR, simd), msg, iv) == ref_xctr(key, iv, msg)
