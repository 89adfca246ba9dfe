"""HKDF (crypto_api/hkdf.py, the role of crypto/hkdf.c): the RFC 5869 vectors
(extract and expand separately, then together), HKDF-SHA512 as fscrypt uses
it against ``cryptography``'s HKDF on random inputs, and the length limit."""

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from hypothesis import given, settings, strategies as st

import crypto_api as capi
from crypto_api.errors import EINVAL
from crypto_api.hkdf import hkdf, hkdf_expand, hkdf_extract
from crypto_api.testmgr.vectors import load_json

HASHES = {"sha1": hashes.SHA1, "sha256": hashes.SHA256, "sha384": hashes.SHA384, "sha512": hashes.SHA512}


@pytest.mark.parametrize("v", load_json("hkdf.json")["vectors"], ids=lambda v: v["id"])
def test_rfc5869_vectors(v):
    ikm, salt, info, prk, okm = (bytes.fromhex(v[f]) for f in ("ikm", "salt", "info", "prk", "okm"))
    with capi.crypto_alloc_shash(f"hmac({v['hash']})") as t:
        assert hkdf_extract(t, ikm, salt) == prk
        t.setkey(prk)
        assert hkdf_expand(t, info, v["length"]) == okm
    assert hkdf(v["hash"], ikm, salt, info, v["length"]) == okm


def reference(name, ikm, salt, info, length):
    return HKDF(algorithm=HASHES[name](), length=length, salt=salt, info=info).derive(ikm)


@settings(max_examples=60, deadline=None)
@given(ikm=st.binary(max_size=200), salt=st.binary(max_size=200), info=st.binary(max_size=300),
       length=st.integers(1, 255 * 64), name=st.sampled_from(["sha512", "sha256", "sha384"]))
def test_matches_cryptographys_hkdf(ikm, salt, info, length, name):
    length = min(length, 255 * HASHES[name].digest_size)
    assert hkdf(name, ikm, salt, info, length) == reference(name, ikm, salt, info, length)


def test_fscrypt_shaped_derivation():
    """fscrypt v2: hmac(sha512) extract with no salt, expand with
    "fscrypt\\0" ‖ a context byte ‖ the info, 64-byte keys (and the 16-byte
    key identifier)."""
    master = bytes(range(64))
    for context, n in ((1, 16), (2, 64), (3, 64)):
        info = b"fscrypt\0" + bytes([context]) + bytes(range(16))
        assert hkdf("sha512", master, b"", info, n) == reference("sha512", master, b"", info, n)


def test_zero_length_and_the_limit():
    with capi.crypto_alloc_shash("hmac(sha512)") as t:
        t.setkey(bytes(64))
        assert hkdf_expand(t, b"", 0) == b""
        assert len(hkdf_expand(t, b"x", 255 * 64)) == 255 * 64
        for bad in (255 * 64 + 1, -1):
            with pytest.raises(capi.CryptoError) as e:
                hkdf_expand(t, b"x", bad)
            assert e.value.errno == EINVAL and "hmac(sha512" in e.value.message
