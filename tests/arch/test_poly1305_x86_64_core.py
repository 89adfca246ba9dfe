"""C-level tests of the 64-bit-limb Poly1305 core
(crypto_api.arch.x86._poly1305_x86_64).

Checks poly1305_x86_64_hash and the poly1305_x86_64_ops table (setkey / init
/ blocks / emit, as the generic descriptor code uses them) against a pure-
Python Poly1305 written from RFC 8439 and the poly1305.json vectors (the tag
is emit() + s mod 2^128, the last partial block padded with 0x01 and
absorbed with hibit 0); streaming in arbitrary block splits; accumulator
values around p = 2^130 - 5 where the final reduction matters; and the
exported table address.  Plain C, so nothing is skipped on x86.
"""
import json
import pathlib
import random

import pytest
from cffi import FFI
from hypothesis import given, settings, strategies as st

from crypto_api.arch.x86 import _poly1305_x86_64

ffi = _poly1305_x86_64.ffi
lib = _poly1305_x86_64.lib

VECTORS = pathlib.Path(__file__).resolve().parents[2] / "crypto_api" / "testmgr" / "vectors"
P = (1 << 130) - 5
CLAMP = 0x0FFFFFFC0FFFFFFC0FFFFFFC0FFFFFFF
M128 = (1 << 128) - 1


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
    assert lib.poly1305_x86_64_ops_address() == int(ffi.cast("uintptr_t", OPS))
    assert ffi.sizeof("poly1305_core_key") == 48
    assert ffi.sizeof("poly1305_core_state") == 24


def test_ops_address_usable_from_another_ffi():
    """The integer address turns into a working table in a fresh ffi, as the
    generic descriptor extension will do."""
    other = FFI()
    other.cdef("""
        typedef struct { uint64_t w[6]; } poly1305_core_key;
        typedef struct { uint64_t w[3]; } poly1305_core_state;
        typedef struct poly1305_core_ops {
            const char *name;
            void (*setkey)(poly1305_core_key *, const uint8_t *);
            void (*init)(poly1305_core_state *);
            void (*blocks)(poly1305_core_state *, const poly1305_core_key *,
                           const uint8_t *, size_t, uint32_t);
            void (*emit)(const poly1305_core_state *, uint8_t *);
        } poly1305_core_ops;
    """)
    ops = other.cast("const poly1305_core_ops *", lib.poly1305_x86_64_ops_address())
    assert other.string(ops.name) == b"x86_64"
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
