"""cryptd over an AEAD (crypto_api.cryptd, crypto/cryptd.c's aead part):
the instance's names, priority and flags, requests that complete on a worker
through their callback (a wrong tag as -EBADMSG), the one-call methods
waiting for them, setauthsize answered by the inner tfm, the self-test
manager on the asynchronous instance, and an asynchronous inner refused.
Checked against cryptography's ChaCha20Poly1305.
"""

from errno import EBADMSG, EINPROGRESS, EINVAL

import pytest
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

import crypto_api as capi
from crypto_api import cryptd
from crypto_api.testmgr import alg_test

ASYNC = capi.CRYPTO_ALG_ASYNC
KEY, NONCE, AD = bytes(range(32)), bytes(range(12)), b"header"
TEXT = bytes(range(256)) * 5


def _inners():
    """The template instance (by its driver name, registered first: v5.0's
    rfc7539 takes the requested names as its cra_name, so an instance made
    by driver names would share a name with its own driver name) and the
    one-pass driver where the CPU has it."""
    capi.load_all()
    with capi.crypto_alloc_aead("rfc7539(chacha20,poly1305)", 0, capi.CRYPTO_ALG_NEED_FALLBACK) as t:
        names = [t.driver_name]
    if any(a.cra_driver_name == "rfc7539-chacha20poly1305-avx2" for a in capi.registry.snapshot()):
        names.append("rfc7539-chacha20poly1305-avx2")
    return names


@pytest.fixture(params=_inners())
def inner(request):
    return request.param


@pytest.fixture(scope="module", autouse=True)
def _cryptd_instances_removed():
    """Delete the cryptd AEAD instances these tests made (as crypto_user's
    DELALG would): at the inner's priority + 50 they would otherwise answer
    every later plain rfc7539(chacha20,poly1305) lookup, as in the kernel."""
    yield
    with capi.registry.lock:
        made = [a for a in capi.registry.snapshot()
                if a.cra_driver_name.startswith("cryptd(") and a.cra_name == "rfc7539(chacha20,poly1305)"]
        for alg in made:
            capi.registry.kill_alg(alg)


def _alloc(inner):
    tfm = cryptd.cryptd_alloc_aead(inner)
    tfm.setkey(KEY)
    return tfm


def test_instance_names_priority_flags(inner, proc_records):
    with _alloc(inner) as tfm, capi.crypto_alloc_aead(inner) as child:
        alg = tfm.alg
        assert alg.cra_name == "rfc7539(chacha20,poly1305)"
        assert alg.cra_driver_name == f"cryptd({inner})"
        assert alg.cra_priority == child.alg.cra_priority + 50
        assert alg.cra_flags & ASYNC and not alg.cra_flags & capi.CRYPTO_ALG_INTERNAL
        assert (alg.ivsize, alg.maxauthsize) == (12, 16)
        assert cryptd.cryptd_aead_child(tfm).driver_name == inner
        rec = next(r for r in proc_records() if r["driver"] == f"cryptd({inner})")
        assert rec["module"] == "cryptd" and rec["async"] == "yes" and rec["type"] == "aead"


def test_one_call_methods_wait_and_match_cryptography(inner):
    want = ChaCha20Poly1305(KEY).encrypt(NONCE, TEXT, AD)
    with _alloc(inner) as tfm:
        assert tfm.encrypt(TEXT, NONCE, AD) == want
        assert tfm.decrypt(want, NONCE, AD) == TEXT
        bad = bytearray(want)
        bad[7] ^= 1
        with pytest.raises(capi.CryptoError) as e:
            tfm.decrypt(bytes(bad), NONCE, AD)
        assert e.value.errno == EBADMSG


def _request(tfm, src, dst, cryptlen, wait):
    req = capi.aead_request_alloc(tfm)
    capi.aead_request_set_callback(req, 0, capi.crypto_req_done, wait)
    capi.aead_request_set_crypt(req, capi.sg_init_one(src), capi.sg_init_one(dst), cryptlen,
                                bytearray(NONCE))
    capi.aead_request_set_ad(req, len(AD))
    return req


def test_requests_complete_through_the_callback_on_a_worker(inner):
    want = ChaCha20Poly1305(KEY).encrypt(NONCE, TEXT, AD)
    with _alloc(inner) as tfm:
        wait = capi.crypto_init_wait()
        src, dst = bytearray(AD + TEXT), bytearray(len(AD) + len(TEXT) + 16)
        req = _request(tfm, src, dst, len(TEXT), wait)
        assert capi.crypto_aead_encrypt(req) == -EINPROGRESS
        assert capi.crypto_wait_req(-EINPROGRESS, wait) == 0
        assert bytes(dst[len(AD):]) == want
        # decryption with a wrong tag: -EBADMSG reaches the callback
        bad = bytearray(AD + want)
        bad[-1] ^= 0x80
        wait = capi.crypto_init_wait()
        out = bytearray(len(AD) + len(TEXT))
        req = _request(tfm, bad, out, len(want), wait)
        assert capi.crypto_wait_req(capi.crypto_aead_decrypt(req), wait) == -EBADMSG


def test_setauthsize_reaches_the_inner_tfm(inner):
    """rfc7539 (v5.0) and the one-pass drivers take only 16: the inner tfm's
    refusal comes back through cryptd, and nothing changes."""
    with _alloc(inner) as tfm:
        tfm.setauthsize(16)
        with pytest.raises(capi.CryptoError) as e:
            tfm.setauthsize(12)
        assert e.value.errno == EINVAL and "authsize 12" in str(e.value)
        assert tfm.authsize == cryptd.cryptd_aead_child(tfm).authsize == 16
        with pytest.raises(capi.CryptoError) as e:
            tfm.setauthsize(17)                     # above maxauthsize: the frontend's own refusal
        assert e.value.errno == EINVAL and "maxauthsize" in str(e.value)
        assert tfm.encrypt(TEXT, NONCE, AD) == ChaCha20Poly1305(KEY).encrypt(NONCE, TEXT, AD)


def test_selftest_manager_tests_the_async_instance(inner):
    assert alg_test(f"cryptd({inner})", "rfc7539(chacha20,poly1305)") == 0


def test_inner_must_be_sync(inner):
    with pytest.raises(capi.CryptoError):
        capi.crypto_alloc_aead(f"cryptd(cryptd({inner}))")
