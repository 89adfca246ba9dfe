"""Adiantum's raw pointers into its children do not outlive them.

The one-call path keeps C structs holding the addresses of the children's
key buffers (the stream key, the AES schedule, the NH key, K_T).  Freeing the
tfm, re-keying it or a failing setkey clears those structs before the
children's memory goes; a freed tfm refuses every use with a CryptoError.
"""

import os

import pytest

import crypto_api as capi
from crypto_api.algs import adiantum
from crypto_api.algs._adiantum import ffi as aff
from crypto_api.errors import EINVAL, ENOKEY, CryptoError
from alloc_or_skip import alloc_or_skip

NAMES = ["adiantum(xchacha12,aes)", "adiantum(xchacha20-generic,aes-generic,nhpoly1305-generic)"]


def _alloc(name, key):
    return alloc_or_skip(capi.crypto_alloc_skcipher, name, key)


def _raw(struct) -> bytes:
    return bytes(aff.buffer(struct))


def _pointer_fields(struct):
    return [getattr(struct, f) for f in ("stream_key", "block_ctx", "hash_key", "header_r")]


@pytest.mark.parametrize("name", NAMES)
def test_free_clears_the_raw_pointers_and_use_after_free_is_an_error(name):
    tfm = _alloc(name, os.urandom(32))
    fast = list(tfm.ctx.direct.values())
    assert fast and all(p != aff.NULL for f in fast for p in _pointer_fields(f))
    tweak, data = os.urandom(32), os.urandom(100)
    tfm.free()
    assert tfm.ctx.direct is None
    assert all(not any(_raw(f)) for f in fast)          # no address left to dangle
    for call in (lambda: tfm.encrypt(data, tweak), lambda: tfm.decrypt(data, tweak),
                 lambda: adiantum.adiantum_encrypt(tfm, data, tweak[:17]),
                 lambda: tfm.setkey(os.urandom(32))):
        with pytest.raises(CryptoError) as e:
            call()
        assert e.value.errno == EINVAL and "freed" in str(e.value)


@pytest.mark.parametrize("name", NAMES)
def test_rekey_replaces_the_structs_and_the_keys(name):
    k1, k2 = os.urandom(32), os.urandom(32)
    tfm = _alloc(name, k1)
    old = list(tfm.ctx.direct.values())
    header_key = tfm.ctx.header_key
    k1_header = bytes(aff.buffer(header_key))
    tfm.setkey(k2)
    assert all(not any(_raw(f)) for f in old)
    assert tfm.ctx.direct is not None and all(f not in old for f in tfm.ctx.direct.values())
    assert bytes(aff.buffer(header_key)) != k1_header
    fresh = _alloc(name, k2)
    tweak, data = os.urandom(32), os.urandom(300)
    assert tfm.encrypt(data, tweak) == fresh.encrypt(data, tweak)
    tfm.free()
    fresh.free()


def test_a_failing_child_setkey_leaves_no_struct_and_no_key(monkeypatch):
    tfm = _alloc(NAMES[0], os.urandom(32))
    old = list(tfm.ctx.direct.values())
    header_key = tfm.ctx.header_key

    def refuse(child, key):
        raise CryptoError(EINVAL, "regtest: the block cipher refuses this key")
    monkeypatch.setattr(type(tfm.ctx.blockcipher), "setkey", refuse)
    with pytest.raises(CryptoError, match="regtest"):
        tfm.setkey(os.urandom(32))
    assert tfm.ctx.direct is None and all(not any(_raw(f)) for f in old)
    assert not any(bytes(aff.buffer(header_key)))
    monkeypatch.undo()
    with pytest.raises(CryptoError) as e:
        tfm.encrypt(bytes(32), bytes(32))
    assert e.value.errno == ENOKEY
    tfm.free()


def test_the_poly1305_key_of_an_odd_tweak_is_wiped(monkeypatch):
    """A tweak that is not whole 16-byte blocks is hashed in Python with a
    Poly1305 key struct expanded from K_T: it is zeroed after use."""
    from crypto_api.algs._poly1305 import ffi as pff
    tfm = _alloc(NAMES[0], os.urandom(32))
    data, tweak = os.urandom(200), os.urandom(17)
    want = adiantum.adiantum_encrypt(tfm, data, tweak)

    class Recorder:
        def __init__(self, real):
            self.real, self.made = real, []

        def new(self, ctype, *args):
            obj = self.real.new(ctype, *args)
            self.made.append((ctype, obj))
            return obj

        def __getattr__(self, name):
            return getattr(self.real, name)

    rec = Recorder(adiantum.poly_ffi)
    monkeypatch.setattr(adiantum, "poly_ffi", rec)
    assert adiantum.adiantum_encrypt(tfm, data, tweak) == want
    keys = [obj for ctype, obj in rec.made if ctype == "poly1305_core_key *"]
    assert keys, "the odd-tweak path was not taken"
    assert all(not any(bytes(pff.buffer(k))) for k in keys)
    tfm.free()
