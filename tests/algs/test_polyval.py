"""The polyval shash through the public API (crypto/polyval-generic.c, 6.0 to 6.18).

Every official vector (the kernel's polyval_tv_template and RFC 8452's
example), a cross-check against POLYVAL computed through GHASH (RFC 8452
Appendix A, tests/hctr2_ref.py) on random keys and messages, the kernel's
rule for a partial last block (zero padding), the streaming rule (any split
across updates, export/import in the middle) and the key rules.
"""

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import crypto_api as capi
from crypto_api.errors import EINVAL, ENOKEY
from crypto_api.testmgr import alg_test
from crypto_api.testmgr.vectors import load_json
from hctr2_ref import polyval as ref_polyval

VECS = load_json("polyval.json")["vectors"]


@pytest.fixture(scope="module")
def tfm():
    with capi.crypto_alloc_shash("polyval-generic") as t:
        yield t


def test_the_reference_agrees_with_the_official_vectors():
    for v in VECS:
        assert ref_polyval(bytes.fromhex(v["key"]), bytes.fromhex(v["message"])).hex() == v["digest"]


def test_descriptor_fields(tfm):
    a = tfm.alg
    assert (a.cra_name, a.cra_driver_name, a.cra_priority) == ("polyval", "polyval-generic", 100)
    assert (tfm.digestsize, tfm.blocksize) == (16, 16)


def test_the_name_resolves_to_a_polyval_driver():
    with capi.crypto_alloc_shash("polyval") as t:
        assert t.alg.cra_name == "polyval"


@pytest.mark.parametrize("vec", VECS, ids=[v["id"] for v in VECS])
def test_official_vector(tfm, vec):
    tfm.setkey(bytes.fromhex(vec["key"]))
    msg = bytes.fromhex(vec["message"])
    assert tfm.digest(msg).hex() == vec["digest"]
    assert tfm.desc().init().finup(msg).hex() == vec["digest"]
    d = tfm.desc().init()
    for i in range(0, len(msg), 7):
        d.update(msg[i:i + 7])
    assert d.final().hex() == vec["digest"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key=st.binary(min_size=16, max_size=16), msg=st.binary(max_size=300))
def test_random_messages_match_polyval_through_ghash(tfm, key, msg):
    """Any length: a partial last block is zero-padded, as the kernel's shash does."""
    tfm.setkey(key)
    assert tfm.digest(msg) == ref_polyval(key, msg + bytes(-len(msg) % 16))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key=st.binary(min_size=16, max_size=16), msg=st.binary(max_size=200), data=st.data())
def test_the_result_does_not_depend_on_the_split_nor_an_export_import(tfm, key, msg, data):
    tfm.setkey(key)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(msg)), max_size=5)))
    d = tfm.desc().init()
    pos = 0
    for c in cuts:
        d.update(msg[pos:c])
        pos = c
        state = d.export()
        d = tfm.desc().import_(state)
    d.update(msg[pos:])
    assert d.final() == tfm.digest(msg)


@pytest.mark.parametrize("n", [0, 1, 15, 17, 32])
def test_a_key_other_than_16_bytes_is_einval(n):
    with capi.crypto_alloc_shash("polyval-generic") as t:
        with pytest.raises(capi.CryptoError) as e:
            t.setkey(bytes(n))
        assert e.value.errno == EINVAL and "polyval-generic" in str(e.value) and str(n) in str(e.value)


def test_hashing_before_setkey_is_enokey():
    with capi.crypto_alloc_shash("polyval-generic") as t:
        with pytest.raises(capi.CryptoError) as e:
            t.digest(b"x" * 16)
        assert e.value.errno == ENOKEY


def test_the_self_test_manager_passes_it():
    assert alg_test("polyval-generic", "polyval") == 0


@settings(max_examples=20, deadline=None)
@given(key=st.binary(min_size=16, max_size=16))
def test_the_keys_powers_are_successive_dot_products(key):
    """struct polyval_key's powers (for block functions that reduce once per
    run of blocks): powers[15] is H and powers[i] = dot(powers[i + 1], H),
    a one-block POLYVAL of the reference."""
    from crypto_api.algs._polyval_generic import ffi, lib
    k = ffi.new("struct polyval_key *")
    lib.polyval_setkey(k, key)
    powers = [bytes(ffi.buffer(k.powers[i])) for i in range(16)]
    assert powers[15] == key
    for i in range(15):
        assert powers[i] == ref_polyval(key, powers[i + 1])


def test_the_polyval_offer(tfm):
    """The POLYVAL C entries (crypto_api.cinterface): the generic block
    function and this tfm's key, whatever SIMD allows."""
    from crypto_api.algs.polyval_generic import GENERIC_BLOCKS
    from crypto_api.cinterface import Kind, entries
    tfm.setkey(bytes(range(16)))
    for simd in (False, True):
        rec = entries(tfm, Kind.POLYVAL, simd)
        assert rec.blocks == GENERIC_BLOCKS and rec.key == tfm.ctx.key
