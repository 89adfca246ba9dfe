"""The ChaCha library's rules (crypto_api.algs.chacha_library) over a stand-in
machine whose "SIMD code" is the generic C, counted section by section: a
call of 64 bytes or less, or one made while SIMD is not usable, runs with no
section; a longer one in pieces of at most 4096 bytes, a section each, and
the keystream is the same as one generic call.  ``counted`` gives word 12
the library's count whatever a core's own loop left there."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import crypto_api as capi
from crypto_api.algs import chacha_generic as generic
from crypto_api.algs import chacha_library as library
from chacha_ref import ref_keystream

ffi = generic.ffi


def fake_library(log, present=True, blocks=None):
    def run(state, dst, src, n, nrounds):
        log.append(n)
        generic.generic_crypt(state, ffi.from_buffer("uint8_t[]", dst, require_writable=True),
                              ffi.from_buffer("uint8_t[]", src), n, nrounds)
    return library.ArchLibrary(present=lambda: present, begin=lambda: log.append("begin"),
                               end=lambda: log.append("end"), blocks=blocks or run)


def state_words(counter):
    state = ffi.new("uint32_t[16]", [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574] + list(range(8))
                    + [counter, 7, 8, 9])
    return state


@settings(max_examples=60, deadline=None)
@given(n=st.integers(min_value=1, max_value=3 * 4096 + 200), simd=st.booleans(), counter=st.integers(0, 2**32 - 1))
def test_pieces_sections_and_bytes(n, simd, counter):
    log = []
    lib = fake_library(log, present=simd)
    src = bytes(i % 256 for i in range(n))
    dst = bytearray(n)
    state = state_words(counter)
    library.chacha_crypt_arch(lib, state, memoryview(dst), memoryview(src), n, 20)
    ks = ref_keystream(list(state_words(counter)), n, 20)
    assert bytes(dst) == bytes(a ^ b for a, b in zip(src, ks))
    assert state[12] == (counter + -(-n // 64)) % 2**32 and state[13] == 7
    if n <= 64 or not simd:
        assert log == []
    else:
        want = [4096] * (n // 4096) + ([n % 4096] if n % 4096 else [])
        assert log == [x for p in want for x in ("begin", p, "end")]


def test_no_section_while_simd_is_disabled():
    log = []
    with capi.simd_disabled():
        library.chacha_crypt_arch(fake_library(log), state_words(0), bytearray(5000), bytes(5000), 5000, 12)
        hchacha = library.hchacha_block_arch(library.ArchLibrary(
            present=lambda: True, begin=lambda: log.append("begin"), end=lambda: log.append("end"),
            blocks=None, hchacha=lambda *a: log.append("simd hchacha")))
        hchacha(state_words(0), ffi.new("uint32_t[8]"), 20)
    assert log == []
    hchacha(state_words(0), ffi.new("uint32_t[8]"), 20)
    assert log == ["begin", "simd hchacha", "end"]


@pytest.mark.parametrize("n", [65, 256, 300, 4096])
def test_counted_sets_the_library_count(n):
    def five_per_call(state, dst, src, nbytes, nrounds):       # a core loop that counts 5 per 320
        state[12] = (state[12] + 5 * -(-nbytes // 320)) & 0xFFFFFFFF

    state = state_words(2**32 - 1)
    library.counted(five_per_call)(state, bytearray(n), bytes(n), n, 20)
    assert state[12] == (2**32 - 1 + -(-n // 64)) % 2**32


def test_library_pieces():
    assert library.library_pieces(0) == ()
    assert library.library_pieces(4096) == ((0, 4096),)
    assert library.library_pieces(9000) == ((0, 4096), (4096, 4096), (8192, 808))
