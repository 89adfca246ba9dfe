"""The type frontends: skcipher, shash and cipher transforms and their calls.

Mirrors crypto/skcipher.c, crypto/shash.c and crypto/cipher.c as seen by a
user: properties, the one-buffer convenience
calls on any bytes-like object, kernel-style requests, descriptors with
init/update/final/finup/digest/export/import, the function forms, the
driver's per-tfm hooks and the flags that decide NEED_KEY.
"""

import array
import gc

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

import crypto_api as capi
from crypto_api.errors import EINVAL, ENOENT

KEY = bytes(range(32))
IV16 = bytes(range(16))


def peer_chacha20(data, key=KEY, iv=IV16):
    return Cipher(algorithms.ChaCha20(key, iv), mode=None).encryptor().update(bytes(data))


# ---------------------------------------------------------------- skcipher

def test_skcipher_properties_and_function_forms():
    with capi.crypto_alloc_skcipher("chacha20-generic") as tfm:
        assert tfm.driver_name == "chacha20-generic" and tfm.name == "chacha20"
        assert tfm.alg.cra_name == "chacha20" and tfm.alg.cra_driver_name == "chacha20-generic"
        assert (tfm.ivsize, tfm.blocksize, tfm.chunksize, tfm.walksize) == (16, 1, 64, 64)
        assert (tfm.min_keysize, tfm.max_keysize) == (32, 32)
        assert capi.crypto_skcipher_ivsize(tfm) == 16 and capi.crypto_skcipher_blocksize(tfm) == 1
        assert capi.crypto_skcipher_alg(tfm) is tfm.alg
        assert tfm.get_flags() & capi.CRYPTO_TFM_NEED_KEY
        assert capi.crypto_skcipher_setkey(tfm, KEY) == 0
        assert not tfm.get_flags() & capi.CRYPTO_TFM_NEED_KEY


@pytest.mark.parametrize("make", [
    bytes, bytearray, lambda b: memoryview(bytearray(b)), lambda b: array.array("I", b),
    lambda b: memoryview(b"xx" + b)[2:],
])
def test_encrypt_accepts_any_bytes_like_object(make):
    data = bytes(range(200)) + bytes(56)
    with capi.crypto_alloc_skcipher("chacha20-generic") as tfm:
        tfm.setkey(bytearray(KEY))
        src = make(data)
        iv = bytearray(IV16)
        ct = tfm.encrypt(src, iv)
        assert type(ct) is bytes and ct == peer_chacha20(data)
        assert bytes(src) == data and iv == IV16          # neither input changed
        assert tfm.decrypt(make(ct), memoryview(iv)) == data


def test_encrypt_into_a_caller_buffer():
    data = bytes(range(100))
    with capi.crypto_alloc_skcipher("chacha20-generic") as tfm:
        tfm.setkey(KEY)
        out = bytearray(100)
        assert tfm.encrypt(data, IV16, out=out) is out
        assert out == peer_chacha20(data)


def test_a_non_contiguous_buffer_is_refused():
    with capi.crypto_alloc_skcipher("chacha20-generic") as tfm:
        tfm.setkey(KEY)
        with pytest.raises(TypeError, match="contiguous"):
            tfm.encrypt(memoryview(bytearray(64))[::2], IV16)


def test_requests_in_place_and_out_of_place():
    data = bytes(range(256)) * 5
    with capi.crypto_alloc_skcipher("chacha20-generic") as tfm:
        tfm.setkey(KEY)
        req = capi.skcipher_request_alloc(tfm)
        assert capi.crypto_skcipher_reqtfm(req) is tfm
        buf = bytearray(data)
        iv = bytearray(IV16)
        capi.skcipher_request_set_callback(req, capi.CRYPTO_TFM_REQ_MAY_SLEEP)
        capi.skcipher_request_set_crypt(req, capi.sg_init_one(buf), capi.sg_init_one(buf), len(buf), iv)
        assert capi.crypto_skcipher_encrypt(req) == 0
        assert buf == peer_chacha20(data)
        out = bytearray(len(data))
        capi.skcipher_request_set_crypt(req, capi.sg_init_one(bytes(buf)), capi.sg_init_one(out), len(buf), iv)
        assert capi.crypto_skcipher_decrypt(req) == 0
        assert out == data
        capi.skcipher_request_free(req)


def test_sync_allocation_skips_async_algorithms(register):
    register(capi.SkcipherAlg(cra_name="fronttest-async", cra_driver_name="fronttest-async-drv",
                              cra_flags=capi.CRYPTO_ALG_ASYNC, setkey=lambda t, k: None,
                              encrypt=lambda req: None, decrypt=lambda req: None))
    with capi.crypto_alloc_skcipher("fronttest-async") as tfm:
        assert tfm.driver_name == "fronttest-async-drv"
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_sync_skcipher("fronttest-async")
    assert e.value.errno == ENOENT and "fronttest-async" in str(e.value)
    with capi.crypto_alloc_sync_skcipher("chacha20") as tfm:
        assert not tfm.alg.cra_flags & capi.CRYPTO_ALG_ASYNC


def test_driver_hooks_run_on_allocation_and_free(register):
    events = []

    def crypt(req):
        walk = capi.skcipher_walk_virt(req)
        while walk.nbytes:
            walk.dst[:walk.nbytes] = walk.src[:walk.nbytes]
            capi.skcipher_walk_done(walk, 0)

    register(capi.SkcipherAlg(
        cra_name="fronttest-hooks", cra_driver_name="fronttest-hooks-drv",
        setkey=lambda t, k: None, encrypt=crypt, decrypt=crypt,
        cra_init=lambda t: events.append("cra_init"), init=lambda t: events.append("init"),
        exit=lambda t: events.append("exit"), cra_exit=lambda t: events.append("cra_exit")))
    tfm = capi.crypto_alloc_skcipher("fronttest-hooks")
    assert events == ["cra_init", "init"]
    # no key sizes: no key needed
    assert tfm.encrypt(b"plain") == b"plain"
    tfm.ctx.note = "per-tfm"
    with capi.crypto_alloc_skcipher("fronttest-hooks") as other:
        assert not hasattr(other.ctx, "note")
    capi.crypto_free_skcipher(tfm)
    assert events == ["cra_init", "init", "cra_init", "init", "exit", "cra_exit", "exit", "cra_exit"]
    tfm = capi.crypto_alloc_skcipher("fronttest-hooks")
    del tfm
    gc.collect()
    assert events[-2:] == ["exit", "cra_exit"]


# ---------------------------------------------------------------- shash

def sum_hash(driver, flags=0):
    """A made-up keyed shash: (key + sum of the bytes) mod 2^32, state in desc.state."""

    def setkey(tfm, key):
        tfm.ctx.k = int.from_bytes(key[:4].ljust(4, b"\0"), "little")

    def init(desc):
        desc.state[:] = getattr(desc.tfm.ctx, "k", 0).to_bytes(4, "little")

    def update(desc, data):
        v = (int.from_bytes(desc.state, "little") + sum(data)) & 0xFFFFFFFF
        desc.state[:] = v.to_bytes(4, "little")

    return capi.ShashAlg(cra_name="fronttest-sum", cra_driver_name=driver, cra_flags=flags,
                         digestsize=4, descsize=4, setkey=setkey, init=init, update=update,
                         final=lambda desc: bytes(desc.state))


def test_shash_defaults_and_function_forms(register):
    register(sum_hash("fronttest-sum-drv"))
    with capi.crypto_alloc_shash("fronttest-sum") as h:
        assert (h.digestsize, h.descsize, h.statesize) == (4, 4, 4)
        with pytest.raises(capi.CryptoError):
            h.digest(b"\x01")                                  # NEED_KEY
        assert capi.crypto_shash_setkey(h, b"\x10\0\0\0") == 0
        assert h.digest(b"\x01\x02") == (0x13).to_bytes(4, "little")
        d = h.desc()
        assert capi.crypto_shash_init(d) == 0
        assert capi.crypto_shash_update(d, b"\x05") == 0
        state = capi.crypto_shash_export(d)
        assert state == bytes(capi.shash_desc_ctx(d)) == (0x15).to_bytes(4, "little")
        assert capi.crypto_shash_finup(d, b"\x01") == (0x16).to_bytes(4, "little")
        d2 = h.desc()
        assert capi.crypto_shash_import(d2, state) == 0
        assert capi.crypto_shash_final(d2) == (0x15).to_bytes(4, "little")
        assert capi.crypto_shash_digest(h.desc(), b"\x07") == (0x17).to_bytes(4, "little")
        with pytest.raises(capi.CryptoError) as e:
            h.desc().import_(bytes(5))
        assert e.value.errno == EINVAL and "fronttest-sum-drv" in str(e.value) and "state" in str(e.value)


def test_an_optional_key_arms_no_need_key(register):
    register(sum_hash("fronttest-sum-optional", flags=capi.CRYPTO_ALG_OPTIONAL_KEY))
    with capi.crypto_alloc_shash("fronttest-sum-optional") as h:
        assert h.digest(b"\x01\x02") == (3).to_bytes(4, "little")


def test_nhpoly1305_descriptors_are_independent():
    with capi.crypto_alloc_shash("nhpoly1305-generic") as h:
        h.setkey(bytes(range(256)) * 4 + bytes(64))
        a, b = h.desc().init(), h.desc().init()
        a.update(b"x" * 100)
        b.update(b"y" * 100)
        assert a.final() == h.digest(b"x" * 100)
        assert b.final() == h.digest(b"y" * 100)


# ---------------------------------------------------------------- cipher

def test_cipher_calls():
    key = bytes(range(16))
    block = bytes(range(100, 116))
    expected = Cipher(algorithms.AES(key), modes.ECB()).encryptor().update(block)
    with capi.crypto_alloc_cipher("aes-generic") as c:
        assert (c.blocksize, c.min_keysize, c.max_keysize) == (16, 16, 32)
        assert capi.crypto_cipher_setkey(c, key) == 0
        assert c.encrypt_one(bytearray(block)) == expected
        dst = bytearray(16)
        capi.crypto_cipher_encrypt_one(c, dst, block)
        assert dst == expected
        capi.crypto_cipher_decrypt_one(c, dst, memoryview(expected))
        assert dst == block
        assert c.decrypt_one(expected) == block
        for n in (15, 17, 32):
            with pytest.raises(capi.CryptoError) as e:
                c.encrypt_one(bytes(n))
            assert e.value.errno == EINVAL and "aes-generic" in str(e.value) and str(n) in str(e.value)
