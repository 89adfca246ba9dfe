"""Key copies the library makes are wipeable, and wiped.

The frontends hand a driver's setkey a bytearray copy of the key (never an
immutable bytes object) and zero it once setkey returns, unless the driver
kept it (then it is the driver's key buffer, zeroed with the context).  The
ChaCha drivers' Python paths zero each request's 16-word state, whose words
4-11 are the key (or the XChaCha subkey), when the request ends.
"""

import os

import pytest

import crypto_api as capi
import crypto_api.tfm as tfm_module
from crypto_api.algs import chacha_generic
from crypto_api.algs._chacha_generic import ffi as cffi_chacha
from crypto_api.errors import EINVAL, CryptoError

KEY = bytes(range(0xA0, 0xC0))


class Tracked(bytearray):
    """A bytearray that records its contents when it is freed."""

    freed = []

    def __del__(self):
        Tracked.freed.append(bytes(self))


@pytest.fixture
def tracked(monkeypatch):
    Tracked.freed = []
    monkeypatch.setattr(tfm_module, "bytearray", Tracked, raising=False)
    return Tracked.freed


def _driver(name, keep, fail=False):
    def setkey(tfm, key):
        assert type(key) is Tracked and key == KEY        # a wipeable copy of the key
        if keep:
            tfm.ctx.raw = key
        if fail:
            raise CryptoError(EINVAL, "regtest: weak key")

    def crypt(req):
        pass

    return capi.SkcipherAlg(cra_name="regtest-keycopy", cra_driver_name=name, cra_priority=1,
                            cra_blocksize=1, min_keysize=32, max_keysize=32, ivsize=0,
                            setkey=setkey, encrypt=crypt, decrypt=crypt)


def test_a_copy_nobody_keeps_is_zeroed_when_setkey_returns(register, tracked):
    register(_driver("regtest-keycopy-drop", keep=False))
    with capi.crypto_alloc_skcipher("regtest-keycopy-drop") as tfm:
        tfm.setkey(KEY)
        assert tracked == [bytes(32)]


def test_a_copy_the_driver_keeps_stays_until_the_tfm_goes(register, tracked):
    register(_driver("regtest-keycopy-keep", keep=True))
    tfm = capi.crypto_alloc_skcipher("regtest-keycopy-keep")
    tfm.setkey(KEY)
    assert tracked == [] and tfm.ctx.raw == KEY
    tfm.free()                                  # wipe_ctx zeroes the bytearray it kept
    assert tfm.ctx.raw == bytes(32)


def test_a_copy_is_zeroed_when_setkey_fails(register, tracked):
    register(_driver("regtest-keycopy-fail", keep=True, fail=True))
    with capi.crypto_alloc_skcipher("regtest-keycopy-fail") as tfm:
        with pytest.raises(CryptoError, match="weak key"):
            tfm.setkey(KEY)
        assert tfm.ctx.raw == bytes(32)


@pytest.mark.parametrize("kind,name,keylen", [("skcipher", "xchacha12-generic", 32),
                                              ("cipher", "aes-generic", 32),
                                              ("shash", "nhpoly1305-generic", 1088)])
def test_the_built_in_drivers_leave_no_unwiped_copy(kind, name, keylen, tracked):
    alloc = {"skcipher": capi.crypto_alloc_skcipher, "cipher": capi.crypto_alloc_cipher,
             "shash": capi.crypto_alloc_shash}[kind]
    with alloc(name) as tfm:                    # (its self-tests set keys too)
        before = len(tracked)
        tfm.setkey(os.urandom(keylen))
        assert len(tracked) == before + 1
    assert tracked and all(copy == bytes(len(copy)) for copy in tracked)


# -- the ChaCha request state ---------------------------------------------------

def _capture(monkeypatch, module, attr):
    states = []
    real = getattr(module, attr)

    def capturing(*args):
        st = real(*args)
        states.append(st)
        return st
    monkeypatch.setattr(module, attr, capturing)
    return states


def _scattered_request(tfm, data, iv):
    """A request over two scatterlist entries (the walk, not the contiguous path)."""
    buf = bytearray(data)
    sg = capi.sg_init_table(2)
    capi.sg_set_buf(sg[0], buf, 0, 100)
    capi.sg_set_buf(sg[1], buf, 100, len(buf) - 100)
    req = capi.skcipher_request_alloc(tfm)
    capi.skcipher_request_set_crypt(req, sg, sg, len(buf), bytearray(iv))
    capi.crypto_skcipher_encrypt(req)
    return bytes(buf)


@pytest.mark.parametrize("name", ["chacha20-generic", "xchacha12-generic", "xchacha20-simd"])
@pytest.mark.parametrize("path", ["walk", "contiguous"])
def test_chacha_request_states_are_wiped(name, path, monkeypatch):
    try:
        tfm = capi.crypto_alloc_skcipher(name)
    except CryptoError as e:
        pytest.skip(str(e))
    tfm.setkey(KEY)
    iv = os.urandom(tfm.ivsize)
    data = os.urandom(1000)
    want = tfm.encrypt(data, iv)
    states = _capture(monkeypatch, chacha_generic, "chacha_state")
    if name.endswith("-simd"):
        from crypto_api.arch.x86 import chacha_glue
        states_simd = _capture(monkeypatch, chacha_glue, "_simd_state")
    with capi.fpu_trace() if path == "walk" else capi.simd_disabled():
        if path == "walk":
            got = _scattered_request(tfm, data, iv)
        else:                                   # a bytearray IV: the direct path declines
            got = tfm.encrypt(data, bytearray(iv))
    assert got == want
    if name.endswith("-simd") and path == "walk":
        states = states_simd
    assert states, "the Python path under test was not taken"
    for st in states:
        assert bytes(cffi_chacha.buffer(st)) == bytes(64)
    tfm.free()
