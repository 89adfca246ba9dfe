"""ghash-generic through the public API (crypto/ghash-generic.c, SP 800-38D §6.4).

The kernel's six vectors; any split of the message gives the same digest;
random keys and messages against a plain Python model of the GF(2^128)
product (SP 800-38D Algorithm 1) and against ``cryptography``'s AES-GCM
tags (tag = E_K(J0) XOR GHASH_H(AD ‖ C ‖ lengths), H = E_K(0)); the
refusals (key length, no key); the descriptor's shape and the self-test.
"""

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from hypothesis import given, settings, strategies as st

import crypto_api as capi
from crypto_api.errors import EINVAL, ENOKEY
from crypto_api.testmgr.vectors import load_json
from drawn_bytes import exactly

VECTORS = load_json("ghash.json")["vectors"]
R = 0xE1 << 120


def gf_mul(x: int, y: int) -> int:
    """SP 800-38D Algorithm 1 on integers whose most significant bit is bit 0."""
    z, v = 0, y
    for i in range(127, -1, -1):
        if (x >> i) & 1:
            z ^= v
        v = (v >> 1) ^ R if v & 1 else v >> 1
    return z


def ghash_model(h: bytes, msg: bytes) -> bytes:
    msg += bytes(-len(msg) % 16)
    y, hi = 0, int.from_bytes(h, "big")
    for i in range(0, len(msg), 16):
        y = gf_mul(y ^ int.from_bytes(msg[i:i + 16], "big"), hi)
    return y.to_bytes(16, "big")


@pytest.fixture(scope="module")
def tfm():
    t = capi.crypto_alloc_shash("ghash-generic")
    yield t
    t.free()


def test_the_vector_file_is_the_kernels_six():
    assert [v["id"] for v in VECTORS] == [f"ghash-{i:03d}" for i in range(1, 7)]
    assert [len(v["message"]) // 2 for v in VECTORS] == [16, 28, 50, 50, 20, 400]


@pytest.mark.parametrize("vec", VECTORS, ids=[v["id"] for v in VECTORS])
def test_kernel_vectors(tfm, vec):
    key, msg, digest = (bytes.fromhex(vec[k]) for k in ("key", "message", "digest"))
    tfm.setkey(key)
    assert tfm.digest(msg) == digest
    assert ghash_model(key, msg) == digest           # the model agrees with the kernel
    for cut in (1, 15, 16, 17, len(msg) - 1):
        desc = tfm.desc().init()
        desc.update(msg[:cut])
        assert desc.finup(msg[cut:]) == digest


@settings(max_examples=60, deadline=None)
@given(key=exactly(16), msg=st.binary(max_size=200), cuts=st.lists(st.integers(0, 200), max_size=4))
def test_random_keys_and_splits_match_the_model(key, msg, cuts):
    with capi.crypto_alloc_shash("ghash") as t:
        t.setkey(key)
        desc = t.desc().init()
        prev = 0
        for c in sorted(min(c, len(msg)) for c in cuts):
            desc.update(msg[prev:c])
            prev = c
        assert desc.finup(msg[prev:]) == ghash_model(key, msg)


def _aes_block(key: bytes, block: bytes) -> bytes:
    enc = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
    return enc.update(block) + enc.finalize()


@settings(max_examples=40, deadline=None)
@given(key=exactly(16), nonce=exactly(12), ad=st.binary(max_size=80), pt=st.binary(max_size=80))
def test_it_is_the_hash_of_aes_gcm(tfm, key, nonce, ad, pt):
    out = AESGCM(key).encrypt(nonce, pt, ad)
    ct, tag = out[:-16], out[-16:]
    tfm.setkey(_aes_block(key, bytes(16)))
    desc = tfm.desc().init()
    desc.update(ad + bytes(-len(ad) % 16))
    desc.update(ct + bytes(-len(ct) % 16))
    s = desc.finup((8 * len(ad)).to_bytes(8, "big") + (8 * len(ct)).to_bytes(8, "big"))
    ej0 = _aes_block(key, nonce + b"\x00\x00\x00\x01")
    assert bytes(a ^ b for a, b in zip(s, ej0)) == tag


@pytest.mark.parametrize("n", [0, 1, 15, 17, 32])
def test_a_key_is_16_bytes(tfm, n):
    with pytest.raises(capi.CryptoError) as e:
        tfm.setkey(bytes(n))
    assert e.value.errno == EINVAL and "ghash-generic" in str(e.value) and "16" in str(e.value)
    with pytest.raises(capi.CryptoError) as e:        # a failed setkey leaves no key
        tfm.digest(b"abc")
    assert e.value.errno == ENOKEY


def test_no_key_is_enokey():
    with capi.crypto_alloc_shash("ghash-generic") as t:
        with pytest.raises(capi.CryptoError) as e:
            t.digest(b"")
        assert e.value.errno == ENOKEY


def test_the_descriptor_and_the_self_test():
    with capi.crypto_alloc_shash("ghash-generic") as t:
        alg = t.alg
        assert (alg.cra_name, alg.cra_driver_name, alg.cra_priority) == ("ghash", "ghash-generic", 100)
        assert (alg.cra_blocksize, alg.digestsize, alg.cra_module) == (16, 16, "ghash_generic")
    assert capi.testmgr.alg_test("ghash-generic", "ghash") == 0
    assert capi.testmgr.find_test("ghash").suite == "ghash"
