"""The arm64 ChaCha NEON core (arch/arm64/chacha_neon.c) against the generic C
core and the Python reference permutation, under two CPU models."""

import struct

import pytest
from chacha_ref import ref_hchacha_words

from crypto_api.algs._chacha_generic import ffi as gffi
from crypto_api.algs._chacha_generic import lib as glib
from crypto_api.machine import backend

pytestmark = pytest.mark.emulation
CPUS = ("max", "cortex-a53")


def _state(seed: int, counter: int = 0):
    words = [(0x9E3779B9 * (seed * 16 + i + 1)) & 0xFFFFFFFF for i in range(16)]
    words[12] = counter
    return words


def _generic_xor(words, data: bytes, nrounds: int):
    """(output, state after) of the generic core (32-bit counter, wraps)."""
    st = gffi.new("uint32_t[16]", words)
    out = gffi.new("uint8_t[]", max(len(data), 1))
    glib.chacha_crypt_generic(st, out, data, len(data), nrounds)
    return bytes(gffi.buffer(out, len(data))), list(st)


@pytest.fixture(params=CPUS)
def core(request):
    return backend.load("arm64", "chacha_neon", cpu=request.param)


@pytest.mark.parametrize("nrounds", [12, 20])
def test_one_block(core, nrounds):
    words = _state(1)
    src = bytes(range(64))
    dst = bytearray(64)
    st = struct.pack("<16I", *words)
    core.chacha_block_xor_neon(st, dst, src, nrounds)
    assert bytes(dst) == _generic_xor(words, src, nrounds)[0]


def test_five_block_routine_every_length_and_no_write_past_it(core):
    words = _state(2, counter=0xFFFFFFFD)            # lanes wrap without carrying into word 13
    src = bytes((i * 29 + 3) & 0xFF for i in range(320))
    want, _ = _generic_xor(words, src, 20)
    st = struct.pack("<16I", *words)
    for n in list(range(65, 130)) + [191, 192, 193, 255, 256, 257, 319, 320]:
        dst = bytearray(b"\xa5" * 336)
        core.chacha_4block_xor_neon(st, dst, src, 20, n)
        assert bytes(dst[:n]) == want[:n], n
        assert dst[n:] == b"\xa5" * (336 - n), n


@pytest.mark.parametrize("nrounds", [12, 20])
def test_hchacha(core, nrounds):
    words = _state(3)
    out = bytearray(32)
    core.hchacha_block_neon(struct.pack("<16I", *words), out, nrounds)
    assert list(struct.unpack("<8I", out)) == ref_hchacha_words(words, nrounds)


@pytest.mark.parametrize("n, advance", [(1, 1), (64, 1), (65, 5), (320, 5), (321, 6), (700, 11), (4096, 65)])
def test_doneon_follows_v5_0_accounting(core, n, advance):
    """Output as the generic code's; word 12 advances 5 per 320-byte piece (v5.0),
    even for a short last piece, and 1 for a last piece of 64 bytes or less."""
    words = _state(4, counter=7)
    src = bytes((i * 7) & 0xFF for i in range(n))
    st = bytearray(struct.pack("<16I", *words))
    dst = bytearray(n)
    core.chacha_doneon(st, dst, src, n, 20)
    assert bytes(dst) == _generic_xor(words, src, 20)[0]
    after = struct.unpack("<16I", st)
    assert after[12] == 7 + advance and list(after[:12]) == words[:12]
