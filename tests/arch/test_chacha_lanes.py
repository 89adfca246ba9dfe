"""Eight independent ChaCha streams at once (arch/x86/chacha_avx2.c:
hchacha_lanes_avx2, chacha_lanes_xor_avx2), the AVX2 code Adiantum uses
over many sectors.

Each lane is checked against the pure-Python ChaCha of RFC 8439
(tests/chacha_ref.py: HChaCha as the rounds' words 0..3 and 12..15, the
keystream with its 32-bit counter), for every lane count 1..8, lengths on
and off the block size, 8 to 20 rounds, and strided buffers whose bytes
between and after the streams must stay as they were; lanes past the count
are neither read nor written (fenced buffers end right after the last one).
"""
from __future__ import annotations

import hashlib
import random
import struct

import pytest
from hypothesis import given, settings, strategies as st

from chacha_ref import M32, ref_hchacha_words, ref_keystream
from crypto_api.arch.x86 import _chacha_avx2
from x86_simd_impls import cpu_has

pytestmark = pytest.mark.skipif(not cpu_has("avx2"), reason="the CPU lacks AVX2")

ffi, lib = _chacha_avx2.ffi, _chacha_avx2.lib


def random_states(rng, lanes):
    return [[rng.getrandbits(32) for _ in range(16)] for _ in range(lanes)]


def hchacha_lanes(states, nrounds):
    lanes = len(states)
    out = ffi.new("uint32_t[]", 8 * lanes)
    lib.hchacha_lanes_avx2(ffi.new("uint32_t[]", sum(states, [])), out, lanes, nrounds)
    return [list(out[8 * i: 8 * i + 8]) for i in range(lanes)]


def stream_lanes(states, data, stride, nbytes, nrounds, dst=None):
    """Run the lanes over ``data`` (lanes * stride bytes, or into ``dst``);
    (output buffer, states after)."""
    lanes = len(states)
    words = ffi.new("uint32_t[]", sum(states, []))
    src = ffi.from_buffer(data)
    out = bytearray(data) if dst is None else dst
    lib.chacha_lanes_xor_avx2(words, ffi.from_buffer(out), src, stride, nbytes, lanes, nrounds)
    return out, [list(words[16 * i: 16 * i + 16]) for i in range(lanes)]


@pytest.mark.parametrize("nrounds", [8, 12, 20])
@pytest.mark.parametrize("lanes", range(1, 9))
def test_hchacha_lanes(lanes, nrounds):
    states = random_states(random.Random(lanes * 100 + nrounds), lanes)
    assert hchacha_lanes(states, nrounds) == [ref_hchacha_words(s, nrounds) for s in states]


@pytest.mark.parametrize("nrounds", [12, 20])
@pytest.mark.parametrize("lanes", range(1, 9))
@pytest.mark.parametrize("nbytes", [0, 1, 31, 63, 64, 65, 200, 496, 512, 1000])
def test_stream_lanes(lanes, nbytes, nrounds):
    """Each stream at its stride, the gaps between them untouched, the counters advanced."""
    rng = random.Random(lanes * 7919 + nbytes + nrounds)
    states = random_states(rng, lanes)
    stride = nbytes + 37
    data = rng.randbytes(lanes * stride)
    out, after = stream_lanes(states, data, stride, nbytes, nrounds)
    for i, s in enumerate(states):
        ks = ref_keystream(s, nbytes, nrounds)
        lane = data[i * stride: i * stride + nbytes]
        assert out[i * stride: i * stride + nbytes] == bytes(a ^ b for a, b in zip(lane, ks)), i
        assert out[i * stride + nbytes: (i + 1) * stride] == data[i * stride + nbytes: (i + 1) * stride]
        assert after[i] == s[:12] + [(s[12] + (nbytes + 63) // 64) & M32] + s[13:]


def test_stream_lanes_in_place_and_counter_wrap():
    rng = random.Random(3)
    states = random_states(rng, 8)
    for i, s in enumerate(states):
        s[12] = (0xFFFFFFFF - i) & M32          # every lane wraps at a different block
    data = bytearray(rng.randbytes(8 * 512))
    expected = b"".join(bytes(a ^ b for a, b in zip(data[512 * i: 512 * i + 512], ref_keystream(s, 512, 12)))
                        for i, s in enumerate(states))
    out, after = stream_lanes(states, data, 512, 512, 12, dst=data)    # dst is src
    assert out is data and bytes(data) == expected
    assert [a[13] for a in after] == [s[13] for s in states]          # no carry into word 13


def test_lanes_stay_inside_their_buffers(fences):
    """Buffers that end right after the last lane's stream: nothing past it is touched."""
    for lanes in (1, 3, 8):
        for nbytes in (64, 100, 512):
            stride = nbytes + 16
            size = (lanes - 1) * stride + nbytes
            fsrc, fdst = fences(size), fences(size)
            if not (fsrc.fenced and fdst.fenced):
                pytest.skip("mprotect unavailable")
            rng = random.Random(lanes + nbytes)
            data = rng.randbytes(size)
            src, dst = fsrc.ptr(ffi, size), fdst.ptr(ffi, size)
            ffi.memmove(src, data, size)
            states = random_states(rng, lanes)
            words = ffi.new("uint32_t[]", sum(states, []))
            lib.chacha_lanes_xor_avx2(words, dst, src, stride, nbytes, lanes, 20)
            got = ffi.buffer(dst, size)[:]
            for i, s in enumerate(states):
                ks = ref_keystream(s, nbytes, 20)
                lane = data[i * stride: i * stride + nbytes]
                assert got[i * stride: i * stride + nbytes] == bytes(a ^ b for a, b in zip(lane, ks))


def expand(seed: bytes, n: int) -> bytes:
    """n bytes as a pure function of a drawn seed (hypothesis replays and shrinks the seed)."""
    return hashlib.shake_256(seed).digest(n)


@settings(max_examples=60, deadline=None)
@given(lanes=st.integers(1, 8), nbytes=st.integers(0, 700), gap=st.integers(0, 80),
       nrounds=st.sampled_from([12, 20]), seed=st.binary(min_size=1, max_size=8))
def test_stream_lanes_hypothesis(lanes, nbytes, gap, nrounds, seed):
    words = struct.unpack("<%dI" % (16 * lanes), expand(b"state" + seed, 64 * lanes))
    states = [list(words[16 * i:16 * i + 16]) for i in range(lanes)]
    stride = nbytes + gap
    data = expand(b"data" + seed, lanes * stride)
    out, _ = stream_lanes(states, data, stride, nbytes, nrounds)
    for i, s in enumerate(states):
        ks = ref_keystream(s, nbytes, nrounds)
        lane = data[i * stride: i * stride + nbytes]
        assert out[i * stride: i * stride + nbytes] == bytes(a ^ b for a, b in zip(lane, ks))
