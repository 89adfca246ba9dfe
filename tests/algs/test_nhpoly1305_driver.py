"""The nhpoly1305 shash through the public API (crypto/nhpoly1305.c).

Every official vector (setkey 1088 = r ‖ NH key, digest), the streaming rule
of crypto/nhpoly1305.c (the result does not depend on how the input is split across
updates, nor on export/import in the middle), and a cross-check against a
small NHPoly1305 written here from the Adiantum paper's NH and RFC 8439's
Poly1305.
"""

import struct

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import crypto_api as capi
from crypto_api.errors import EINVAL, ENOKEY
from crypto_api.testmgr.vectors import load_json

VECS = load_json("nhpoly1305.json")["vectors"]
M32, M64, P = (1 << 32) - 1, (1 << 64) - 1, (1 << 130) - 5


@pytest.fixture(scope="module")
def tfm():
    with capi.crypto_alloc_shash("nhpoly1305-generic") as t:
        yield t


# ---------------------------------------------------------------- a reference from the spec

def ref_nh(key_words, msg):
    """NH of one message of 16..1024 bytes (a multiple of 16): 4 × le64."""
    m = struct.unpack(f"<{len(msg) // 4}I", msg)
    out = []
    for p in range(4):
        s = 0
        for u in range(0, len(m), 4):
            k = key_words[u + 4 * p:u + 4 * p + 4]
            s += ((m[u] + k[0]) & M32) * ((m[u + 2] + k[2]) & M32)
            s += ((m[u + 1] + k[1]) & M32) * ((m[u + 3] + k[3]) & M32)
        out.append(s & M64)
    return struct.pack("<4Q", *out)


def ref_nhpoly1305(key, msg):
    r = int.from_bytes(key[:16], "little") & 0x0FFFFFFC0FFFFFFC0FFFFFFC0FFFFFFF
    words = struct.unpack("<268I", key[16:])
    if len(msg) % 16:
        msg = msg + bytes(16 - len(msg) % 16)
    h = 0
    for i in range(0, len(msg), 1024):
        nh = ref_nh(words, msg[i:i + 1024])
        for j in (0, 16):
            h = (h + int.from_bytes(nh[j:j + 16], "little") + (1 << 128)) * r % P
    return (h % (1 << 128)).to_bytes(16, "little")


def test_the_reference_agrees_with_the_official_vectors():
    for v in VECS[::3]:
        assert ref_nhpoly1305(bytes.fromhex(v["key"]), bytes.fromhex(v["message"])).hex() == v["digest"]


# ---------------------------------------------------------------- the driver

def test_descriptor_fields(tfm):
    assert (tfm.alg.cra_name, tfm.digestsize, tfm.blocksize) == ("nhpoly1305", 16, 0)
    assert tfm.alg.cra_priority == 100


@pytest.mark.parametrize("vec", VECS, ids=[v["id"] for v in VECS])
def test_official_vector(tfm, vec):
    tfm.setkey(bytes.fromhex(vec["key"]))
    msg = bytes.fromhex(vec["message"])
    assert tfm.digest(msg).hex() == vec["digest"]
    assert tfm.desc().init().finup(msg).hex() == vec["digest"]
    assert tfm.desc().digest(msg).hex() == vec["digest"]


def test_the_best_driver_passes_the_vectors():
    with capi.crypto_alloc_shash("nhpoly1305") as t:
        for vec in VECS:
            t.setkey(bytes.fromhex(vec["key"]))
            assert t.digest(bytes.fromhex(vec["message"])).hex() == vec["digest"]


def test_an_empty_message_gives_zero(tfm):
    tfm.setkey(bytes(range(256)) * 4 + bytes(64))
    assert tfm.digest(b"") == bytes(16)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key=st.binary(min_size=1088, max_size=1088), size=st.integers(0, 3200),
       cuts=st.lists(st.integers(0, 3200), max_size=8), reimport_at=st.sets(st.integers(0, 8)),
       seed=st.integers(0, 255))
def test_any_split_and_export_import_gives_the_same_digest(tfm, key, size, cuts, reimport_at, seed):
    msg = bytes((seed + 7 * i) & 0xFF for i in range(size))
    tfm.setkey(key)
    expected = ref_nhpoly1305(key, msg)
    assert tfm.digest(msg) == expected
    d = tfm.desc().init()
    prev = 0
    for i, c in enumerate(sorted(min(c, size) for c in cuts)):
        d.update(msg[prev:c])
        prev = c
        if i in reimport_at:
            state = d.export()
            assert len(state) == tfm.statesize
            d = tfm.desc().import_(state)
    assert d.finup(msg[prev:]) == expected


def test_an_exported_state_resumes_on_another_descriptor(tfm):
    key = bytes((3 * i) & 0xFF for i in range(1088))
    msg = bytes(range(256)) * 9
    tfm.setkey(key)
    d = tfm.desc().init().update(msg[:1000])
    state = d.export()
    a = tfm.desc().import_(state).update(msg[1000:]).final()
    b = d.update(msg[1000:]).final()
    assert a == b == ref_nhpoly1305(key, msg)


def test_key_rules():
    with capi.crypto_alloc_shash("nhpoly1305-generic") as t:
        with pytest.raises(capi.CryptoError) as e:
            t.digest(b"abc")
        assert e.value.errno == ENOKEY and "nhpoly1305-generic" in str(e.value)
        with pytest.raises(capi.CryptoError) as e:
            t.setkey(bytes(1087))
        assert e.value.errno == EINVAL and "1087" in str(e.value) and "1088" in str(e.value)
        t.setkey(bytes(1088))
        t.digest(b"abc")
        with pytest.raises(capi.CryptoError):
            t.setkey(bytes(1089))
        with pytest.raises(capi.CryptoError) as e:     # a failed setkey re-arms NEED_KEY
            t.digest(b"abc")
        assert e.value.errno == ENOKEY
