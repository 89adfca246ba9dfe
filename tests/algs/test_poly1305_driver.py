"""The poly1305 shash through the public API (crypto/poly1305_generic.c, v5.0).

Every official vector in the kernel's convention (no setkey: the first 32
bytes hashed are r ‖ s), any split of the input across updates, export and
import in the middle, and a cross-check against the ``cryptography``
package's Poly1305.
"""

import pytest
from cryptography.hazmat.primitives.poly1305 import Poly1305
from hypothesis import HealthCheck, given, settings, strategies as st

import crypto_api as capi
from crypto_api.errors import ENOKEY, ENOSYS
from crypto_api.testmgr.vectors import load_json

VECS = load_json("poly1305.json")["vectors"]


@pytest.fixture(scope="module")
def tfm():
    with capi.crypto_alloc_shash("poly1305-generic") as t:
        yield t


def test_descriptor_fields(tfm):
    assert (tfm.alg.cra_name, tfm.digestsize, tfm.blocksize) == ("poly1305", 16, 16)
    assert tfm.alg.cra_priority == 100


@pytest.mark.parametrize("vec", VECS, ids=[v["id"] for v in VECS])
def test_official_vector(tfm, vec):
    data = bytes.fromhex(vec["kernel_plaintext"])
    assert data == bytes.fromhex(vec["key"] + vec["message"])
    assert tfm.digest(data).hex() == vec["digest"]
    d = tfm.desc().init()
    half = len(data) // 2
    d.update(data[:half])
    assert d.finup(data[half:]).hex() == vec["digest"]


def test_the_best_driver_passes_the_vectors():
    with capi.crypto_alloc_shash("poly1305") as t:
        for vec in VECS:
            assert t.digest(bytes.fromhex(vec["kernel_plaintext"])).hex() == vec["digest"]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key=st.binary(min_size=32, max_size=32), msg=st.binary(max_size=600),
       cuts=st.lists(st.integers(0, 632), max_size=5), reimport=st.booleans())
def test_any_split_matches_cryptography(tfm, key, msg, cuts, reimport):
    data = key + msg
    expected = Poly1305.generate_tag(key, msg)
    d = tfm.desc().init()
    prev = 0
    for c in sorted(min(c, len(data)) for c in cuts):
        d.update(data[prev:c])
        prev = c
        if reimport:
            state = d.export()
            assert len(state) == tfm.statesize
            d = tfm.desc().import_(state)
    d.update(data[prev:])
    assert d.final() == expected
    assert tfm.digest(data) == expected


def test_fewer_than_32_bytes_is_enokey(tfm):
    for n in (0, 16, 31):
        with pytest.raises(capi.CryptoError) as e:
            tfm.digest(bytes(n))
        assert e.value.errno == ENOKEY and "poly1305-generic" in str(e.value)


def test_setkey_is_enosys(tfm):
    with pytest.raises(capi.CryptoError) as e:
        tfm.setkey(bytes(32))
    assert e.value.errno == ENOSYS and "poly1305-generic" in str(e.value)
