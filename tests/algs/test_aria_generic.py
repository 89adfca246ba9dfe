"""aria-generic (crypto/aria_generic.c): RFC 5794 and the kernel's cbc/ctr
vectors through the cipher and the ecb/cbc/ctr templates, the C core against
the independent Python model of tests/aria_ref.py (S-boxes computed from
their algebraic definitions), key refusals, names and the /proc record."""

from errno import EINVAL

import pytest
from hypothesis import given, settings, strategies as st

import aria_ref
import crypto_api as capi
from crypto_api.testmgr.vectors import load_json, suite

VECTORS = load_json("aria.json")["vectors"]
keys = st.sampled_from([16, 24, 32]).flatmap(lambda n: st.binary(min_size=n, max_size=n))


def _vec(mode):
    return [v for v in VECTORS if v["mode"] == mode]


def _hex(v, *names):
    return [bytes.fromhex(v[n]) for n in names]


@pytest.fixture
def entry():
    """The one-block direct path: the C entry point (crypto_api/digest_call.h,
    any buffer), where built; else there is none."""
    from crypto_api import direct as direct_path
    if direct_path._skcipher_call is None:
        pytest.skip("crypto_api._direct_call is not built")
    return "c"


@pytest.mark.parametrize("v", _vec("block"), ids=lambda v: v["id"])
def test_rfc5794_blocks_through_the_cipher(v, entry):
    key, pt, ct = _hex(v, "key", "plaintext", "ciphertext")
    with capi.crypto_alloc_cipher("aria-generic") as tfm:
        tfm.setkey(key)
        assert tfm._direct_enc(pt) == ct and tfm._direct_dec(ct) == pt   # the direct path takes bytes
        assert tfm.encrypt_one(pt) == ct
        assert tfm.decrypt_one(ct) == pt
        assert tfm.encrypt_one(bytearray(pt)) == ct
        assert tfm.decrypt_one(memoryview(ct)) == pt
        assert tfm._direct_enc(pt[:15]) is None                    # the full path refuses it
        with pytest.raises(capi.CryptoError) as e:
            tfm.encrypt_one(pt[:15])
        assert e.value.errno == EINVAL
    assert aria_ref.encrypt_block(key, pt) == ct   # the model agrees with the RFC


@pytest.mark.parametrize("v", _vec("cbc") + _vec("ctr"), ids=lambda v: v["id"])
def test_kernel_mode_vectors_through_the_templates(v):
    key, iv, pt, ct = _hex(v, "key", "iv", "plaintext", "ciphertext")
    with capi.crypto_alloc_skcipher(f"{v['mode']}(aria-generic)") as tfm:
        tfm.setkey(key)
        assert tfm.encrypt(pt, iv) == ct
        assert tfm.decrypt(ct, iv) == pt


def test_suites_hold_the_kernel_counts():
    assert (len(suite("ecb(aria)")), len(suite("cbc(aria)")), len(suite("ctr(aria)"))) == (3, 30, 30)


@settings(max_examples=40, deadline=None)
@given(key=keys, data=st.binary(min_size=0, max_size=40).map(lambda b: b * 16))
def test_ecb_matches_the_model(key, data):
    with capi.crypto_alloc_skcipher("ecb(aria-generic)") as tfm:
        tfm.setkey(key)
        assert tfm.encrypt(data) == aria_ref.ecb(key, data)
        assert tfm.decrypt(aria_ref.ecb(key, data)) == data


@settings(max_examples=40, deadline=None)
@given(key=keys, iv=st.binary(min_size=16, max_size=16), data=st.binary(max_size=200))
def test_ctr_matches_the_model(key, iv, data):
    with capi.crypto_alloc_skcipher("ctr(aria-generic)") as tfm:
        tfm.setkey(key)
        assert tfm.encrypt(data, iv) == aria_ref.ctr(key, iv, data)


def test_round_counts_follow_the_key_size():
    from crypto_api.algs._aria_generic import ffi, lib
    for n, rounds in ((16, 12), (24, 14), (32, 16)):
        ctx = ffi.new("struct aria_ctx *")
        assert lib.aria_set_key(ctx, bytes(n), n) == 0
        assert (ctx.rounds, ctx.key_length) == (rounds, n)
        ek = aria_ref.round_keys(bytes(n))
        assert [bytes(b for w in ctx.enc_key[i] for b in w.to_bytes(4, "big")) for i in range(rounds + 1)] == ek


def test_xts_composes_and_round_trips():
    # the template over the generic cipher (on x86 "xts(aria)" is the project's xts-aria-avx512)
    with capi.crypto_alloc_skcipher("xts(aria-generic)") as tfm:
        assert tfm.driver_name == "xts(ecb(aria-generic))"
        tfm.setkey(bytes(range(64)))
        data = bytes(range(256)) * 2
        ct = tfm.encrypt(data, bytes(16))
        assert ct != data and tfm.decrypt(ct, bytes(16)) == data


@pytest.mark.parametrize("n", [0, 8, 15, 17, 20, 31, 33, 40, 64])
def test_bad_key_lengths_refused(n):
    with capi.crypto_alloc_cipher("aria-generic") as tfm:
        with pytest.raises(capi.CryptoError) as e:
            tfm.setkey(bytes(n))
        assert e.value.errno == EINVAL and "aria-generic" in str(e.value) and str(n) in str(e.value)


def test_name_module_aliases_and_proc_record(proc_records):
    from crypto_api.algs import aria_generic
    assert set(aria_generic.MODULE_ALIASES) == {"aria", "crypto-aria", "aria-generic", "crypto-aria-generic"}
    with capi.crypto_alloc_cipher("aria-generic") as tfm:
        assert tfm.alg.cra_name == "aria" and tfm.alg.cra_priority == 100
    rec = [r for r in proc_records() if r["driver"] == "aria-generic"]
    assert len(rec) == 1
    assert {k: rec[0][k] for k in ("name", "module", "priority", "type", "blocksize", "min keysize",
                                   "max keysize")} == {
        "name": "aria", "module": "aria_generic", "priority": "100", "type": "cipher",
        "blocksize": "16", "min keysize": "16", "max keysize": "32"}
