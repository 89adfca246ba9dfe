"""authenc(hmac(sha*),cbc(aes)) (crypto/authenc.c): encrypt-then-MAC for IPsec ESP.

The kernel's vectors (authenc-aes-cbc.json) through the generic instances and
the best ones by name; the construction against an independent one (Python's
hmac over AD ‖ ciphertext from ``cryptography``'s AES-CBC) on drawn keys,
AD, whole-block texts and tag lengths, as one-call and as scattered
out-of-place requests (the AD is copied to dst); decryption verifies before
it decrypts (EBADMSG, dst untouched); the key blob's refusals; tag lengths;
names and priority; the self-test manager's full tests (fuzzing against the
generic instance, inauthentic inputs).
"""

import hashlib
import hmac
import logging

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from hypothesis import HealthCheck, given, settings, strategies as st

import crypto_api as capi
from crypto_api import testmgr
from crypto_api.algs.authenc import authenc_key
from crypto_api.errors import EBADMSG, EINVAL, ENOENT
from crypto_api.testmgr.vectors import load_json
from aead_vectors import check_vector
from drawn_bytes import exactly
from sglayout import gather, layouts, scatter

HASHES = {"sha1": 20, "sha256": 32, "sha512": 64}
FUNNY = dict(suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
VECTORS = load_json("authenc-aes-cbc.json")["vectors"]


def generic(h):
    return f"authenc(hmac({h}-generic),cbc(aes-generic))"


@pytest.fixture(scope="module")
def tfms():
    out = {}
    for h in HASHES:
        for name in (generic(h), f"authenc(hmac({h}),cbc(aes))"):
            out[name] = capi.crypto_alloc_aead(name)
    yield out
    for t in out.values():
        t.free()


def reference(h, authkey, enckey, iv, ad, pt, authsize):
    enc = Cipher(algorithms.AES(enckey), modes.CBC(iv)).encryptor()
    ct = enc.update(pt) + enc.finalize()
    return ct + hmac.new(authkey, ad + ct, getattr(hashlib, h)).digest()[:authsize]


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


# ---------------------------------------------------------------- vectors

@pytest.mark.parametrize("vec", VECTORS, ids=[v["id"] for v in VECTORS])
def test_kernel_vectors(tfms, vec):
    h = vec["kernel_alg"][len("authenc(hmac("):].split(")")[0]
    assert bytes.fromhex(vec["kernel_key"]) == authenc_key(bytes.fromhex(vec["auth_key"]),
                                                           bytes.fromhex(vec["enc_key"]))
    for name in (generic(h), vec["kernel_alg"]):
        check_vector(tfms[name], vec)


# ---------------------------------------------------------------- the construction

@settings(max_examples=60, **FUNNY)
@given(h=st.sampled_from(sorted(HASHES)), klen=st.sampled_from([16, 24, 32]), data=st.data(),
       authkey=st.binary(max_size=150), iv=exactly(16), ad=st.binary(max_size=64),
       blocks=st.integers(0, 12))
def test_is_cbc_then_hmac_over_ad_and_ciphertext(tfms, h, klen, data, authkey, iv, ad, blocks):
    enckey, pt = data.draw(exactly(klen)), data.draw(exactly(16 * blocks))
    authsize = data.draw(st.integers(1, HASHES[h]))
    ref = reference(h, authkey, enckey, iv, ad, pt, authsize)
    for name in (generic(h), f"authenc(hmac({h}),cbc(aes))"):
        tfm = tfms[name]
        tfm.setkey(authenc_key(authkey, enckey))
        tfm.setauthsize(authsize)
        assert tfm.encrypt(pt, iv, ad) == ref
        assert tfm.decrypt(ref, iv, ad) == pt
        # scattered and out of place: the AD is copied to dst, src is left alone
        n = len(ad) + len(ref)
        src_layout, dst_layout = data.draw(layouts(len(ad) + len(pt))), data.draw(layouts(n))
        src, sbufs = scatter(ad + pt, src_layout, b"\x5a")
        dst, dbufs = scatter(bytes(n), dst_layout, b"\xa5")
        assert run(tfm, True, src, dst, len(pt), len(ad), bytearray(iv)) == 0
        assert gather(dbufs, dst_layout) == ad + ref
        assert gather(sbufs, src_layout) == ad + pt
        # decrypting in place
        buf = bytearray(ad + ref)
        assert run(tfm, False, capi.sg_init_one(buf), capi.sg_init_one(buf), len(ref), len(ad),
                   bytearray(iv)) == 0
        assert bytes(buf[:len(ad) + len(pt)]) == ad + pt


@pytest.mark.parametrize("where", ["ad", "text", "tag"])
def test_decryption_verifies_first(tfms, where):
    tfm = tfms[generic("sha256")]
    authkey, enckey, iv, ad, pt = b"k" * 32, bytes(range(16)), bytes(16), b"A" * 12, b"p" * 48
    tfm.setkey(authenc_key(authkey, enckey))
    tfm.setauthsize(32)
    ct = bytearray(tfm.encrypt(pt, iv, ad))
    ad = bytearray(ad)
    {"ad": ad, "text": ct, "tag": ct}[where][{"ad": 3, "text": 17, "tag": 50}[where]] ^= 0x40
    src = bytearray(ad + ct)
    dst = bytearray(b"\xee" * len(src))
    with pytest.raises(capi.CryptoError) as e:
        run(tfm, False, capi.sg_init_one(src), capi.sg_init_one(dst), len(ct), len(ad), bytearray(iv))
    assert e.value.errno == EBADMSG and generic("sha256") in str(e.value)
    assert dst == b"\xee" * len(src)            # nothing was decrypted


# ---------------------------------------------------------------- refusals

def blob(rta_len=8, rta_type=1, payload=None, rest=b""):
    head = rta_len.to_bytes(2, "little") + rta_type.to_bytes(2, "little")
    return head + (payload if payload is not None else (16).to_bytes(4, "big")) + rest


@pytest.mark.parametrize("key, words", [
    (b"", "rtattr header"),
    (b"\x08\x00\x01", "rtattr header"),
    (blob(rta_len=3, rest=bytes(16)), "rtattr length 3"),
    (blob(rta_len=64, rest=bytes(16)), "rtattr length 64"),
    (blob(rta_type=2, rest=bytes(16)), "rtattr type is 2"),
    (blob(rta_len=12, payload=(16).to_bytes(4, "big") + bytes(4), rest=bytes(16)), "payload is 8"),
    (blob(rta_len=6, payload=b"\x00\x10", rest=bytes(16)), "payload is 2"),
    (blob(rest=bytes(15)), "announces a 16-byte cipher key but only 15"),
    (blob(payload=(17).to_bytes(4, "big"), rest=bytes(20)), None),     # AES refuses 17 bytes
])
def test_bad_key_blobs_are_einval(tfms, key, words):
    tfm = tfms[generic("sha1")]
    with pytest.raises(capi.CryptoError) as e:
        tfm.setkey(key)
    assert e.value.errno == EINVAL
    if words:
        assert words in str(e.value) and generic("sha1") in str(e.value)


def test_any_hmac_key_length(tfms):
    tfm = tfms[generic("sha1")]
    for n in (0, 1, 20, 64, 65, 200):
        tfm.setkey(authenc_key(bytes(n), bytes(16)))
    tfm.setkey(blob(rest=bytes(16)))                # the blob alone with an AES key: empty HMAC key


@pytest.mark.parametrize("h", sorted(HASHES))
def test_tag_lengths_up_to_the_digest(tfms, h):
    with capi.crypto_alloc_aead(generic(h)) as fresh:
        assert fresh.maxauthsize == fresh.authsize == HASHES[h]     # a new tfm: the whole digest
    tfm = tfms[generic(h)]
    for authsize in (1, 12, HASHES[h]):
        tfm.setauthsize(authsize)
    for authsize in (HASHES[h] + 1, 100):
        with pytest.raises(capi.CryptoError) as e:
            tfm.setauthsize(authsize)
        assert e.value.errno == EINVAL
    tfm.setauthsize(HASHES[h])


def test_short_or_partial_texts_are_einval(tfms):
    tfm = tfms[generic("sha256")]
    tfm.setkey(authenc_key(bytes(32), bytes(16)))
    with pytest.raises(capi.CryptoError) as e:      # shorter than the tag
        tfm.decrypt(bytes(31), bytes(16), b"")
    assert e.value.errno == EINVAL
    with pytest.raises(capi.CryptoError) as e:      # CBC takes whole blocks
        tfm.encrypt(bytes(17), bytes(16), b"")
    assert e.value.errno == EINVAL


@pytest.mark.parametrize("name, errno, words", [
    ("authenc(hmac(sha256-generic))", ENOENT, "parameter 2 missing"),
    ("authenc(hmac(sha256-generic),cbc(aes-generic),cbc(aes-generic))", EINVAL, "takes 2 parameters"),
    ("authenc(cbc(aes-generic),cbc(aes-generic))", EINVAL, "instances are skciphers"),   # no hash
])
def test_instances_of_the_wrong_shape(name, errno, words):
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_aead(name)
    assert e.value.errno == errno and words in str(e.value)


# ---------------------------------------------------------------- names

def test_names_priority_and_shape():
    with capi.crypto_alloc_shash("hmac(sha256)") as a, capi.crypto_alloc_skcipher("cbc(aes)") as e, \
            capi.crypto_alloc_aead(f"authenc({a.driver_name},{e.driver_name})") as tfm:
        assert tfm.alg.cra_name == "authenc(hmac(sha256),cbc(aes))"
        assert tfm.driver_name == f"authenc({a.driver_name},{e.driver_name})"
        assert tfm.alg.cra_priority == 10 * e.alg.cra_priority + a.alg.cra_priority
        assert (tfm.ivsize, tfm.maxauthsize, tfm.blocksize) == (16, 32, 16)
        assert tfm.alg.cra_alignmask == e.alg.cra_alignmask
        assert tfm.alg.cra_module == "authenc"


# ---------------------------------------------------------------- self-tests

def test_full_self_tests_fuzz_against_the_generic(selftest_level, caplog):
    alg = "authenc(hmac(sha256),cbc(aes))"
    saved = testmgr.get_fuzz_iterations(), testmgr.get_fuzz_seed()
    selftest_level("full")
    testmgr.set_fuzz_iterations(2)
    testmgr.set_fuzz_seed(7)
    desc = testmgr.find_test(alg)
    assert (desc.aad_iv, desc.einval_allowed, desc.fips_allowed) == (False, False, True)
    assert testmgr.generic_driver_name(alg, desc) == generic("sha256")
    try:
        with capi.crypto_alloc_aead(alg) as tfm, caplog.at_level(logging.INFO, logger="crypto_api"):
            assert testmgr.alg_test(tfm.driver_name, alg) == 0
    finally:
        testmgr.set_fuzz_iterations(saved[0])
        testmgr.set_fuzz_seed(saved[1])
    assert f"alg: self-tests for {tfm.driver_name} ({alg}) passed" in caplog.text
