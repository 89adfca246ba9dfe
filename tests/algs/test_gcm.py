"""gcm(aes) and gcm_base through the public API (crypto/gcm.c, NIST SP 800-38D).

All 540 NIST CAVP records of aes-gcm.json (tags 4..16 bytes, 15 that must
fail) through the default instance and the all-generic one; random keys,
IVs, AD and lengths against ``cryptography``'s AESGCM, through the one-call
methods and through kernel-style requests over random scatterlist layouts,
in place and out of place; EBADMSG with what the kernel leaves in dst; the
kernel's refusals (tag length, key length, cryptlen, template children);
names, priority and the self-test with fuzzing against the generic instance.
"""

import logging

import pytest
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from hypothesis import HealthCheck, given, settings, strategies as st

import crypto_api as capi
from crypto_api import registry, testmgr
from crypto_api.errors import EBADMSG, EINVAL, ENOKEY
from crypto_api.testmgr.vectors import load_json, suite
from aead_vectors import check_vector, unhex
from drawn_bytes import exactly
from sglayout import gather, layouts, outside, scatter

VECTORS = load_json("aes-gcm.json")["vectors"]
VALID = [v for v in VECTORS if v["valid"]]
GCM = "gcm(aes)"
GENERIC = "gcm_base(ctr(aes-generic),ghash-generic)"
AUTHSIZES = (4, 8, 12, 13, 14, 15, 16)
FUNNY = dict(suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)


@pytest.fixture(scope="module")
def tfms():
    out = {name: capi.crypto_alloc_aead(name) for name in (GCM, GENERIC)}
    yield out
    for t in out.values():
        t.free()


def request(tfm, src, dst, cryptlen, assoclen, iv, flags=0, complete=None, data=None):
    req = capi.aead_request_alloc(tfm)
    capi.aead_request_set_callback(req, flags, complete, data)
    capi.aead_request_set_crypt(req, src, dst, cryptlen, iv)
    capi.aead_request_set_ad(req, assoclen)
    return req


def reference(key, nonce, pt, ad, authsize=16):
    """ciphertext ‖ tag truncated to authsize (a GCM tag is truncated from the left)."""
    out = AESGCM(key).encrypt(nonce, pt, ad)
    return out[:len(pt) + authsize]


def run(tfm, encrypt, req):
    return (capi.crypto_aead_encrypt if encrypt else capi.crypto_aead_decrypt)(req)


def wait_run(tfm, encrypt, req_args):
    """A request on a possibly asynchronous tfm, waited for (the default gcm(aes)
    is asynchronous where the best ctr(aes) is)."""
    wait = capi.crypto_init_wait()
    req = request(tfm, *req_args, flags=capi.CRYPTO_TFM_REQ_MAY_BACKLOG,
                  complete=capi.crypto_req_done, data=wait)
    return capi.crypto_wait_req(run(tfm, encrypt, req), wait)


# ---------------------------------------------------------------- official vectors

def test_the_vector_file_holds_the_nist_records_in_the_kernels_form():
    assert len(VECTORS) == 540 and len(VECTORS) - len(VALID) == 15
    assert {len(v["tag"]) // 2 for v in VECTORS} == set(AUTHSIZES)
    assert {len(v["key"]) // 2 for v in VECTORS} == {16, 24, 32}
    for v in VALID:
        b = unhex(v)
        assert b["kernel_ctext"] == b["ciphertext"] + b["tag"]
        assert (b["kernel_key"], b["kernel_iv"], b["kernel_assoc"]) == (b["key"], b["nonce"], b["aad"])
    testmgr_ids = [v.id for v in suite(GCM)]
    assert len(testmgr_ids) == 36 and testmgr_ids == [v["id"] for v in VECTORS if v["testmgr"]]


@pytest.mark.parametrize("generic", [False, True], ids=["default", "generic"])
@pytest.mark.parametrize("vec", VECTORS, ids=[v["id"] for v in VECTORS])
def test_vector_through_the_one_call_methods(tfms, vec, generic):
    check_vector(tfms[GENERIC if generic else GCM], vec)


@pytest.mark.parametrize("inplace", [False, True], ids=["out-of-place", "in-place"])
@pytest.mark.parametrize("vec", VALID[::9], ids=[v["id"] for v in VALID[::9]])
def test_vector_through_requests(tfms, vec, inplace):
    """src = AD ‖ text, dst = AD region ‖ output; out of place the AD region of dst
    is never written."""
    b = unhex(vec)
    tfm = tfms[GENERIC]
    tfm.setkey(b["kernel_key"])
    tfm.setauthsize(len(b["tag"]))
    ad, pt, ct = b["kernel_assoc"], b["plaintext"], b["kernel_ctext"]
    for encrypt, inp, out in ((True, pt, ct), (False, ct, pt)):
        src = bytearray(ad + inp + (bytes(len(b["tag"])) if encrypt and inplace else b""))
        dst = src if inplace else bytearray(b"\xee" * (len(ad) + len(out)))
        req = request(tfm, capi.sg_init_one(src), capi.sg_init_one(dst), len(inp), len(ad),
                      bytearray(b["kernel_iv"]))
        assert run(tfm, encrypt, req) == 0
        assert bytes(dst[len(ad):len(ad) + len(out)]) == out
        assert bytes(dst[:len(ad)]) == (ad if inplace else b"\xee" * len(ad))


# ---------------------------------------------------------------- against cryptography

@settings(max_examples=60, **FUNNY)
@given(klen=st.sampled_from([16, 24, 32]), data=st.data(), nonce=exactly(12),
       ad=st.binary(max_size=200), pt=st.binary(max_size=500), authsize=st.sampled_from(AUTHSIZES))
def test_matches_cryptography_over_random_lengths_and_layouts(tfms, klen, data, nonce, ad, pt,
                                                             authsize):
    key = data.draw(exactly(klen))
    ref = reference(key, nonce, pt, ad, authsize)
    for name in (GCM, GENERIC):
        tfm = tfms[name]
        tfm.setkey(key)
        tfm.setauthsize(authsize)
        assert tfm.encrypt(pt, nonce, ad) == ref
        assert tfm.decrypt(ref, nonce, ad) == pt
        # scattered requests: entry boundaries anywhere across AD, text and tag
        src_layout = data.draw(layouts(len(ad) + len(pt)))
        dst_layout = data.draw(layouts(len(ad) + len(ref)))
        src, sbufs = scatter(ad + pt, src_layout, b"\x5a")
        dst, dbufs = scatter(bytes(len(ad) + len(ref)), dst_layout, b"\xa5")
        around = outside(dbufs, dst_layout)
        assert wait_run(tfm, True, (src, dst, len(pt), len(ad), bytearray(nonce))) == 0
        assert gather(dbufs, dst_layout) == bytes(len(ad)) + ref     # AD region untouched
        assert outside(dbufs, dst_layout) == around
        assert gather(sbufs, src_layout) == ad + pt
        # decryption in place over another layout
        layout = data.draw(layouts(len(ad) + len(ref)))
        sgl, bufs = scatter(ad + ref, layout, b"\x33")
        assert wait_run(tfm, False, (sgl, sgl, len(ref), len(ad), bytearray(nonce))) == 0
        assert gather(bufs, layout)[:len(ad) + len(pt)] == ad + pt


# ---------------------------------------------------------------- inauthentic inputs

KEY = bytes(range(16))
NONCE = bytes(range(100, 112))
AD = b"associated data"
PT = bytes(range(200))


@pytest.mark.parametrize("where", ["tag", "text", "ad", "iv"])
def test_any_change_is_ebadmsg_and_the_one_call_decrypt_releases_nothing(tfms, where):
    for tfm in tfms.values():
        tfm.setkey(KEY)
        tfm.setauthsize(16)
        ct = bytearray(reference(KEY, NONCE, PT, AD))
        ad, iv = bytearray(AD), bytearray(NONCE)
        {"tag": ct, "text": ct, "ad": ad, "iv": iv}[where][-1 if where == "tag" else 3] ^= 1
        out = bytearray(b"\x77" * len(PT))
        with pytest.raises(capi.CryptoError) as e:
            tfm.decrypt(bytes(ct), bytes(iv), bytes(ad), out=out)
        assert e.value.errno == EBADMSG and "tag mismatch" in str(e.value)
        assert out == b"\x77" * len(PT)


def test_the_request_path_leaves_the_plaintext_in_dst_on_ebadmsg_as_the_kernel_does(tfms):
    tfm = tfms[GENERIC]
    tfm.setkey(KEY)
    tfm.setauthsize(12)
    ct = bytearray(reference(KEY, NONCE, PT, AD, 12))
    ct[-1] ^= 0x80
    src = bytearray(AD + ct)
    dst = bytearray(len(AD) + len(PT))
    req = request(tfm, capi.sg_init_one(src), capi.sg_init_one(dst), len(ct), len(AD),
                  bytearray(NONCE))
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_aead_decrypt(req)
    assert e.value.errno == EBADMSG
    assert bytes(dst[len(AD):]) == PT       # decrypted before the comparison


# ---------------------------------------------------------------- refusals

@pytest.mark.parametrize("authsize", [0, 1, 2, 3, 5, 6, 7, 9, 10, 11, 17])
def test_setauthsize_takes_4_8_and_12_to_16(tfms, authsize):
    tfm = tfms[GENERIC]
    tfm.setauthsize(13)
    with pytest.raises(capi.CryptoError) as e:
        tfm.setauthsize(authsize)
    assert e.value.errno == EINVAL and GENERIC in str(e.value)
    assert tfm.authsize == 13                  # a refusal leaves the tag length
    for good in AUTHSIZES:
        tfm.setauthsize(good)
        assert tfm.authsize == good


@pytest.mark.parametrize("klen", [0, 1, 15, 17, 20, 31, 33, 64])
def test_key_lengths_are_aes_ones(klen):
    with capi.crypto_alloc_aead(GENERIC) as tfm:
        with pytest.raises(capi.CryptoError) as e:
            tfm.setkey(bytes(klen))
        assert e.value.errno == EINVAL
        with pytest.raises(capi.CryptoError) as e:     # a failed setkey leaves no key
            tfm.encrypt(b"", NONCE)
        assert e.value.errno == ENOKEY


def test_iv_and_cryptlen_refusals(tfms):
    tfm = tfms[GENERIC]
    tfm.setkey(KEY)
    tfm.setauthsize(16)
    for iv in (bytes(8), bytes(16)):
        with pytest.raises(capi.CryptoError) as e:
            tfm.encrypt(b"x", iv)
        assert e.value.errno == EINVAL and "IV" in str(e.value)
    src = bytearray(15)
    req = request(tfm, capi.sg_init_one(src), capi.sg_init_one(src), 15, 0, bytearray(NONCE))
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_aead_decrypt(req)
    assert e.value.errno == EINVAL and "16-byte tag" in str(e.value)


@pytest.mark.parametrize("name, words", [
    ("gcm_base(cbc(aes-generic),ghash-generic)", "no CTR mode"),
    ("gcm_base(ctr(aes-generic),sha256-generic)", "32-byte digest"),
    ("gcm(aes,aes)", "takes 1 parameter"),
    ("gcm_base(ctr(aes-generic))", None),
])
def test_template_refusals(name, words):
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_aead(name)
    assert e.value.errno in ((EINVAL,) if words else (EINVAL, capi.errors.ENOENT))
    if words:
        assert words in str(e.value)


# ---------------------------------------------------------------- names and self-tests

def best(name):
    return max((a for a in registry.snapshot() if a.cra_name == name and a.cra_flags
                & capi.CRYPTO_ALG_TESTED and not a.cra_flags & capi.CRYPTO_ALG_INTERNAL),
               key=lambda a: a.cra_priority)


def test_names_and_priority_follow_the_best_children():
    capi.request_module("crypto-ctr(aes)")          # every ctr(aes) and ghash driver there is
    capi.request_module("crypto-ghash")
    # by the template's own name: on x86 a plain gcm(aes) finds generic-gcm-aesni
    # (tests/arch/test_aesni_gcm.py) before any template instance is made
    with capi.crypto_alloc_aead("gcm_base(ctr(aes),ghash)") as tfm:
        ctr, ghash = best("ctr(aes)"), best("ghash")
        assert tfm.alg.cra_name == GCM
        assert tfm.driver_name == f"gcm_base({ctr.cra_driver_name},{ghash.cra_driver_name})"
        assert tfm.alg.cra_priority == (ctr.cra_priority + ghash.cra_priority) // 2
        assert (tfm.ivsize, tfm.maxauthsize, tfm.blocksize) == (12, 16, 1)
        assert tfm.alg.cra_module == "gcm"
    with capi.crypto_alloc_aead(GENERIC) as tfm:
        assert (tfm.alg.cra_name, tfm.driver_name, tfm.alg.cra_priority) == (GCM, GENERIC, 100)
        assert not tfm.alg.cra_flags & capi.CRYPTO_ALG_ASYNC


def test_the_table_entry():
    desc = testmgr.find_test(GCM)
    assert (desc.test, desc.fips_allowed, desc.aad_iv) == ("aead", True, False)
    assert testmgr.generic_driver_name(GCM, desc) == GENERIC


def test_full_self_tests_fuzz_the_default_instance_against_the_generic(selftest_level, caplog):
    saved = testmgr.get_fuzz_iterations(), testmgr.get_fuzz_seed()
    selftest_level("full")
    testmgr.set_fuzz_iterations(2)
    testmgr.set_fuzz_seed(11)
    try:
        with capi.crypto_alloc_aead(GCM) as tfm, caplog.at_level(logging.INFO, logger="crypto_api"):
            assert testmgr.alg_test(tfm.driver_name, GCM) == 0
    finally:
        testmgr.set_fuzz_iterations(saved[0])
        testmgr.set_fuzz_seed(saved[1])
    assert f"alg: self-tests for {tfm.driver_name} ({GCM}) passed" in caplog.text
    if tfm.driver_name != GENERIC:
        assert "skipping comparison" not in caplog.text
