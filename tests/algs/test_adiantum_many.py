"""Adiantum over many messages in one call (algs/adiantum_core.c
``adiantum_crypt_many``), the disk batch's entry point.

Up to eight messages share one HChaCha pass and, for streams of up to 512
bytes, make their streams together on the SIMD XChaCha's lanes code
(arch/x86/chacha_avx2.c); the bytes must be those of ``adiantum_crypt`` on
each message, which the other Adiantum tests check against the vectors and
the composed template.  Checked here on the instance's own SIMD description
(lanes) and on a copy without lanes, for counts around the group of eight,
message sizes around the 512-byte stream limit and the 64-byte SIMD limit,
both directions, in place, a tweak stride wider than the tweak, and the
refusal of messages under 16 bytes.
"""
from __future__ import annotations

import hashlib
import random

import pytest
from hypothesis import given, settings, strategies as st

import crypto_api as capi
from crypto_api.algs import _adiantum
from x86_simd_impls import cpu_has

ffi, lib = _adiantum.ffi, _adiantum.lib

pytestmark = pytest.mark.skipif(not cpu_has("avx2"), reason="the lanes code needs AVX2")

SPECS = ["adiantum(xchacha12-simd,aes-aesni,nhpoly1305-avx2)",
         "adiantum(xchacha20-simd,aes-generic,nhpoly1305-sse2)"]


@pytest.fixture(scope="module", params=SPECS)
def tfm(request):
    t = capi.crypto_alloc_skcipher(request.param, 0, 0)
    t.setkey(random.Random(request.param).randbytes(32))
    yield t
    t.free()


def described(tfm, lanes: bool):
    """The tfm's SIMD description, or a copy of it without the lanes code."""
    fast = tfm.ctx.direct[True]
    if lanes:
        return fast, None
    copy = ffi.new("struct adiantum_fast *", fast[0])
    copy.hchacha_lanes = ffi.NULL
    copy.stream_lanes = ffi.NULL
    return copy, copy


def one_by_one(f, data, nbytes, tweaks, stride, enc):
    out = bytearray(len(data))
    for k in range(len(data) // nbytes):
        src = data[k * nbytes:(k + 1) * nbytes]
        dst = ffi.new("uint8_t[]", nbytes)
        assert lib.adiantum_crypt(f, dst, src, nbytes, tweaks[k * stride:k * stride + 32], 32, enc) == 0
        out[k * nbytes:(k + 1) * nbytes] = ffi.buffer(dst, nbytes)
    return bytes(out)


def many(f, data, nbytes, tweaks, stride, enc, in_place=False):
    count = len(data) // nbytes
    buf = bytearray(data)
    dst = ffi.from_buffer(buf) if in_place else ffi.new("uint8_t[]", len(data))
    src = ffi.from_buffer(buf) if in_place else data
    assert lib.adiantum_crypt_many(f, dst, src, nbytes, tweaks, stride, 32, count, enc) == 0
    return bytes(buf) if in_place else ffi.buffer(dst, len(data))[:]


def test_the_simd_description_has_lanes_and_the_generic_one_none(tfm):
    assert tfm.ctx.direct[True].hchacha_lanes != ffi.NULL and tfm.ctx.direct[True].stream_lanes != ffi.NULL
    assert tfm.ctx.direct[False].hchacha_lanes == ffi.NULL and tfm.ctx.direct[False].stream_lanes == ffi.NULL


@pytest.mark.parametrize("nbytes", [16, 17, 64, 80, 81, 100, 496, 512, 528, 529, 1024, 4096])
@pytest.mark.parametrize("count", [1, 2, 7, 8, 9, 17])
@pytest.mark.parametrize("lanes", [True, False])
def test_many_is_one_message_at_a_time(tfm, nbytes, count, lanes):
    rng = random.Random(nbytes * 100 + count)
    f, _keep = described(tfm, lanes)
    stride = 40                                     # tweaks 32 bytes apart + 8
    tweaks = rng.randbytes(stride * count)
    data = rng.randbytes(nbytes * count)
    for enc in (1, 0):
        expected = one_by_one(f, data, nbytes, tweaks, stride, enc)
        assert many(f, data, nbytes, tweaks, stride, enc) == expected
        assert many(f, data, nbytes, tweaks, stride, enc, in_place=True) == expected


@settings(max_examples=40, deadline=None)
@given(nbytes=st.integers(16, 1100), count=st.integers(1, 20), seed=st.binary(min_size=1, max_size=8))
def test_many_round_trips_and_matches(tfm, nbytes, count, seed):
    f = tfm.ctx.direct[True]
    # bytes as a pure function of the drawn seed (hypothesis replays and shrinks it)
    tweaks = hashlib.shake_256(b"tweaks" + seed).digest(32 * count)
    data = hashlib.shake_256(b"data" + seed).digest(nbytes * count)
    ct = many(f, data, nbytes, tweaks, 32, 1)
    assert ct == one_by_one(f, data, nbytes, tweaks, 32, 1)
    assert many(f, ct, nbytes, tweaks, 32, 0, in_place=True) == data


def test_short_messages_are_refused_untouched(tfm):
    f = tfm.ctx.direct[True]
    dst = ffi.new("uint8_t[]", 45)
    assert lib.adiantum_crypt_many(f, dst, bytes(45), 15, bytes(96), 32, 32, 3, 1) == -22
    assert ffi.buffer(dst, 45)[:] == bytes(45)
