"""The aes single-block cipher through the public API (crypto/aes_generic.c).

Every official AES vector, block by block in both directions ("block"
vectors are one block, "ecb" vectors several independent ones), on
aes-generic, and random cross-checks against the ``cryptography`` package's
AES-ECB for every key size.
"""

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from hypothesis import HealthCheck, given, settings, strategies as st

import crypto_api as capi
from crypto_api.errors import EINVAL
from crypto_api.testmgr.vectors import load_json

VECS = load_json("aes.json")["vectors"]
GROUPS = sorted({(v["mode"], len(v["key"]) // 2) for v in VECS})


@pytest.fixture(scope="module")
def tfm():
    with capi.crypto_alloc_cipher("aes-generic") as t:
        yield t


def run_group(t, mode, keylen):
    failed = []
    for v in VECS:
        if v["mode"] != mode or len(v["key"]) // 2 != keylen:
            continue
        t.setkey(bytes.fromhex(v["key"]))
        pt, ct = bytes.fromhex(v["plaintext"]), bytes.fromhex(v["ciphertext"])
        assert len(pt) % 16 == 0 and (mode == "ecb" or len(pt) == 16)
        enc = b"".join(t.encrypt_one(pt[i:i + 16]) for i in range(0, len(pt), 16))
        dec = b"".join(t.decrypt_one(ct[i:i + 16]) for i in range(0, len(ct), 16))
        if enc != ct or dec != pt:
            failed.append(v["id"])
    return failed


@pytest.mark.parametrize("mode, keylen", GROUPS, ids=[f"{m}-{k * 8}" for m, k in GROUPS])
def test_official_vectors(tfm, mode, keylen):
    assert run_group(tfm, mode, keylen) == []


def test_the_best_driver_passes_the_vectors():
    with capi.crypto_alloc_cipher("aes") as t:
        assert t.alg.cra_name == "aes"
        for mode, keylen in GROUPS:
            assert run_group(t, mode, keylen) == []


def test_descriptor_fields(tfm):
    assert (tfm.blocksize, tfm.min_keysize, tfm.max_keysize) == (16, 16, 32)
    assert (tfm.driver_name, tfm.alg.cra_priority) == ("aes-generic", 100)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(keylen=st.sampled_from([16, 24, 32]), data=st.data())
def test_matches_cryptography(tfm, keylen, data):
    key = data.draw(st.binary(min_size=keylen, max_size=keylen))
    blocks = data.draw(st.binary(min_size=16, max_size=16 * 8).map(lambda b: b[:len(b) // 16 * 16]))
    peer = Cipher(algorithms.AES(key), modes.ECB())
    ct = peer.encryptor().update(blocks)
    tfm.setkey(key)
    for i in range(0, len(blocks), 16):
        assert tfm.encrypt_one(blocks[i:i + 16]) == ct[i:i + 16]
        dst = bytearray(16)
        capi.crypto_cipher_decrypt_one(tfm, dst, ct[i:i + 16])
        assert dst == blocks[i:i + 16]


def test_key_sizes(tfm):
    for n in (0, 8, 15, 17, 20, 31, 33, 64):
        with pytest.raises(capi.CryptoError) as e:
            tfm.setkey(bytes(n))
        assert e.value.errno == EINVAL and "aes-generic" in str(e.value) and str(n) in str(e.value)
    for n in (16, 24, 32):
        tfm.setkey(bytes(n))
