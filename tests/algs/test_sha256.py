"""sha224/sha256-generic (algs/sha256_generic.py): FIPS 180-2 vectors and
any message, in any pieces, against hashlib."""

import hashlib

import pytest
from hypothesis import given, settings, strategies as st

import crypto_api as capi
from crypto_api.testmgr.vectors import load_json
from shash_pieces import digest_in_pieces


@pytest.mark.parametrize("v", load_json("sha256.json")["vectors"], ids=lambda v: v["id"])
def test_vectors(v):
    with capi.crypto_alloc_shash(v["kernel_alg"] + "-generic") as h:
        assert h.digest(bytes.fromhex(v["message"])).hex() == v["digest"]


def test_names_sizes_and_aliases():
    for name, size in (("sha256", 32), ("sha224", 28)):
        with capi.crypto_alloc_shash(name) as h:
            assert h.alg.cra_blocksize == 64 and h.digestsize == size
        with capi.crypto_alloc_shash(name + "-generic") as h:
            assert h.alg.cra_priority == 100


@settings(max_examples=80, deadline=None)
@given(msg=st.binary(max_size=700), cuts=st.lists(st.integers(0, 700), max_size=5),
       name=st.sampled_from(["sha224", "sha256"]))
def test_any_message_in_any_pieces(msg, cuts, name):
    want = hashlib.new(name, msg).digest()
    with capi.crypto_alloc_shash(name + "-generic") as h:
        assert h.digest(msg) == want
        assert h.digest(bytearray(msg)) == want
        assert digest_in_pieces(h, msg, cuts) == want
