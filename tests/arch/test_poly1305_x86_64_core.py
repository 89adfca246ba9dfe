"""Tests of the 64-bit-limb Poly1305 core (crypto_api.arch.x86._poly1305_x86_64)
and of its shash driver poly1305-x86_64.

Checks poly1305_x86_64_hash and the poly1305_x86_64_ops table (setkey / init
/ blocks / emit, as the generic descriptor code uses them) against a pure-
Python Poly1305 written from RFC 8439, the poly1305.json vectors and the
``cryptography`` package's Poly1305 (the tag is emit() + s mod 2^128, the
last partial block padded with 0x01 and absorbed with hibit 0); streaming in
arbitrary block splits; accumulator values around p = 2^130 - 5 where the
final reduction matters; the unreduced accumulator form the block loop keeps
(h2 < 6 * 2^60 between blocks) with emit and blocks on states at that bound;
and the exported table address.  Then the driver through the public API:
its one-call digest on every kind of buffer, update splits, and -ENOKEY.
Plain C, so nothing is skipped on x86.
"""
import json
import pathlib
import random

import pytest
from cryptography.hazmat.primitives.poly1305 import Poly1305
from hypothesis import given, settings, strategies as st

import crypto_api as capi
from crypto_api.arch.x86 import _poly1305_x86_64
from crypto_api.errors import ENOKEY

ffi = _poly1305_x86_64.ffi
lib = _poly1305_x86_64.lib

VECTORS = pathlib.Path(__file__).resolve().parents[2] / "crypto_api" / "testmgr" / "vectors"
P = (1 << 130) - 5
CLAMP = 0x0FFFFFFC0FFFFFFC0FFFFFFC0FFFFFFF
M128 = (1 << 128) - 1
M64 = (1 << 64) - 1
H2_BOUND = 6 << 60          # the block loop keeps h2 below this (poly1305_x86_64.c)


def load_vectors(name):
    return json.loads((VECTORS / name).read_text())["vectors"]


# ------------------------------------------------------------ reference


def ref_poly(raw_r, msg, hibit=1):
    """Poly1305 without "+ s" over whole 16-byte blocks."""
    assert len(msg) % 16 == 0
    r = int.from_bytes(raw_r, "little") & CLAMP
    h = 0
    for i in range(0, len(msg), 16):
        h = (h + int.from_bytes(msg[i:i + 16], "little") + (hibit << 128)) * r % P
    return (h & M128).to_bytes(16, "little")


def ref_mac(key, msg):
    """Full RFC 8439 Poly1305 (r || s key, any message length)."""
    r = int.from_bytes(key[:16], "little") & CLAMP
    s = int.from_bytes(key[16:32], "little")
    h = 0
    for i in range(0, len(msg), 16):
        block = msg[i:i + 16] + b"\x01"
        h = (h + int.from_bytes(block, "little")) * r % P
    return ((h + s) & M128).to_bytes(16, "little")


# ------------------------------------------------------------ C wrappers


def c_hash(raw_r, msg, hibit=1):
    out = ffi.new("uint8_t[16]")
    lib.poly1305_x86_64_hash(raw_r, msg, len(msg) // 16, hibit, out)
    return ffi.buffer(out)[:]


OPS = ffi.addressof(lib, "poly1305_x86_64_ops")


def c_mac(key, msg, ops=OPS, splits=None):
    """The tag via the ops table, the way poly1305_desc.c drives it."""
    k = ffi.new("poly1305_core_key *")
    h = ffi.new("poly1305_core_state *")
    ops.setkey(k, key[:16])
    ops.init(h)
    full = len(msg) // 16 * 16
    pos = 0
    for cut in (splits or []) + [full]:
        cut = min(max(cut // 16 * 16, pos), full)
        if cut > pos:
            ops.blocks(h, k, msg[pos:cut], (cut - pos) // 16, 1)
            pos = cut
    tail = msg[full:]
    if tail:
        block = tail + b"\x01" + bytes(15 - len(tail))
        ops.blocks(h, k, block, 1, 0)
    out = ffi.new("uint8_t[16]")
    ops.emit(h, out)
    acc = int.from_bytes(ffi.buffer(out)[:], "little")
    return ((acc + int.from_bytes(key[16:32], "little")) & M128).to_bytes(16, "little")


# ------------------------------------------------------------ tests

POLY_VECTORS = load_vectors("poly1305.json")


def test_reference_matches_vectors():
    assert len(POLY_VECTORS) == 37
    for v in POLY_VECTORS:
        assert ref_mac(bytes.fromhex(v["key"]), bytes.fromhex(v["message"])) == \
            bytes.fromhex(v["digest"]), v["id"]


@pytest.mark.parametrize("vec", POLY_VECTORS, ids=lambda v: v["id"])
def test_poly1305_vectors(vec):
    key, msg, tag = bytes.fromhex(vec["key"]), bytes.fromhex(vec["message"]), bytes.fromhex(vec["digest"])
    assert c_mac(key, msg) == tag
    rng = random.Random(vec["id"])
    splits = sorted(rng.randrange(0, len(msg) + 1) for _ in range(3))
    assert c_mac(key, msg, splits=splits) == tag


def test_ops_table():
    assert ffi.string(OPS.name) == b"x86_64"
    assert ffi.sizeof("poly1305_core_key") == 48
    assert ffi.sizeof("poly1305_core_state") == 24


def test_ops_table_is_typed_for_the_generic_extension():
    """The table's type is _poly1305's poly1305_core_ops (ffi.include, no
    integer address): its pointer goes to that extension's functions as it is,
    and works there as it does here."""
    from crypto_api.algs._poly1305 import ffi as other, lib as plib
    assert ffi.typeof(OPS) is other.typeof("poly1305_core_ops *")
    assert not hasattr(lib, "poly1305_x86_64_ops_address")
    ops = OPS
    rng0 = random.Random(3)
    r0, m0 = rng0.randbytes(16), rng0.randbytes(16 * 7)
    out0 = other.new("uint8_t[16]")
    plib.poly1305_core_hash(ops, r0, m0, 7, out0)
    assert other.buffer(out0)[:] == ref_poly(r0, m0)
    rng = random.Random(1)
    r, msg = rng.randbytes(16), rng.randbytes(16 * 40)
    k = other.new("poly1305_core_key *")
    h = other.new("poly1305_core_state *")
    ops.setkey(k, r)
    ops.init(h)
    ops.blocks(h, k, msg, 40, 1)
    out = other.new("uint8_t[16]")
    ops.emit(h, out)
    assert other.buffer(out)[:] == ref_poly(r, msg)


@pytest.mark.parametrize("hibit", [0, 1])
def test_random_against_reference(hibit):
    rng = random.Random(100 + hibit)
    for nblocks in list(range(0, 70)) + [rng.randrange(70, 600) for _ in range(30)]:
        r, msg = rng.randbytes(16), rng.randbytes(16 * nblocks)
        assert c_hash(r, msg, hibit) == ref_poly(r, msg, hibit), nblocks


@pytest.mark.parametrize("hibit", [0, 1])
def test_extreme_inputs(hibit):
    """All-ones r and blocks maximise every partial product and carry."""
    ones, zeros = b"\xff" * 16, bytes(16)
    for r in (ones, zeros, (CLAMP).to_bytes(16, "little"), (1).to_bytes(16, "little")):
        for nblocks in range(0, 40):
            for msg in (ones * nblocks, zeros * nblocks):
                assert c_hash(r, msg, hibit) == ref_poly(r, msg, hibit)


def test_final_reduction_boundary():
    """With r = 1 the accumulator is the plain sum of the blocks (+ 2^128
    each), so it can be steered to p - 3 .. p + 6: emit must fully reduce."""
    r = (1).to_bytes(16, "little")
    for delta in range(-3, 4):
        # (2^128 - 1 + 2^128) + (m2 + 2^128) = p + delta
        m1 = (1 << 128) - 1
        m2 = P + delta - m1 - (2 << 128)
        assert 0 <= m2 < (1 << 128)
        msg = m1.to_bytes(16, "little") + m2.to_bytes(16, "little")
        expect = ((P + delta) % P & M128).to_bytes(16, "little")
        assert ref_poly(r, msg) == expect
        assert c_hash(r, msg) == expect, delta
    # hibit 0: four all-ones blocks sum to 4 * (2^128 - 1), below p; adding
    # a fifth block lands anywhere around p
    for delta in range(-3, 4):
        m = [(1 << 128) - 1] * 4
        last = P + delta - sum(m)
        if not 0 <= last < (1 << 128):
            continue
        msg = b"".join(x.to_bytes(16, "little") for x in m + [last])
        assert c_hash(r, msg, 0) == ref_poly(r, msg, 0)


def test_streaming_equals_one_shot():
    rng = random.Random(7)
    for _ in range(50):
        n = rng.randrange(0, 200)
        r, msg = rng.randbytes(16), rng.randbytes(16 * n)
        k = ffi.new("poly1305_core_key *")
        h = ffi.new("poly1305_core_state *")
        lib.poly1305_x86_64_setkey(k, r)
        lib.poly1305_x86_64_init(h)
        pos = 0
        while pos < n:
            step = rng.randint(1, n - pos)
            lib.poly1305_x86_64_blocks(h, k, msg[16 * pos:16 * (pos + step)], step, 1)
            pos += step
        out = ffi.new("uint8_t[16]")
        lib.poly1305_x86_64_emit(h, out)
        assert ffi.buffer(out)[:] == ref_poly(r, msg)
        # emit does not change the state: emitting twice is the same
        out2 = ffi.new("uint8_t[16]")
        lib.poly1305_x86_64_emit(h, out2)
        assert ffi.buffer(out2)[:] == ffi.buffer(out)[:]


def test_setkey_clamps():
    k = ffi.new("poly1305_core_key *")
    lib.poly1305_x86_64_setkey(k, b"\xff" * 16)
    r = CLAMP
    assert k.w[0] == r & ((1 << 64) - 1)
    assert k.w[1] == r >> 64
    assert k.w[2] == k.w[1] + (k.w[1] >> 2)


@settings(max_examples=200, deadline=None)
@given(key=st.binary(min_size=32, max_size=32), msg=st.binary(max_size=600))
def test_hypothesis_mac(key, msg):
    assert c_mac(key, msg) == ref_mac(key, msg)


def test_crypto_memzero():
    buf = ffi.new("uint8_t[32]", [7] * 32)
    lib.crypto_memzero(buf + 1, 30)
    assert list(buf) == [7] + [0] * 30 + [7]


# ------------------------------------------------------------ cryptography peer


def peer(key, msg):
    return Poly1305.generate_tag(key, msg)


def test_peer_every_length_0_to_300():
    rng = random.Random(300)
    for n in range(0, 301):
        key, msg = rng.randbytes(32), rng.randbytes(n)
        tag = peer(key, msg)
        assert c_mac(key, msg) == tag, n
        cuts = sorted(rng.randrange(0, n + 1) for _ in range(rng.randrange(0, 4)))
        assert c_mac(key, msg, splits=cuts) == tag, (n, cuts)


def test_peer_long_random_lengths():
    rng = random.Random(70000)
    for n in [rng.randrange(300, 70001) for _ in range(25)] + [65536, 70000]:
        key, msg = rng.randbytes(32), rng.randbytes(n)
        cuts = sorted(rng.randrange(0, n + 1) for _ in range(5))
        assert c_mac(key, msg) == peer(key, msg), n
        assert c_mac(key, msg, splits=cuts) == peer(key, msg), n


@pytest.mark.parametrize("fill", [b"\xff", b"\x00", b"\xaa"])
def test_all_ones_key(fill):
    """r and s all ones (r all ones after clamping): the largest multiplier
    and the largest final addition, on all-ones / zero / pattern messages."""
    key = b"\xff" * 32
    k = ffi.new("poly1305_core_key *")
    lib.poly1305_x86_64_setkey(k, key[:16])
    assert (k.w[1] << 64 | k.w[0]) == CLAMP
    for n in list(range(0, 100)) + [255, 256, 257, 1000, 4096, 65536 + 15]:
        msg = fill * n
        assert c_mac(key, msg) == peer(key, msg), n


# ------------------------------------------------------------ the unreduced accumulator


def state_value(h):
    return h.w[0] + (h.w[1] << 64) + (h.w[2] << 128)


def new_state(h0, h1, h2):
    h = ffi.new("poly1305_core_state *")
    h.w[0], h.w[1], h.w[2] = h0, h1, h2
    return h


def emit(h):
    out = ffi.new("uint8_t[16]")
    lib.poly1305_x86_64_emit(h, out)
    return int.from_bytes(ffi.buffer(out)[:], "little")


def test_blocks_keep_h2_below_bound():
    """Largest r, largest message words and hibit, from a state at the top of
    the bound: every step lands below the bound again with the right value."""
    k = ffi.new("poly1305_core_key *")
    lib.poly1305_x86_64_setkey(k, b"\xff" * 16)
    ones = b"\xff" * 16
    for h2 in (H2_BOUND - 1, H2_BOUND - 4, 0, 1 << 62):
        h = new_state(M64, M64, h2)
        value = state_value(h)
        for i in range(200):
            lib.poly1305_x86_64_blocks(h, k, ones, 1, 1)
            value = (value + M128 + (1 << 128)) * CLAMP % P
            assert h.w[2] < H2_BOUND, (h2, i)
            assert state_value(h) % P == value, (h2, i)
            assert emit(h) == value & M128


@settings(max_examples=300, deadline=None)
@given(h0=st.integers(0, M64), h1=st.integers(0, M64), h2=st.integers(0, H2_BOUND - 1),
       raw_r=st.binary(min_size=16, max_size=16), block=st.binary(min_size=16, max_size=16),
       hibit=st.integers(0, 1))
def test_one_block_from_any_state_in_bound(h0, h1, h2, raw_r, block, hibit):
    k = ffi.new("poly1305_core_key *")
    lib.poly1305_x86_64_setkey(k, raw_r)
    h = new_state(h0, h1, h2)
    value = state_value(h)
    lib.poly1305_x86_64_blocks(h, k, block, 1, hibit)
    r = int.from_bytes(raw_r, "little") & CLAMP
    expect = (value + int.from_bytes(block, "little") + (hibit << 128)) * r % P
    assert h.w[2] < H2_BOUND
    assert state_value(h) % P == expect
    assert emit(h) == expect & M128


@settings(max_examples=300, deadline=None)
@given(h0=st.integers(0, M64), h1=st.integers(0, M64), h2=st.integers(0, H2_BOUND - 1))
def test_emit_reduces_any_state_in_bound(h0, h1, h2):
    h = new_state(h0, h1, h2)
    assert emit(h) == state_value(h) % P & M128


def test_emit_around_multiples_of_p():
    """States worth k*p + d for d = -3..3, with h2 from 0 up to the bound."""
    rng = random.Random(5)
    ks = [1, 2, 3, 4, 5, H2_BOUND // 4 - 1] + [rng.randrange(1, H2_BOUND // 4) for _ in range(30)]
    for k in ks:
        for d in range(-3, 4):
            v = k * P + d
            if v >> 128 >= H2_BOUND:
                continue
            h = new_state(v & M64, v >> 64 & M64, v >> 128)
            assert emit(h) == d % P & M128, (k, d)


# ------------------------------------------------------------ the driver


@pytest.fixture(scope="module")
def tfm():
    with capi.crypto_alloc_shash("poly1305-x86_64") as t:
        yield t


def test_driver_vectors_every_buffer_kind(tfm):
    """The one-call digest takes a whole bytes object directly and anything
    else through from_buffer: same tag either way."""
    for v in POLY_VECTORS:
        data, tag = bytes.fromhex(v["kernel_plaintext"]), bytes.fromhex(v["digest"])
        padded = b"\x00" + data + b"\x00"
        for buf in (data, bytearray(data), memoryview(data), memoryview(padded)[1:-1],
                    memoryview(bytearray(padded))[1:-1]):
            assert tfm.digest(buf) == tag, (v["id"], type(buf))
        assert tfm.desc().digest(data) == tag


def test_driver_every_length_against_peer(tfm):
    rng = random.Random(1)
    for n in list(range(0, 301)) + [rng.randrange(301, 70001) for _ in range(15)]:
        key, msg = rng.randbytes(32), rng.randbytes(n)
        assert tfm.digest(key + msg) == peer(key, msg), n


def test_driver_odd_update_splits(tfm):
    """Updates of every small size and random ones, across the key and the
    message, leave partial blocks and odd block counts between calls."""
    rng = random.Random(2)
    for n in list(range(0, 100)) + [rng.randrange(100, 20000) for _ in range(20)]:
        key, msg = rng.randbytes(32), rng.randbytes(n)
        data, tag = key + msg, peer(key, msg)
        for step in (1, 3, 15, 16, 17, 31, 33, 48):
            d = tfm.desc().init()
            for i in range(0, len(data), step):
                d.update(data[i:i + step])
            assert d.final() == tag, (n, step)
        d = tfm.desc().init()
        pos = 0
        while pos < len(data):
            k = rng.randrange(1, 200)
            d.update(data[pos:pos + k])
            pos += k
        assert d.final() == tag, n


def test_driver_short_input_is_enokey(tfm):
    for n in (0, 1, 16, 31):
        for buf in (bytes(n), bytearray(n)):
            with pytest.raises(capi.CryptoError) as e:
                tfm.digest(buf)
            assert e.value.errno == ENOKEY and "poly1305-x86_64" in str(e.value)
