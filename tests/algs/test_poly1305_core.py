"""C-level tests of the portable Poly1305 core and the v5.0 "poly1305" shash
descriptor (crypto_api.algs._poly1305).

The reference is a few lines of big-integer Python written from RFC 8439 2.5.
"""
import json
import pathlib
import random

import pytest
from hypothesis import given, settings, strategies as st

from crypto_api.algs import _poly1305

ffi = _poly1305.ffi
lib = _poly1305.lib
OPS = ffi.addressof(lib, "poly1305_generic_ops")

VECTORS = pathlib.Path(__file__).resolve().parents[2] / "crypto_api" / "testmgr" / "vectors"
ENOKEY = 126


def load_vectors(name):
    return json.loads((VECTORS / name).read_text())["vectors"]


def unhex(s):
    return bytes.fromhex(s)


# ---------------------------------------------------------------- reference

P1305 = (1 << 130) - 5
CLAMP = 0x0FFFFFFC0FFFFFFC0FFFFFFC0FFFFFFF


def ref_poly_blocks(r_raw, blocks, hibit=1, h=0):
    """Absorb whole 16-byte blocks; returns the (fully reduced) accumulator."""
    r = int.from_bytes(r_raw, "little") & CLAMP
    for i in range(0, len(blocks), 16):
        h = ((h + int.from_bytes(blocks[i:i + 16], "little") + (hibit << 128)) * r) % P1305
    return h


def ref_poly_nos(r_raw, blocks):
    """Poly1305 of whole blocks, hibit 1, no s: the Adiantum 'Poly'."""
    return (ref_poly_blocks(r_raw, blocks) % (1 << 128)).to_bytes(16, "little")


def ref_poly1305_mac(key, msg):
    """RFC 8439 Poly1305 tag, key = r || s."""
    r = int.from_bytes(key[:16], "little") & CLAMP
    s = int.from_bytes(key[16:32], "little")
    h = 0
    for i in range(0, len(msg), 16):
        chunk = msg[i:i + 16]
        h = ((h + int.from_bytes(chunk + b"\x01", "little")) * r) % P1305
    return ((h + s) % (1 << 128)).to_bytes(16, "little")


# ---------------------------------------------------------------- helpers


def desc_digest(chunks, ops=OPS):
    d = ffi.new("struct poly1305_desc *")
    lib.poly1305_desc_init(d)
    for c in chunks:
        lib.poly1305_desc_update(d, ffi.from_buffer(c) if c else ffi.NULL, len(c), ops)
    out = ffi.new("uint8_t[16]")
    rc = lib.poly1305_desc_final(d, out, ops)
    return rc, bytes(out)


def split_fixed(data, size):
    return [data[i:i + size] for i in range(0, len(data), size)] or [b""]


def split_random(data, rng):
    cuts = sorted(rng.randint(0, len(data)) for _ in range(rng.randint(0, 8)))
    pieces, prev = [], 0
    for c in cuts + [len(data)]:
        pieces.append(data[prev:c])
        prev = c
    return pieces


def core_hash(r_raw, blocks):
    out = ffi.new("uint8_t[16]")
    lib.poly1305_core_hash(OPS, r_raw, ffi.from_buffer(blocks) if blocks else ffi.NULL,
                           len(blocks) // 16, out)
    return bytes(out)


# ---------------------------------------------------------------- layout


def test_struct_sizes_and_ops_table():
    assert ffi.sizeof("poly1305_core_key") == 48
    assert ffi.sizeof("poly1305_core_state") == 24
    assert ffi.sizeof("struct poly1305_desc") >= 48 + 24 + 32 + 12
    assert ffi.string(OPS.name) == b"generic"
    assert lib.POLY1305_BLOCK_SIZE == 16 and lib.POLY1305_DIGEST_SIZE == 16


# ---------------------------------------------------------------- vectors

POLY1305 = load_vectors("poly1305.json")


def test_vector_set_not_empty():
    assert len(POLY1305) == 37


@pytest.mark.parametrize("vec", POLY1305, ids=lambda v: v["id"])
def test_poly1305_vectors_desc(vec):
    data, digest = unhex(vec["kernel_plaintext"]), unhex(vec["digest"])
    assert data == unhex(vec["key"]) + unhex(vec["message"])
    assert ref_poly1305_mac(unhex(vec["key"]), unhex(vec["message"])) == digest
    assert desc_digest([data]) == (0, digest)
    for size in (1, 3, 15, 16, 17, 31, 32, 33, 64):
        assert desc_digest(split_fixed(data, size)) == (0, digest), size
    rng = random.Random(vec["id"])
    for _ in range(20):
        assert desc_digest(split_random(data, rng)) == (0, digest)
    # r, s and message in separate updates, with empty updates sprinkled in
    assert desc_digest([b"", data[:16], b"", data[16:32], b"", data[32:], b""]) == (0, digest)


# ---------------------------------------------------------------- descriptor rules


@pytest.mark.parametrize("n", [0, 1, 15, 16, 17, 31])
def test_final_without_full_key_is_enokey(n):
    rc, _ = desc_digest([bytes(range(n))])
    assert rc == -ENOKEY


def test_key_only_gives_s():
    key = bytes(range(1, 33))
    assert desc_digest([key]) == (0, key[16:])


def test_desc_flags():
    d = ffi.new("struct poly1305_desc *")
    lib.poly1305_desc_init(d)
    lib.poly1305_desc_update(d, b"\x11" * 20, 20, OPS)
    assert (d.rset, d.sset, d.buflen) == (1, 0, 4)
    lib.poly1305_desc_update(d, b"\x22" * 12, 12, OPS)
    assert (d.rset, d.sset, d.buflen) == (1, 1, 0)
    assert bytes(d.s) == b"\x11" * 4 + b"\x22" * 12


@settings(max_examples=80, deadline=None)
@given(key=st.binary(min_size=32, max_size=32), msg=st.binary(max_size=300),
       rng=st.randoms(use_true_random=False))
def test_desc_matches_reference(key, msg, rng):
    expect = ref_poly1305_mac(key, msg)
    assert desc_digest([key + msg]) == (0, expect)
    assert desc_digest(split_random(key + msg, rng)) == (0, expect)


# ---------------------------------------------------------------- core


@settings(max_examples=80, deadline=None)
@given(r=st.binary(min_size=16, max_size=16),
       nblocks=st.integers(min_value=0, max_value=20), data=st.data())
def test_core_hash_matches_reference(r, nblocks, data):
    blocks = data.draw(st.binary(min_size=16 * nblocks, max_size=16 * nblocks))
    assert core_hash(r, blocks) == ref_poly_nos(r, blocks)


@pytest.mark.parametrize("hibit", [0, 1])
def test_plain_functions_and_ops_agree(hibit):
    rng = random.Random(hibit)
    r = rng.randbytes(16)
    blocks = rng.randbytes(16 * 9)
    results = []
    for setkey, init, blocks_fn, emit in (
            (lib.poly1305_generic_setkey, lib.poly1305_generic_init,
             lib.poly1305_generic_blocks, lib.poly1305_generic_emit),
            (OPS.setkey, OPS.init, OPS.blocks, OPS.emit)):
        key = ffi.new("poly1305_core_key *")
        state = ffi.new("poly1305_core_state *")
        setkey(key, r)
        init(state)
        # absorb in uneven batches: the state must carry across calls
        blocks_fn(state, key, blocks[:16], 1, hibit)
        blocks_fn(state, key, blocks[16:80], 4, hibit)
        blocks_fn(state, key, blocks[80:], 4, hibit)
        out = ffi.new("uint8_t[16]")
        emit(state, out)
        results.append(bytes(out))
    expect = (ref_poly_blocks(r, blocks, hibit) % (1 << 128)).to_bytes(16, "little")
    assert results == [expect, expect]


def test_blocks_zero_count_is_noop():
    key = ffi.new("poly1305_core_key *")
    state = ffi.new("poly1305_core_state *")
    lib.poly1305_generic_setkey(key, b"\xff" * 16)
    lib.poly1305_generic_init(state)
    lib.poly1305_generic_blocks(state, key, b"\xff" * 16, 1, 1)
    before = bytes(ffi.buffer(state))
    lib.poly1305_generic_blocks(state, key, ffi.NULL, 0, 1)
    assert bytes(ffi.buffer(state)) == before


@pytest.mark.parametrize("fill", [0x00, 0xFF, 0xAA, 0x55])
def test_extreme_inputs(fill):
    """Maximal r and all-ones blocks stress every carry path."""
    r = bytes([0xFF]) * 16
    for n in (1, 2, 3, 17, 64):
        blocks = bytes([fill]) * (16 * n)
        assert core_hash(r, blocks) == ref_poly_nos(r, blocks)
        for hibit in (0, 1):
            key = ffi.new("poly1305_core_key *")
            state = ffi.new("poly1305_core_state *")
            lib.poly1305_generic_setkey(key, r)
            lib.poly1305_generic_init(state)
            lib.poly1305_generic_blocks(state, key, blocks, n, hibit)
            out = ffi.new("uint8_t[16]")
            lib.poly1305_generic_emit(state, out)
            assert bytes(out) == (ref_poly_blocks(r, blocks, hibit) % (1 << 128)).to_bytes(16, "little")


def _limbs(value):
    return [(value >> (26 * i)) & 0x3FFFFFF for i in range(5)]


@pytest.mark.parametrize("value", [
    0, 1, P1305 - 1, P1305, P1305 + 1, P1305 + 4, (1 << 130) - 1, (1 << 128) - 1,
    (1 << 128), P1305 - (1 << 128),
])
def test_emit_full_reduction(value):
    """Load accumulator values around p directly in the 26-bit limb form
    (5 x uint32 at the start of the opaque state: generic-core specific)."""
    state = ffi.new("poly1305_core_state *")
    limbs = ffi.cast("uint32_t *", state)
    for i, l in enumerate(_limbs(value)):
        limbs[i] = l
    out = ffi.new("uint8_t[16]")
    lib.poly1305_generic_emit(state, out)
    assert bytes(out) == ((value % P1305) % (1 << 128)).to_bytes(16, "little")


def test_emit_with_unnormalised_limbs():
    """h1 may hold 2^26 (one carry) after blocks(); emit must still be exact."""
    state = ffi.new("poly1305_core_state *")
    limbs = ffi.cast("uint32_t *", state)
    raw = [0x3FFFFFF, 1 << 26, 0x3FFFFFF, 0x3FFFFFF, 0x3FFFFFF]
    for i, l in enumerate(raw):
        limbs[i] = l
    value = sum(l << (26 * i) for i, l in enumerate(raw))
    out = ffi.new("uint8_t[16]")
    lib.poly1305_generic_emit(state, out)
    assert bytes(out) == ((value % P1305) % (1 << 128)).to_bytes(16, "little")


def test_setkey_clamps():
    """Setting r with and without the clamp bits must give the same hash."""
    rng = random.Random(7)
    r = rng.randbytes(16)
    r_clamped = (int.from_bytes(r, "little") & CLAMP).to_bytes(16, "little")
    blocks = rng.randbytes(64)
    assert core_hash(r, blocks) == core_hash(r_clamped, blocks)


def test_crypto_memzero():
    key = ffi.new("poly1305_core_key *")
    lib.poly1305_generic_setkey(key, b"\x5a" * 16)
    assert ffi.buffer(key)[:] != bytes(48)
    lib.crypto_memzero(key, ffi.sizeof(key[0]))
    assert ffi.buffer(key)[:] == bytes(48)
