"""A shash desc is spent by final(), finup() and digest(): hashing on is refused.

The kernel leaves a desc's state undefined after final; here update, finup
and final on a spent desc raise EINVAL (naming the algorithm and telling to
re-initialise) until init() or import_() sets the state up again.  Every
shash driver is checked, against digests of the same data on fresh descs.
"""

import pytest
from hypothesis import given, settings, strategies as st

import crypto_api as capi
from crypto_api.errors import EINVAL, CryptoError
from alloc_or_skip import alloc_or_skip

DRIVERS = ["poly1305-generic", "poly1305-x86_64", "poly1305",
           "nhpoly1305-generic", "nhpoly1305-sse2", "nhpoly1305-avx2", "nhpoly1305"]
NH_KEY = bytes(range(256)) * 4 + bytes(range(64))


def _alloc(name):
    tfm = alloc_or_skip(capi.crypto_alloc_shash, name)
    if tfm.alg.setkey is not None:
        tfm.setkey(NH_KEY)
    return tfm


def _refused(call, driver):
    with pytest.raises(CryptoError) as e:
        call()
    assert e.value.errno == EINVAL
    assert driver in str(e.value) and "init()" in str(e.value)


@pytest.mark.parametrize("name", DRIVERS)
@settings(max_examples=15, deadline=None)
@given(a=st.binary(min_size=32, max_size=3000), b=st.binary(max_size=300))
def test_a_spent_desc_refuses_until_reinitialised(name, a, b):
    tfm = _alloc(name)
    drv = tfm.driver_name
    want = tfm.digest(a)
    for spend in ("final", "finup", "digest"):
        d = tfm.desc().init()
        if spend == "final":
            d.update(a)
            assert d.final() == want
        elif spend == "finup":
            assert d.finup(a) == want
        else:
            assert d.digest(a) == want
        _refused(lambda: d.update(b), drv)
        _refused(lambda: d.finup(b), drv)
        _refused(d.final, drv)
        d.init()                                        # usable again
        assert d.update(a).final() == want
    tfm.free()


@pytest.mark.parametrize("name", DRIVERS)
def test_import_makes_a_spent_desc_usable(name):
    tfm = _alloc(name)
    a, b = bytes(range(200)), bytes(range(100, 177))
    d = tfm.desc().init().update(a)
    saved = d.export()
    whole = tfm.digest(a + b)
    assert d.final() == tfm.digest(a)
    _refused(lambda: d.update(b), tfm.driver_name)
    assert d.import_(saved).update(b).final() == whole
    tfm.free()


def test_the_desc_state_keeps_its_size():
    tfm = _alloc("nhpoly1305-generic")
    d = tfm.desc().init()
    with pytest.raises(BufferError):
        d.state.clear()                     # C maps its struct onto these bytes
    assert len(d.state) == tfm.descsize
    tfm.free()
