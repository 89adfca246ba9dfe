"""rfc4106(gcm(aes)) and rfc4543(gcm(aes)), the IPsec ESP forms (crypto/gcm.c; RFC 4106, RFC 4543).

rfc4106 against ``cryptography``'s AESGCM with the nonce salt ‖ IV and the
AD without its trailing IV copy; rfc4543 against AESGCM authenticating
AD region ‖ text with nothing encrypted; the IV copy in the AD is not what
rfc4106 uses (req->iv is) but is authenticated by rfc4543; out-of-place
rfc4543 copies src to dst; the kernel's refusals (key shorter than the
salt, tag lengths, assoclen 16/20 only, inner AEADs of the wrong shape);
names and priorities; the ESP vector of aes-gcm-rfc4106.json, the kernel's
two rfc4543 vectors (aes-gcm-rfc4543.json, one of them inauthentic) and the
self-test manager's full tests of both (fuzzing against the generic
instance, inauthentic inputs); a generic GCM that stops verifying tags fails
rfc4543's self-test on the inauthentic vector.
"""

import logging

import pytest
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from hypothesis import HealthCheck, given, settings, strategies as st

import crypto_api as capi
from crypto_api import testmgr
from crypto_api.errors import EBADMSG, EINVAL, ENOKEY
from crypto_api.testmgr.vectors import load_json, suite
from aead_vectors import check_vector, unhex
from drawn_bytes import exactly
from sglayout import gather, layouts, scatter

RFC4106 = "rfc4106(gcm(aes))"
RFC4543 = "rfc4543(gcm(aes))"
G4106 = "rfc4106(gcm_base(ctr(aes-generic),ghash-generic))"
G4543 = "rfc4543(gcm_base(ctr(aes-generic),ghash-generic))"
FUNNY = dict(suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)


@pytest.fixture(scope="module")
def tfms():
    out = {name: capi.crypto_alloc_aead(name) for name in (RFC4106, RFC4543, G4106, G4543)}
    yield out
    for t in out.values():
        t.free()


def request(tfm, src, dst, cryptlen, assoclen, iv):
    wait = capi.crypto_init_wait()
    req = capi.aead_request_alloc(tfm)
    capi.aead_request_set_callback(req, capi.CRYPTO_TFM_REQ_MAY_BACKLOG, capi.crypto_req_done, wait)
    capi.aead_request_set_crypt(req, src, dst, cryptlen, iv)
    capi.aead_request_set_ad(req, assoclen)
    return req, wait


def run(tfm, encrypt, *args):
    req, wait = request(tfm, *args)
    return capi.crypto_wait_req((capi.crypto_aead_encrypt if encrypt else capi.crypto_aead_decrypt)(req), wait)


@settings(max_examples=50, **FUNNY)
@given(klen=st.sampled_from([16, 24, 32]), data=st.data(), salt=exactly(4), iv=exactly(8),
       spi=st.sampled_from([8, 12]), pt=st.binary(max_size=400), authsize=st.sampled_from([8, 12, 16]))
def test_rfc4106_is_gcm_with_salt_and_an_iv_copy_outside_the_mac(tfms, klen, data, salt, iv, spi,
                                                                 pt, authsize):
    key, ad = data.draw(exactly(klen)), data.draw(exactly(spi))
    full = AESGCM(key).encrypt(salt + iv, pt, ad)
    ref = full[:len(pt) + authsize]
    for name in (RFC4106, G4106):
        tfm = tfms[name]
        tfm.setkey(key + salt)
        tfm.setauthsize(authsize)
        assert tfm.encrypt(pt, iv, ad + iv) == ref
        assert tfm.decrypt(ref, iv, ad + iv) == pt
        # req->iv is what counts: the copy in the AD is not authenticated
        assert tfm.decrypt(ref, iv, ad + bytes(b ^ 1 for b in iv)) == pt
        # scattered, out of place: the AD region of dst is not written
        src_layout = data.draw(layouts(spi + 8 + len(pt)))
        dst_layout = data.draw(layouts(spi + 8 + len(ref)))
        src, sbufs = scatter(ad + iv + pt, src_layout, b"\x5a")
        dst, dbufs = scatter(bytes(spi + 8 + len(ref)), dst_layout, b"\xa5")
        assert run(tfm, True, src, dst, len(pt), spi + 8, bytearray(iv)) == 0
        assert gather(dbufs, dst_layout) == bytes(spi + 8) + ref
        assert gather(sbufs, src_layout) == ad + iv + pt


@settings(max_examples=50, **FUNNY)
@given(klen=st.sampled_from([16, 24, 32]), data=st.data(), salt=exactly(4), iv=exactly(8),
       spi=st.sampled_from([8, 12]), pt=st.binary(max_size=400), inplace=st.booleans())
def test_rfc4543_is_gmac_over_the_ad_region_and_the_text(tfms, klen, data, salt, iv, spi, pt,
                                                         inplace):
    key, ad = data.draw(exactly(klen)), data.draw(exactly(spi))
    tag = AESGCM(key).encrypt(salt + iv, b"", ad + iv + pt)
    for name in (RFC4543, G4543):
        tfm = tfms[name]
        tfm.setkey(key + salt)
        assert tfm.encrypt(pt, iv, ad + iv) == pt + tag            # nothing encrypted
        assert tfm.decrypt(pt + tag, iv, ad + iv) == pt
        with pytest.raises(capi.CryptoError) as e:                 # the IV copy is authenticated
            tfm.decrypt(pt + tag, iv, ad + bytes(b ^ 1 for b in iv))
        assert e.value.errno == EBADMSG
        # requests: out of place the AD region and the text are copied to dst first
        src = bytearray(ad + iv + pt + (bytes(16) if inplace else b""))
        dst = src if inplace else bytearray(b"\xee" * len(src) + bytes(16))
        assert run(tfm, True, capi.sg_init_one(src), capi.sg_init_one(dst), len(pt), spi + 8,
                   bytearray(iv)) == 0
        assert bytes(dst) == ad + iv + pt + tag


def test_an_inauthentic_text_is_ebadmsg(tfms):
    key, salt, iv, ad, pt = bytes(16), b"salt", bytes(range(8)), bytes(8), b"payload" * 9
    for name in (RFC4106, RFC4543):
        tfm = tfms[name]
        tfm.setkey(key + salt)
        tfm.setauthsize(16)
        ct = bytearray(tfm.encrypt(pt, iv, ad + iv))
        ct[5] ^= 4
        with pytest.raises(capi.CryptoError) as e:
            tfm.decrypt(bytes(ct), iv, ad + iv)
        assert e.value.errno == EBADMSG


# ---------------------------------------------------------------- refusals

@pytest.mark.parametrize("name", [G4106, G4543])
def test_the_key_ends_with_a_4_byte_salt(name):
    with capi.crypto_alloc_aead(name) as tfm:
        for n in (0, 3):
            with pytest.raises(capi.CryptoError) as e:
                tfm.setkey(bytes(n))
            assert e.value.errno == EINVAL and "salt" in str(e.value) and name in str(e.value)
        for n in (4, 19, 21, 33):         # the AES key that remains has a bad length
            with pytest.raises(capi.CryptoError) as e:
                tfm.setkey(bytes(n))
            assert e.value.errno == EINVAL
        with pytest.raises(capi.CryptoError) as e:
            tfm.encrypt(b"", bytes(8), bytes(16))
        assert e.value.errno == ENOKEY
        for n in (20, 28, 36):
            tfm.setkey(bytes(n))


@pytest.mark.parametrize("name, good", [(G4106, (8, 12, 16)), (G4543, (16,))])
def test_tag_lengths(tfms, name, good):
    tfm = tfms[name]
    for authsize in range(0, 18):
        if authsize in good:
            tfm.setauthsize(authsize)
            assert tfm.authsize == authsize
            continue
        with pytest.raises(capi.CryptoError) as e:
            tfm.setauthsize(authsize)
        assert e.value.errno == EINVAL and name in str(e.value)
    tfm.setauthsize(16)


@pytest.mark.parametrize("name", [G4106, G4543])
@pytest.mark.parametrize("assoclen", [0, 8, 12, 15, 17, 19, 21, 24, 28])
def test_assoclen_is_16_or_20(tfms, name, assoclen):
    tfm = tfms[name]
    tfm.setkey(bytes(20))
    tfm.setauthsize(16)
    for encrypt in (True, False):
        src = bytearray(assoclen + 32)
        req, _ = request(tfm, capi.sg_init_one(src), capi.sg_init_one(src), 16 if encrypt else 32,
                         assoclen, bytearray(8))
        with pytest.raises(capi.CryptoError) as e:
            (capi.crypto_aead_encrypt if encrypt else capi.crypto_aead_decrypt)(req)
        assert e.value.errno == EINVAL and f"assoclen {assoclen}" in str(e.value)


@pytest.mark.parametrize("name, words", [
    (f"rfc4106({G4106})", "ivsize 8"),              # an inner IV of 8 bytes, not 12
    (f"rfc4543({G4543})", "ivsize 8"),
    (f"rfc4106({G4106[8:-1]},{G4106[8:-1]})", "takes 1 parameter"),
    ("rfc4543(ecb(aes-generic))", "instances are skciphers"),     # no AEAD
])
def test_inner_algorithms_of_the_wrong_shape(name, words):
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_aead(name)
    assert e.value.errno == EINVAL and words in str(e.value)


# ---------------------------------------------------------------- names

@pytest.mark.parametrize("tmpl", ["rfc4106", "rfc4543"])
def test_names_priority_and_shape_are_the_inner_gcms(tmpl):
    # the instance over the inner by its driver name: on x86 a plain
    # rfc4106(gcm(aes)) may find rfc4106-gcm-aesni (tests/arch/test_aesni_gcm.py)
    with capi.crypto_alloc_aead("gcm(aes)") as inner, \
            capi.crypto_alloc_aead(f"{tmpl}({inner.driver_name})") as tfm:
        assert tfm.alg.cra_name == f"{tmpl}(gcm(aes))"
        assert tfm.driver_name == f"{tmpl}({inner.driver_name})"
        assert tfm.alg.cra_priority == inner.alg.cra_priority
        assert (tfm.ivsize, tfm.maxauthsize, tfm.blocksize) == (8, 16, 1)
        assert (tfm.alg.cra_flags ^ inner.alg.cra_flags) & capi.CRYPTO_ALG_ASYNC == 0
        assert tfm.alg.cra_module == "gcm"


# ---------------------------------------------------------------- vector and self-tests

ESP_VECTORS = load_json("aes-gcm-rfc4106.json")["vectors"]


@pytest.mark.parametrize("name", [RFC4106, G4106])
def test_the_esp_vector(tfms, name):
    (vec,) = ESP_VECTORS
    b = unhex(vec)
    assert b["kernel_assoc"] == b["aad"] + b["kernel_iv"] and b["nonce"] == b["kernel_key"][16:] + b["kernel_iv"]
    check_vector(tfms[name], vec)


RFC4543_VECTORS = load_json("aes-gcm-rfc4543.json")["vectors"]


@pytest.mark.parametrize("name", [RFC4543, G4543])
@pytest.mark.parametrize("vec", RFC4543_VECTORS, ids=[v["id"] for v in RFC4543_VECTORS])
def test_the_kernels_rfc4543_vectors(tfms, name, vec):
    b = unhex(vec)
    assert b["kernel_assoc"] == b["aad"] + b["kernel_iv"] and b["nonce"] == b["kernel_key"][16:] + b["kernel_iv"]
    assert b["ciphertext"] == b["plaintext"] and b["kernel_ctext"] == b["plaintext"] + b["tag"]
    check_vector(tfms[name], vec)


def test_the_rfc4543_suite_has_the_authentic_vector_and_its_inauthentic_twin():
    good, bad = suite(RFC4543)
    assert (good.novrfy, bad.novrfy) == (False, True)
    assert (good.key, good.iv, good.assoc, good.ptext) == (bad.key, bad.iv, bad.assoc, bad.ptext)
    assert good.ctext[:-4] == bad.ctext[:-4] and good.ctext[-4:] != bad.ctext[-4:]


class _AnyTagMatches:
    """Stands in for the hmac module of algs/gcm.py: every tag compares equal."""

    @staticmethod
    def compare_digest(a, b):
        return True


def test_a_gcm_that_accepts_any_tag_fails_the_rfc4543_self_test(monkeypatch):
    import crypto_api.algs.gcm as gcm_mod
    with capi.crypto_alloc_aead(G4543) as tfm:
        assert testmgr.alg_test(tfm.driver_name, RFC4543) == 0
        monkeypatch.setattr(gcm_mod, "hmac", _AnyTagMatches)
        with pytest.raises(capi.CryptoError) as e:
            testmgr.alg_test(tfm.driver_name, RFC4543)
    assert "decryption" in e.value.message and "test vector 1" in e.value.message


@pytest.mark.parametrize("alg, generic", [(RFC4106, G4106), (RFC4543, G4543)])
def test_full_self_tests_fuzz_against_the_generic(selftest_level, caplog, alg, generic):
    saved = testmgr.get_fuzz_iterations(), testmgr.get_fuzz_seed()
    selftest_level("full")
    testmgr.set_fuzz_iterations(3)
    testmgr.set_fuzz_seed(5)
    desc = testmgr.find_test(alg)
    assert (desc.aad_iv, desc.einval_allowed) == (True, True)
    assert testmgr.generic_driver_name(alg, desc) == generic
    try:
        with capi.crypto_alloc_aead(alg) as tfm, caplog.at_level(logging.INFO, logger="crypto_api"):
            assert testmgr.alg_test(tfm.driver_name, alg) == 0
    finally:
        testmgr.set_fuzz_iterations(saved[0])
        testmgr.set_fuzz_seed(saved[1])
    assert f"alg: self-tests for {tfm.driver_name} ({alg}) passed" in caplog.text
    if tfm.driver_name != generic:
        assert "skipping comparison" not in caplog.text
