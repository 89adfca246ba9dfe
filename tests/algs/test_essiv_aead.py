"""essiv(authenc(hmac(sha256),cbc(aes)),sha256), the AEAD flavour of crypto/essiv.c (dm-crypt's
``capi:authenc(hmac(sha256),cbc(aes))-essiv:sha256``).

Against an independent construction: salt = SHA-256(AES key ‖ HMAC key), the
IV encrypted with AES-256 under the salt, then AES-CBC under that IV and
HMAC-SHA-256 over the AD with its last 16 bytes replaced by the encrypted IV
‖ ciphertext.  In place the encrypted IV is written into the AD; out of place
an encryption leaves src alone and dst gets the rewritten AD; an
out-of-place decryption authenticates src's AD as it is (the caller supplies
the encrypted IV there, as dm-crypt does) and writes only the encrypted IV
into dst's AD.  Refusals: non-authenc inners, an AD shorter than the IV, a
malformed key blob.  The kernel's seven vectors (essiv-authenc-aes-cbc.json)
through both instances, with the file's own consistency checked (AES-256
under the salt maps each request IV to the AD's last 16 bytes), and the
self-test manager's full tests.
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
from crypto_api.errors import EBADMSG, EINVAL
from crypto_api.testmgr.vectors import load_json
from aead_vectors import check_vector, unhex
from drawn_bytes import exactly
from aead_wait import run

NAMES = ["essiv(authenc(hmac(sha256),cbc(aes)),sha256)",
         "essiv(authenc(hmac(sha256-generic),cbc(aes-generic)),sha256-generic)"]
FUNNY = dict(suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)


@pytest.fixture(scope="module")
def tfms():
    out = [capi.crypto_alloc_aead(n) for n in NAMES]
    yield out
    for t in out:
        t.free()


def reference(authkey, enckey, iv, ad, pt, authsize):
    """(encrypted IV, ciphertext ‖ tag)."""
    salt = hashlib.sha256(enckey + authkey).digest()
    eiv = Cipher(algorithms.AES(salt), modes.ECB()).encryptor().update(iv)
    enc = Cipher(algorithms.AES(enckey), modes.CBC(eiv)).encryptor()
    ct = enc.update(pt) + enc.finalize()
    return eiv, ct + hmac.new(authkey, ad[:-16] + eiv + ct, hashlib.sha256).digest()[:authsize]


@settings(max_examples=40, **FUNNY)
@given(klen=st.sampled_from([16, 24, 32]), data=st.data(), authkey=st.binary(max_size=80),
       iv=exactly(16), head=st.binary(max_size=24), blocks=st.integers(0, 8), authsize=st.integers(1, 32))
def test_is_authenc_under_the_encrypted_iv(tfms, klen, data, authkey, iv, head, blocks, authsize):
    enckey, pt = data.draw(exactly(klen)), data.draw(exactly(16 * blocks))
    ad = head + iv                                   # dm-crypt: sector data, then the IV
    eiv, ref = reference(authkey, enckey, iv, ad, pt, authsize)
    for tfm in tfms:
        tfm.setkey(authenc_key(authkey, enckey))
        tfm.setauthsize(authsize)
        assert tfm.encrypt(pt, iv, ad) == ref
        # in place: the encrypted IV lands in the AD
        buf = bytearray(ad + pt + bytes(authsize))
        assert run(tfm, True, capi.sg_init_one(buf), capi.sg_init_one(buf), len(pt), len(ad),
                   bytearray(iv)) == 0
        assert bytes(buf) == head + eiv + ref
        buf = bytearray(ad + ref)                      # the plain IV in the AD: rewritten first
        assert run(tfm, False, capi.sg_init_one(buf), capi.sg_init_one(buf), len(ref), len(ad),
                   bytearray(iv)) == 0
        assert bytes(buf[:len(ad) + len(pt)]) == head + eiv + pt
        # out of place: src untouched, dst gets the rewritten AD
        src, dst = bytearray(ad + pt), bytearray(len(ad) + len(ref))
        assert run(tfm, True, capi.sg_init_one(src), capi.sg_init_one(dst), len(pt), len(ad),
                   bytearray(iv)) == 0
        assert bytes(src) == ad + pt and bytes(dst) == head + eiv + ref
        src, dst = bytearray(head + eiv + ref), bytearray(len(ad) + len(ref))
        assert run(tfm, False, capi.sg_init_one(src), capi.sg_init_one(dst), len(ref), len(ad),
                   bytearray(iv)) == 0
        # only the encrypted IV is written into dst's AD (authenc decrypts without copying the AD)
        assert bytes(dst[:len(ad) + len(pt)]) == bytes(len(head)) + eiv + pt


def test_out_of_place_decryption_authenticates_src_as_given(tfms):
    tfm = tfms[1]
    authkey, enckey, iv, head, pt = b"a" * 32, bytes(range(32)), bytes(range(16)), b"sector##", b"x" * 32
    tfm.setkey(authenc_key(authkey, enckey))
    tfm.setauthsize(32)
    _, ref = reference(authkey, enckey, iv, head + iv, pt, 32)
    src, dst = bytearray(head + iv + ref), bytearray(len(head) + 16 + len(ref))
    with pytest.raises(capi.CryptoError) as e:        # src's AD still holds the plain IV
        run(tfm, False, capi.sg_init_one(src), capi.sg_init_one(dst), len(ref), 24, bytearray(iv))
    assert e.value.errno == EBADMSG


def test_refusals(tfms):
    tfm = tfms[1]
    with pytest.raises(capi.CryptoError) as e:
        tfm.setkey(bytes(48))                          # no rtattr header: the inner authenc refuses
    assert e.value.errno == EINVAL
    tfm.setkey(authenc_key(bytes(32), bytes(16)))
    tfm.setauthsize(32)
    buf = bytearray(15 + 16 + 32)
    with pytest.raises(capi.CryptoError) as e:
        run(tfm, True, capi.sg_init_one(buf), capi.sg_init_one(buf), 16, 15, bytearray(16))
    assert e.value.errno == EINVAL and "assoclen 15" in str(e.value)
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_aead("essiv(gcm(aes),sha256)")
    assert e.value.errno == EINVAL and "authenc() inners" in str(e.value)


def test_names_priority_and_shape():
    with capi.crypto_alloc_aead("authenc(hmac(sha256),cbc(aes))") as inner, \
            capi.crypto_alloc_shash("sha256") as h, \
            capi.crypto_alloc_aead(f"essiv({inner.driver_name},{h.driver_name})") as tfm:
        assert tfm.alg.cra_name == "essiv(authenc(hmac(sha256),cbc(aes)),sha256)"
        assert tfm.driver_name == f"essiv({inner.driver_name},{h.driver_name})"
        assert tfm.alg.cra_priority == inner.alg.cra_priority
        assert (tfm.ivsize, tfm.maxauthsize, tfm.blocksize) == (16, 32, 16)
        assert tfm.alg.cra_module == "essiv"


# ---------------------------------------------------------------- vectors and self-tests

VECTORS = load_json("essiv-authenc-aes-cbc.json")["vectors"]


@pytest.mark.parametrize("vec", VECTORS, ids=[v["id"] for v in VECTORS])
def test_kernel_vectors(tfms, vec):
    b = unhex(vec)
    authkey, enckey = bytes.fromhex(vec["auth_key"]), bytes.fromhex(vec["enc_key"])
    assert b["kernel_key"] == authenc_key(authkey, enckey)
    eiv, ref = reference(authkey, enckey, b["kernel_iv"], b["kernel_assoc"], b["plaintext"], 32)
    assert eiv == b["kernel_assoc"][-16:] and ref == b["kernel_ctext"]
    for tfm in tfms:
        check_vector(tfm, vec)


def test_full_self_tests_fuzz_against_the_generic(selftest_level, caplog):
    alg = NAMES[0]
    saved = testmgr.get_fuzz_iterations(), testmgr.get_fuzz_seed()
    selftest_level("full")
    testmgr.set_fuzz_iterations(2)
    testmgr.set_fuzz_seed(3)
    desc = testmgr.find_test(alg)
    assert desc.fips_allowed and not desc.aad_iv
    assert testmgr.generic_driver_name(alg, desc) == \
        "essiv(authenc(hmac(sha256-generic),cbc(aes-generic)),sha256-generic)"
    try:
        with capi.crypto_alloc_aead(alg) as tfm, caplog.at_level(logging.INFO, logger="crypto_api"):
            assert testmgr.alg_test(tfm.driver_name, alg) == 0
    finally:
        testmgr.set_fuzz_iterations(saved[0])
        testmgr.set_fuzz_seed(saved[1])
    assert f"alg: self-tests for {tfm.driver_name} ({alg}) passed" in caplog.text
