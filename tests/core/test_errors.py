"""Bad input: the refusals of the public API, one per kind of mistake.

Each refusal is a CryptoError with the kernel errno
(include/uapi/asm-generic/errno-base.h)
and a message naming the algorithm and the parameter, or a TypeError for a
wrong Python type; a refused request leaves its destination untouched.
"""

import pytest

import crypto_api as capi
from crypto_api.errors import EINVAL, ENAMETOOLONG, ENOENT, ENOKEY

XC = "xchacha12-generic"
KEY = bytes(range(32))
IV = bytes(range(32))


def refused(errno, fn, *words):
    with pytest.raises(capi.CryptoError) as e:
        fn()
    assert e.value.errno == errno, e.value
    assert isinstance(e.value, OSError) and e.value.message in str(e.value)
    for w in words:
        assert w in str(e.value), (w, str(e.value))
    return e.value


@pytest.fixture
def xc():
    with capi.crypto_alloc_skcipher(XC) as t:
        yield t


def request(tfm, src, dst, cryptlen, iv):
    req = capi.skcipher_request_alloc(tfm)
    capi.skcipher_request_set_crypt(req, src, dst, cryptlen, iv)
    return req


# ---------------------------------------------------------------- keys

def test_wrong_key_lengths(xc):
    refused(EINVAL, lambda: xc.setkey(bytes(16)), XC, "key", "16", "32")
    refused(EINVAL, lambda: xc.setkey(b""), XC, "key", "0 bytes")
    with capi.crypto_alloc_cipher("aes-generic") as aes:
        refused(EINVAL, lambda: aes.setkey(bytes(17)), "aes-generic", "key", "17")
    with capi.crypto_alloc_shash("nhpoly1305-generic") as nh:
        refused(EINVAL, lambda: nh.setkey(bytes(10)), "nhpoly1305-generic", "key", "10", "1088")


def test_a_failed_setkey_rearms_need_key(xc):
    xc.setkey(KEY)
    xc.encrypt(b"abc", IV)
    with pytest.raises(capi.CryptoError):
        xc.setkey(bytes(31))
    refused(ENOKEY, lambda: xc.encrypt(b"abc", IV), XC, "setkey")
    with capi.crypto_alloc_cipher("aes-generic") as aes:
        aes.setkey(bytes(16))
        with pytest.raises(capi.CryptoError):
            aes.setkey(bytes(15))
        refused(ENOKEY, lambda: aes.encrypt_one(bytes(16)), "aes-generic")


def test_use_before_setkey_is_enokey(xc):
    refused(ENOKEY, lambda: xc.encrypt(b"abc", IV), XC, "key")
    refused(ENOKEY, lambda: xc.decrypt(b"abc", IV), XC, "key")
    dst = bytearray(b"\x11" * 8)
    refused(ENOKEY, lambda: capi.crypto_skcipher_encrypt(
        request(xc, capi.sg_init_one(bytes(8)), capi.sg_init_one(dst), 8, bytearray(IV))), XC)
    assert dst == b"\x11" * 8
    with capi.crypto_alloc_cipher("aes-generic") as aes:
        refused(ENOKEY, lambda: aes.encrypt_one(bytes(16)), "aes-generic")
        refused(ENOKEY, lambda: aes.decrypt_one(bytes(16)), "aes-generic")
    with capi.crypto_alloc_shash("nhpoly1305-generic") as nh:
        refused(ENOKEY, lambda: nh.digest(b"abc"), "nhpoly1305-generic")
        refused(ENOKEY, lambda: nh.desc().init(), "nhpoly1305-generic")


# ---------------------------------------------------------------- IVs

def test_wrong_iv_length_or_no_iv(xc):
    xc.setkey(KEY)
    refused(EINVAL, lambda: xc.encrypt(b"abc", bytes(16)), XC, "IV", "16", "32")
    refused(EINVAL, lambda: xc.encrypt(b"abc", bytes(33)), XC, "IV", "33", "32")
    refused(EINVAL, lambda: xc.decrypt(b"abc"), XC, "IV", "32")
    with capi.crypto_alloc_skcipher("chacha20-generic") as c:
        c.setkey(KEY)
        refused(EINVAL, lambda: c.encrypt(b"abc", IV), "chacha20-generic", "IV", "32", "16")
    for iv in (None, bytearray(16)):
        dst = bytearray(b"\x22" * 40)
        refused(EINVAL, lambda: capi.crypto_skcipher_encrypt(
            request(xc, capi.sg_init_one(bytes(40)), capi.sg_init_one(dst), 40, iv)), XC, "IV", "32")
        assert dst == b"\x22" * 40


# ---------------------------------------------------------------- names

def test_unknown_names_are_enoent():
    refused(ENOENT, lambda: capi.crypto_alloc_skcipher("errtest-unknown"), "errtest-unknown", "skcipher")
    refused(ENOENT, lambda: capi.crypto_alloc_shash("errtest-unknown"), "errtest-unknown", "shash")
    refused(ENOENT, lambda: capi.crypto_alloc_cipher("errtest-unknown"), "errtest-unknown", "cipher")
    # an existing name of another type is unknown to this frontend
    refused(ENOENT, lambda: capi.crypto_alloc_cipher("xchacha12"), "xchacha12", "cipher")


def test_malformed_and_over_long_names():
    refused(ENOENT, lambda: capi.crypto_alloc_skcipher(""), "empty")
    refused(EINVAL, lambda: capi.crypto_alloc_skcipher("xchacha 12"), "xchacha 12", "' '")
    refused(EINVAL, lambda: capi.crypto_alloc_skcipher("aes\n"), "character")
    refused(ENOENT, lambda: capi.crypto_alloc_skcipher("e" * 127), "e" * 127)
    refused(ENAMETOOLONG, lambda: capi.crypto_alloc_skcipher("e" * 128), "128", "127")
    refused(ENAMETOOLONG, lambda: capi.crypto_alloc_shash("e" * 500), "500")


# ---------------------------------------------------------------- requests

def test_destination_shorter_than_cryptlen(xc):
    xc.setkey(KEY)
    dst = bytearray(b"\x33" * 50)
    refused(EINVAL, lambda: capi.crypto_skcipher_encrypt(
        request(xc, capi.sg_init_one(bytes(100)), capi.sg_init_one(dst), 100, bytearray(IV))),
        XC, "dst", "50", "100")
    assert dst == b"\x33" * 50
    refused(EINVAL, lambda: capi.crypto_skcipher_encrypt(
        request(xc, capi.sg_init_one(bytes(100)), capi.sg_init_one(bytes(100)), 100, bytearray(IV))),
        XC, "dst", "read-only")
    out = bytearray(b"\x44" * 10)
    refused(EINVAL, lambda: xc.encrypt(bytes(11), IV, out=out), XC, "out", "11")
    assert out == b"\x44" * 10


def test_scatterlists_shorter_than_cryptlen(xc):
    xc.setkey(KEY)
    sgl = capi.sg_init_table(2)
    capi.sg_set_buf(sgl[0], bytes(30))
    capi.sg_set_buf(sgl[1], bytes(30))
    dst = bytearray(b"\x55" * 100)
    refused(EINVAL, lambda: capi.crypto_skcipher_decrypt(
        request(xc, sgl, capi.sg_init_one(dst), 100, bytearray(IV))), XC, "src", "60", "100")
    assert dst == b"\x55" * 100
    d2 = [capi.sg_init_one(bytearray(b"\x66" * 40))[0], capi.sg_init_one(bytearray(b"\x66" * 40))[0]]
    refused(EINVAL, lambda: capi.crypto_skcipher_encrypt(
        request(xc, capi.sg_init_one(bytes(100)), d2, 100, bytearray(IV))), XC, "dst", "80", "100")
    assert all(bytes(sg.view()) == b"\x66" * 40 for sg in d2)
    refused(EINVAL, lambda: capi.crypto_skcipher_encrypt(
        request(xc, capi.sg_init_one(bytes(8)), capi.sg_init_one(bytearray(8)), -1, bytearray(IV))),
        XC, "cryptlen", "-1")


def test_a_freed_transform_is_refused():
    tfm = capi.crypto_alloc_skcipher(XC)
    tfm.setkey(KEY)
    tfm.free()
    refused(EINVAL, lambda: tfm.encrypt(b"abc", IV), XC, "freed")
    refused(EINVAL, lambda: tfm.setkey(KEY), XC, "freed")


# ---------------------------------------------------------------- Python types

@pytest.mark.parametrize("bad", ["text", 42, None, [1, 2, 3], 1.5])
def test_non_buffer_data_is_a_type_error(xc, bad):
    xc.setkey(KEY)
    with pytest.raises(TypeError) as e:
        xc.encrypt(bad, IV)
    assert XC in str(e.value) and "data" in str(e.value)


def test_non_buffer_keys_ivs_and_blocks_are_type_errors(xc):
    for fn, words in (
        (lambda: xc.setkey("k" * 32), (XC, "key")),
        (lambda: (xc.setkey(KEY), xc.encrypt(b"abc", "i" * 32)), (XC, "iv")),
    ):
        with pytest.raises(TypeError) as e:
            fn()
        for w in words:
            assert w in str(e.value)
    with capi.crypto_alloc_cipher("aes-generic") as aes:
        aes.setkey(bytes(16))
        with pytest.raises(TypeError) as e:
            aes.encrypt_one("b" * 16)
        assert "aes-generic" in str(e.value) and "block" in str(e.value)
    with capi.crypto_alloc_shash("poly1305-generic") as p:
        with pytest.raises(TypeError) as e:
            p.digest(["not", "bytes"])
        assert "poly1305-generic" in str(e.value) and "data" in str(e.value)
    with pytest.raises(TypeError):
        capi.crypto_alloc_skcipher(b"xchacha12")
    with pytest.raises(TypeError):
        capi.crypto_alloc_skcipher("xchacha12", "0")


def test_non_scatterlist_request_arguments_are_type_errors(xc):
    xc.setkey(KEY)
    one = capi.sg_init_one(bytearray(16))
    for src, dst, cryptlen, words in (
        (bytearray(16), one, 16, ("src",)),
        (one, one[0], 16, ("dst", "sg_init_one")),
        ([b"not an entry"], one, 16, ("src", "Scatterlist")),
        (one, one, "16", ("cryptlen",)),
    ):
        with pytest.raises(TypeError) as e:
            capi.crypto_skcipher_encrypt(request(xc, src, dst, cryptlen, bytearray(IV)))
        for w in (XC,) + words:
            assert w in str(e.value), (w, str(e.value))
    with pytest.raises(TypeError):
        capi.crypto_skcipher_encrypt("not a request")
    with pytest.raises(TypeError):
        capi.skcipher_request_alloc(capi.crypto_alloc_cipher("aes-generic"))
