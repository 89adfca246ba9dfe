"""sha384/sha512-generic and sha1-generic (algs/sha512_generic.py,
algs/sha1_generic.py): the FIPS 180-2 / NIST vectors, the kernel's names,
sizes and aliases, any message in any pieces (and through export/import)
against hashlib, and the self-test manager's full tests."""

import hashlib

import pytest
from hypothesis import given, settings, strategies as st

import crypto_api as capi
from crypto_api import testmgr
from crypto_api.testmgr.vectors import load_json
from shash_pieces import digest_in_pieces

#: name -> (block size, digest size, statesize of the kernel's struct)
SIZES = {"sha1": (64, 20, 96), "sha384": (128, 48, 208), "sha512": (128, 64, 208)}
VECTORS = load_json("sha512.json")["vectors"] + load_json("sha1.json")["vectors"]


@pytest.mark.parametrize("v", VECTORS, ids=lambda v: v["id"])
def test_vectors(v):
    with capi.crypto_alloc_shash(v["kernel_alg"] + "-generic") as h:
        assert h.digest(bytes.fromhex(v["message"])).hex() == v["digest"]


@pytest.mark.parametrize("name", sorted(SIZES))
def test_names_sizes_priority_and_aliases(name):
    block, digest, state = SIZES[name]
    with capi.crypto_alloc_shash(name + "-generic") as h:     # by name: an x86 driver may answer
        assert h.alg.cra_name == name
        assert (h.alg.cra_blocksize, h.digestsize, h.statesize) == (block, digest, state)
        assert h.alg.cra_priority == 100
    index = capi.modules.alias_index()
    module = "sha1_generic" if name == "sha1" else "sha512_generic"
    for alias in (name, name + "-generic"):
        assert module in index["crypto-" + alias]


@settings(max_examples=80, deadline=None)
@given(msg=st.binary(max_size=700), cuts=st.lists(st.integers(0, 700), max_size=5),
       name=st.sampled_from(sorted(SIZES)))
def test_any_message_in_any_pieces(msg, cuts, name):
    want = hashlib.new(name, msg).digest()
    with capi.crypto_alloc_shash(name + "-generic") as h:
        assert h.digest(msg) == want
        assert h.digest(bytearray(msg)) == want
        assert digest_in_pieces(h, msg, cuts) == want


@settings(max_examples=40, deadline=None)
@given(head=st.binary(max_size=300), tail=st.binary(max_size=300), name=st.sampled_from(sorted(SIZES)))
def test_export_import_carries_the_state(head, tail, name):
    with capi.crypto_alloc_shash(name + "-generic") as h:
        state = h.desc().init().update(head).export()
        assert len(state) == h.statesize
        assert h.desc().import_(state).finup(tail) == hashlib.new(name, head + tail).digest()


@pytest.mark.parametrize("length", [256 * 1024 - 1, 1 << 20], ids=["256k-1", "1M"])
def test_long_messages_cross_many_blocks(length):
    msg = bytes(range(256)) * (length // 256) + bytes(length % 256)
    for alg in sorted(SIZES):
        with capi.crypto_alloc_shash(alg + "-generic") as h:
            assert h.digest(msg) == hashlib.new(alg, msg).digest()


@pytest.mark.parametrize("name", sorted(SIZES))
def test_the_full_self_tests_pass(name, selftest_level):
    capi.crypto_alloc_shash(name).free()        # loaded
    selftest_level("full")
    saved = testmgr.get_fuzz_iterations(), testmgr.get_fuzz_seed()
    testmgr.set_fuzz_iterations(2)
    testmgr.set_fuzz_seed(29)
    try:
        assert testmgr.alg_test(name + "-generic", name) == 0
    finally:
        testmgr.set_fuzz_iterations(saved[0])
        testmgr.set_fuzz_seed(saved[1])


def test_the_table_has_the_kernels_entries():
    for name in SIZES:
        d = testmgr.find_test(name)
        assert d is not None and d.test == "hash" and d.fips_allowed
        assert [v.id for v in testmgr.vectors.suite(d.suite)] == \
            [v["id"] for v in VECTORS if v["kernel_alg"] == name]
