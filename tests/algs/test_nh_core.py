"""C-level tests of NH (nh_generic) and streaming NHPoly1305
(crypto_api.algs._poly1305), against the vector files and a big-integer
Python reference written from the Adiantum spec (NH with stride 2, four
passes shifted by four key words, 1024-byte NH messages, Poly1305 without s).
"""
import json
import pathlib
import random
import struct

import pytest
from hypothesis import given, settings, strategies as st

from crypto_api.algs import _poly1305

ffi = _poly1305.ffi
lib = _poly1305.lib
OPS = ffi.addressof(lib, "poly1305_generic_ops")
NH_PTR = ffi.addressof(lib, "nh_generic")

VECTORS = pathlib.Path(__file__).resolve().parents[2] / "crypto_api" / "testmgr" / "vectors"


def load_vectors(name):
    return json.loads((VECTORS / name).read_text())["vectors"]


def unhex(s):
    return bytes.fromhex(s)


# ---------------------------------------------------------------- reference

M32, M64 = (1 << 32) - 1, (1 << 64) - 1
P1305 = (1 << 130) - 5
CLAMP = 0x0FFFFFFC0FFFFFFC0FFFFFFC0FFFFFFF


def ref_nh(key_words, msg):
    assert len(msg) % 16 == 0 and 16 <= len(msg) <= 1024
    m = struct.unpack("<%dI" % (len(msg) // 4), msg)
    sums = []
    for p in range(4):
        s = 0
        for u in range(len(msg) // 16):
            k = key_words[4 * u + 4 * p: 4 * u + 4 * p + 4]
            s += ((m[4 * u] + k[0]) & M32) * ((m[4 * u + 2] + k[2]) & M32)
            s += ((m[4 * u + 1] + k[1]) & M32) * ((m[4 * u + 3] + k[3]) & M32)
        sums.append(s & M64)
    return struct.pack("<4Q", *sums)


def ref_nhpoly1305(key, msg):
    r = int.from_bytes(key[:16], "little") & CLAMP
    kw = struct.unpack("<268I", key[16:])
    if len(msg) % 16:
        msg = msg + bytes(16 - len(msg) % 16)
    h = 0
    for off in range(0, len(msg), 1024):
        v = ref_nh(kw, msg[off:off + 1024])
        for i in (0, 16):
            h = ((h + int.from_bytes(v[i:i + 16], "little") + (1 << 128)) * r) % P1305
    return (h % (1 << 128)).to_bytes(16, "little")


# ---------------------------------------------------------------- helpers


def nh_key_words(key_bytes):
    return ffi.new("uint32_t[268]", list(struct.unpack("<268I", key_bytes)))


def c_nh(kw, msg, fn=None):
    out = ffi.new("uint8_t[32]")
    (fn or lib.nh_generic)(kw, msg, len(msg), out)
    return bytes(out)


def nhpoly_key(raw):
    key = ffi.new("struct nhpoly1305_key *")
    lib.nhpoly1305_setkey(key, raw, OPS)
    return key


def nhpoly(key, chunks, nh=NH_PTR):
    state = ffi.new("struct nhpoly1305_state *")
    lib.nhpoly1305_init(state, OPS)
    for c in chunks:
        lib.nhpoly1305_update(state, key, ffi.from_buffer(c) if c else ffi.NULL, len(c), nh, OPS)
    out = ffi.new("uint8_t[16]")
    lib.nhpoly1305_final(state, key, out, nh, OPS)
    return bytes(out)


def split_at(data, cuts):
    pieces, prev = [], 0
    for c in sorted(cuts) + [len(data)]:
        pieces.append(data[prev:c])
        prev = c
    return pieces


# ---------------------------------------------------------------- layout


def test_constants_and_sizes():
    assert lib.NHPOLY1305_KEY_SIZE == 1088
    assert lib.NH_KEY_WORDS == 268 and lib.NH_KEY_BYTES == 1072
    assert lib.NH_MESSAGE_BYTES == 1024 and lib.NH_HASH_BYTES == 32
    assert ffi.sizeof("struct nhpoly1305_key") == 48 + 4 * 268
    assert ffi.sizeof("struct nhpoly1305_state") == 24 + 16 + 4 + 4 + 32


# ---------------------------------------------------------------- NH vectors

NH = load_vectors("nh.json")
NHPOLY = load_vectors("nhpoly1305.json")


def test_vector_sets_not_empty():
    assert len(NH) == 15 and len(NHPOLY) == 30


@pytest.mark.parametrize("vec", NH, ids=lambda v: v["id"])
def test_nh_vectors(vec):
    key, msg, digest = unhex(vec["key"]), unhex(vec["message"]), unhex(vec["digest"])
    assert len(key) == 1072
    kw = nh_key_words(key)
    assert c_nh(kw, msg) == digest
    assert c_nh(kw, msg, fn=NH_PTR) == digest
    assert ref_nh(struct.unpack("<268I", key), msg) == digest


@pytest.mark.parametrize("vec", [v for v in NH if len(unhex(v["message"])) >= 32],
                         ids=lambda v: v["id"])
def test_nh_is_additive_over_key_windows(vec):
    """NH of a message == sum of NH of its pieces at their key offsets."""
    key, msg, digest = unhex(vec["key"]), unhex(vec["message"]), unhex(vec["digest"])
    kw = nh_key_words(key)
    rng = random.Random(vec["id"])
    units = len(msg) // 16
    cuts = sorted(set(16 * rng.randint(1, units - 1) for _ in range(3)))
    sums = [0, 0, 0, 0]
    for piece_start, piece in zip([0] + cuts, split_at(msg, cuts)):
        part = c_nh(kw + piece_start // 4, piece)
        sums = [(a + b) & M64 for a, b in zip(sums, struct.unpack("<4Q", part))]
    assert struct.pack("<4Q", *sums) == digest


@settings(max_examples=40, deadline=None)
@given(key=st.binary(min_size=1072, max_size=1072),
       units=st.integers(min_value=1, max_value=64), data=st.data())
def test_nh_matches_reference(key, units, data):
    msg = data.draw(st.binary(min_size=16 * units, max_size=16 * units))
    assert c_nh(nh_key_words(key), msg) == ref_nh(struct.unpack("<268I", key), msg)


def test_nh_wraps_mod_2_64():
    """All-ones message and key words: sums overflow 64 bits many times."""
    key = b"\xff" * 1072
    msg = b"\xfe" * 1024
    assert c_nh(nh_key_words(key), msg) == ref_nh(struct.unpack("<268I", key), msg)


# ---------------------------------------------------------------- NHPoly1305 vectors


@pytest.mark.parametrize("vec", NHPOLY, ids=lambda v: v["id"])
def test_nhpoly1305_vectors(vec):
    raw, msg, digest = unhex(vec["key"]), unhex(vec["message"]), unhex(vec["digest"])
    assert len(raw) == 1088
    key = nhpoly_key(raw)
    assert ref_nhpoly1305(raw, msg) == digest
    assert nhpoly(key, [msg]) == digest
    assert nhpoly(key, [msg], nh=lib.nh_generic) == digest
    for size in (1, 5, 15, 16, 17, 48, 100, 1000, 1024, 1025):
        assert nhpoly(key, [msg[i:i + size] for i in range(0, len(msg), size)]) == digest, size
    rng = random.Random(vec["id"])
    for _ in range(10):
        cuts = [rng.randint(0, len(msg)) for _ in range(rng.randint(0, 6))]
        assert nhpoly(key, split_at(msg, cuts)) == digest


def test_empty_message_zero_digest():
    key = nhpoly_key(bytes(range(256)) * 4 + bytes(64))
    assert nhpoly(key, []) == bytes(16)
    assert nhpoly(key, [b"", b""]) == bytes(16)


def test_setkey_layout():
    rng = random.Random(3)
    raw = rng.randbytes(1088)
    key = nhpoly_key(raw)
    assert list(key.nh_key) == list(struct.unpack("<268I", raw[16:]))
    ref = ffi.new("poly1305_core_key *")
    lib.poly1305_generic_setkey(ref, raw[:16])
    assert ffi.buffer(ffi.addressof(key, "poly_key"))[:] == ffi.buffer(ref)[:]


def test_nh_message_stays_open_across_updates():
    """A 1024-byte NH message continued over several updates: check the state."""
    rng = random.Random(11)
    raw = rng.randbytes(1088)
    key = nhpoly_key(raw)
    msg = rng.randbytes(1024 + 48)
    state = ffi.new("struct nhpoly1305_state *")
    lib.nhpoly1305_init(state, OPS)
    lib.nhpoly1305_update(state, key, msg[:100], 100, NH_PTR, OPS)
    assert (state.buflen, state.nh_remaining) == (4, 1024 - 96)
    lib.nhpoly1305_update(state, key, msg[100:1030], 930, NH_PTR, OPS)
    # 1024 bytes done -> the NH value went through Poly1305 and a new message opened
    assert (state.buflen, state.nh_remaining) == (6, 0)
    lib.nhpoly1305_update(state, key, msg[1030:], len(msg) - 1030, NH_PTR, OPS)
    assert (state.buflen, state.nh_remaining) == (0, 1024 - 48)
    out = ffi.new("uint8_t[16]")
    lib.nhpoly1305_final(state, key, out, NH_PTR, OPS)
    assert bytes(out) == ref_nhpoly1305(raw, msg)


@settings(max_examples=60, deadline=None)
@given(raw=st.binary(min_size=1088, max_size=1088),
       msg=st.binary(max_size=3200),
       cuts=st.lists(st.integers(min_value=0, max_value=3200), max_size=10))
def test_split_independence(raw, msg, cuts):
    key = nhpoly_key(raw)
    one = nhpoly(key, [msg])
    assert nhpoly(key, split_at(msg, [min(c, len(msg)) for c in cuts])) == one
    assert one == ref_nhpoly1305(raw, msg)


def test_long_message_matches_reference():
    rng = random.Random(5)
    raw = rng.randbytes(1088)
    msg = rng.randbytes(4096 + 7)
    key = nhpoly_key(raw)
    assert nhpoly(key, [msg]) == ref_nhpoly1305(raw, msg)
    assert nhpoly(key, [msg[i:i + 333] for i in range(0, len(msg), 333)]) == ref_nhpoly1305(raw, msg)


def test_crypto_memzero():
    key = nhpoly_key(b"\x77" * 1088)
    lib.crypto_memzero(key, ffi.sizeof("struct nhpoly1305_key"))
    assert ffi.buffer(key)[:] == bytes(ffi.sizeof("struct nhpoly1305_key"))
