"""essiv(cbc(aes),sha256) against the kernel's published vectors
(essiv-aes-cbc.json, testmgr essiv_aes_cbc_tv_template) on every AES driver
and sha256 driver it can be built from, and the self-test manager's entry for
it (vectors at registration; full tests fuzz against essiv(cbc(aes-generic),
sha256-generic)).  The vectors were also checked against an ESSIV built on
`cryptography` (AES-CBC with IV = AES_sha256(key)(iv)): the last test."""

import hashlib
import logging

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

import crypto_api as capi
from crypto_api.testmgr.descs import find_test
from crypto_api.testmgr.vectors import load_json

VECTORS = load_json("essiv-aes-cbc.json")["vectors"]


def drivers(name):
    """Every registered driver of cra_name ``name``, internal ones left out."""
    capi.load_all()
    return sorted({a.cra_driver_name for a in capi.registry.snapshot()
                   if a.cra_name == name and not a.cra_flags & capi.CRYPTO_ALG_INTERNAL})


INSTANCES = ["essiv(cbc(aes),sha256)"] + [
    f"essiv({c},{h})" for c in drivers("cbc(aes)") for h in drivers("sha256")]


@pytest.mark.parametrize("name", INSTANCES)
def test_vectors(name):
    with capi.crypto_alloc_skcipher(name) as t:
        for v in VECTORS:
            key, iv = bytes.fromhex(v["key"]), bytes.fromhex(v["iv"])
            pt, ct = bytes.fromhex(v["plaintext"]), bytes.fromhex(v["ciphertext"])
            t.setkey(key)
            assert t.encrypt(pt, iv) == ct, v["id"]
            assert t.decrypt(ct, iv) == pt, v["id"]


def test_testmgr_entry():
    desc = find_test("essiv(cbc(aes),sha256)")
    assert desc is not None and desc.test == "skcipher" and desc.fips_allowed


@pytest.mark.parametrize("level", ["fast", "full"])
def test_selftest_manager(level, selftest_level, caplog):
    selftest_level(level)
    with capi.crypto_alloc_skcipher("essiv(cbc(aes),sha256)") as t:
        driver = t.driver_name
    with capi.crypto_alloc_skcipher("essiv(cbc(aes-generic),sha256-generic)"):
        pass
    with caplog.at_level(logging.INFO, logger="crypto_api"):
        for d in (driver, "essiv(cbc(aes-generic),sha256-generic)"):
            assert capi.testmgr.alg_test(d, "essiv(cbc(aes),sha256)") == 0
            assert f"alg: self-tests for {d} (essiv(cbc(aes),sha256)) passed" in caplog.text


def test_vectors_agree_with_an_essiv_built_on_cryptography():
    for v in VECTORS:
        key, iv = bytes.fromhex(v["key"]), bytes.fromhex(v["iv"])
        salt = hashlib.sha256(key).digest()
        eiv = Cipher(algorithms.AES(salt), modes.ECB()).encryptor().update(iv)
        ct = Cipher(algorithms.AES(key), modes.CBC(eiv)).encryptor().update(bytes.fromhex(v["plaintext"]))
        assert ct.hex() == v["ciphertext"], v["id"]
