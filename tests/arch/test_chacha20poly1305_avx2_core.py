"""Tests of the one-pass ChaCha20-Poly1305 core
(crypto_api.arch.x86._chacha20poly1305_avx2), in both its forms (Poly1305
stitched into the 8-block AVX2 rounds, and into the 16-block AVX-512 rounds
where the CPU has AVX-512F/VL/BW, and that one with the radix-2^44 IFMA
Poly1305 for long texts where it also has AVX512_IFMA): seal and open
against the
``cryptography`` package's ChaCha20Poly1305 at associated-data and text
lengths around every boundary of the sweep (64-byte Poly1305 steps, 512-byte
chunks) and at random ones, the RFC 8439 / kernel / BoringSSL / OpenSSL
vectors of rfc7539-chacha20poly1305.json, in-place operation, and refusal of
every tampered byte with the output wiped.
"""
import json
import pathlib
import random

import pytest
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from hypothesis import given, settings, strategies as st

from crypto_api.arch.x86.cpufeature import boot_cpu_has

HAS_AVX2 = all(boot_cpu_has(f) for f in ("avx", "avx2", "bmi2", "xsave_ymm"))   # what the driver needs
pytestmark = pytest.mark.skipif(not HAS_AVX2, reason="CPU lacks AVX2 or BMI2, or OS YMM state")

if HAS_AVX2:
    from crypto_api.arch.x86._chacha20poly1305_avx2 import ffi, lib

VECTORS = json.loads((pathlib.Path(__file__).resolve().parents[2] / "crypto_api" / "testmgr" / "vectors"
                      / "rfc7539-chacha20poly1305.json").read_text())["vectors"]
EBADMSG = 74
HAS_AVX512 = all(boot_cpu_has(f) for f in ("avx512f", "avx512vl", "avx512bw", "xsave_zmm"))
HAS_IFMA = HAS_AVX512 and boot_cpu_has("avx512ifma")
CORE = {}


@pytest.fixture(autouse=True, params=["avx2", "avx512", "avx512ifma"])
def core_form(request):
    """Every test runs on each form of the core this CPU has (avx512ifma:
    the AVX-512 one with the radix-2^44 IFMA Poly1305 for texts of 4 KiB or
    more, a project addition)."""
    if request.param == "avx512" and not HAS_AVX512:
        pytest.skip("the CPU lacks AVX-512F/VL/BW or the OS does not save ZMM state")
    if request.param == "avx512ifma" and not HAS_IFMA:
        pytest.skip("the CPU lacks AVX-512F/VL/BW or AVX512_IFMA, or the OS does not save ZMM state")
    CORE["seal"] = getattr(lib, f"chacha20poly1305_seal_{request.param}")
    CORE["open"] = getattr(lib, f"chacha20poly1305_open_{request.param}")
    return request.param


def seal(key, nonce, ad, pt):
    out = ffi.new("uint8_t[]", len(pt) + 16)
    CORE["seal"](key, nonce, ad, len(ad), pt, len(pt), out)
    return bytes(ffi.buffer(out))


def open_(key, nonce, ad, sealed):
    n = len(sealed) - 16
    out = ffi.new("uint8_t[]", max(n, 1))
    ffi.memmove(out, b"\xaa" * n, n)
    rc = CORE["open"](key, nonce, ad, len(ad), sealed, n, sealed[n:], out)
    return rc, bytes(ffi.buffer(out, n))


def peer_seal(key, nonce, ad, pt):
    return ChaCha20Poly1305(key).encrypt(nonce, pt, ad)


@pytest.mark.parametrize("vec", VECTORS, ids=lambda v: v["id"])
def test_vectors(vec):
    key, nonce, ad = bytes.fromhex(vec["key"]), bytes.fromhex(vec["nonce"]), bytes.fromhex(vec["aad"])
    pt, ct, tag = (bytes.fromhex(vec[k]) for k in ("plaintext", "ciphertext", "tag"))
    rc, got = open_(key, nonce, ad, ct + tag)
    if vec["valid"]:
        assert seal(key, nonce, ad, pt) == ct + tag
        assert (rc, got) == (0, pt)
    else:
        assert (rc, got) == (-EBADMSG, bytes(len(ct)))


LENGTHS = sorted({0, 1, 15, 16, 17, 63, 64, 65, 127, 128, 129, 255, 256, 257, 511, 512, 513,
                  575, 576, 577, 1023, 1024, 1025, 1535, 1536, 1600, 4095, 4096, 4097,
                  4096 + 255, 4096 + 256, 5120 + 17, 8191, 8192, 8193, 8192 + 1024 + 512 + 15})


@pytest.mark.parametrize("adlen", [0, 1, 12, 16, 20, 63, 64, 65, 200, 513])
def test_boundary_lengths(adlen):
    rng = random.Random(adlen)
    for n in LENGTHS:
        key, nonce, ad, pt = rng.randbytes(32), rng.randbytes(12), rng.randbytes(adlen), rng.randbytes(n)
        want = peer_seal(key, nonce, ad, pt)
        assert seal(key, nonce, ad, pt) == want, n
        assert open_(key, nonce, ad, want) == (0, pt), n


@settings(max_examples=300, deadline=None)
@given(key=st.binary(min_size=32, max_size=32), nonce=st.binary(min_size=12, max_size=12),
       ad=st.binary(max_size=2000), pt=st.binary(max_size=2000))
def test_hypothesis_against_cryptography(key, nonce, ad, pt):
    want = peer_seal(key, nonce, ad, pt)
    assert seal(key, nonce, ad, pt) == want
    assert open_(key, nonce, ad, want) == (0, pt)


@pytest.mark.parametrize("n", [65536, 65536 + 13, 1 << 20, (1 << 20) + 700])
def test_large(n):
    rng = random.Random(n)
    key, nonce, ad, pt = rng.randbytes(32), rng.randbytes(12), rng.randbytes(77), rng.randbytes(n)
    want = peer_seal(key, nonce, ad, pt)
    assert seal(key, nonce, ad, pt) == want
    assert open_(key, nonce, ad, want) == (0, pt)


def test_random_lengths_every_residue():
    """Random text lengths to 20 KiB, one for every length mod 256 (so every
    length mod 16, and mod the IFMA code's 16-block step), with random AD
    lengths: seal and open against cryptography.  Lengths from 4 KiB on take
    the IFMA sweep in the avx512ifma form, in 4 KiB chunks plus a tail."""
    rng = random.Random(7539)
    for res in range(256):
        n = 256 * rng.randrange(0, 80) + res
        key, nonce, ad = rng.randbytes(32), rng.randbytes(12), rng.randbytes(rng.randrange(0, 100))
        pt = rng.randbytes(n)
        want = peer_seal(key, nonce, ad, pt)
        assert seal(key, nonce, ad, pt) == want, n
        assert open_(key, nonce, ad, want) == (0, pt), n


@settings(max_examples=100, deadline=None)
@given(key=st.binary(min_size=32, max_size=32), nonce=st.binary(min_size=12, max_size=12),
       ad=st.binary(max_size=300), pt=st.binary(max_size=1500), where=st.integers(0, 10 ** 6),
       bit=st.integers(0, 7))
def test_any_flipped_bit_is_ebadmsg_and_wipes(key, nonce, ad, pt, where, bit):
    sealed = seal(key, nonce, ad, pt)
    blob = bytearray(ad + sealed)
    blob[where % len(blob)] ^= 1 << bit
    bad_ad, bad_sealed = bytes(blob[:len(ad)]), bytes(blob[len(ad):])
    assert open_(key, nonce, bad_ad, bad_sealed) == (-EBADMSG, bytes(len(pt)))


@settings(max_examples=60, deadline=None)
@given(key=st.binary(min_size=32, max_size=32), nonce=st.binary(min_size=12, max_size=12),
       fill=st.sampled_from([0x00, 0xff, 0x80, 0x01]), chunks=st.integers(1, 9),
       extra=st.sampled_from([0, 1, 15, 16, 64, 511]))
def test_stitched_chunks_with_extreme_texts(key, nonce, fill, chunks, extra):
    """Whole 512-byte chunks take the stitched rounds (Poly1305 in
    general-purpose registers between the ChaCha quarter-rounds).  Texts of
    one repeated byte (all ones carries through every limb; zeros leave only
    the 2^128 bits): as the plaintext sealed, and as the ciphertext opened
    (the open path hashes the ciphertext)."""
    n = 512 * chunks + extra
    same = bytes([fill]) * n
    want = peer_seal(key, nonce, b"", same)
    assert seal(key, nonce, b"", same) == want
    assert open_(key, nonce, b"", want) == (0, same)
    pt = want[:n]                   # ChaCha20 is its own inverse: this encrypts to `same`
    sealed = peer_seal(key, nonce, b"", pt)
    assert sealed[:n] == same
    assert open_(key, nonce, b"", sealed) == (0, pt)


@settings(max_examples=40, deadline=None)
@given(key=st.binary(min_size=32, max_size=32), nonce=st.binary(min_size=12, max_size=12),
       fill=st.sampled_from([0x00, 0xff, 0x80, 0x01]), chunks=st.integers(1, 5),
       extra=st.sampled_from([0, 1, 15, 16, 255, 256, 1024, 4095]))
def test_ifma_chunks_with_extreme_texts(key, nonce, fill, chunks, extra):
    """As above for the IFMA sweep's 4 KiB chunks (its radix-2^44 limbs at
    their largest with all-ones texts), sealed and opened."""
    n = 4096 * chunks + extra
    same = bytes([fill]) * n
    want = peer_seal(key, nonce, b"", same)
    assert seal(key, nonce, b"", same) == want
    assert open_(key, nonce, b"", want) == (0, same)
    pt = want[:n]
    sealed = peer_seal(key, nonce, b"", pt)
    assert open_(key, nonce, b"", sealed) == (0, pt)


def test_in_place():
    rng = random.Random(11)
    for n in (0, 100, 512, 3000, 4096, 9000):
        key, nonce, ad, pt = rng.randbytes(32), rng.randbytes(12), rng.randbytes(30), rng.randbytes(n)
        buf = ffi.new("uint8_t[]", n + 16)
        ffi.memmove(buf, pt, n)
        CORE["seal"](key, nonce, ad, len(ad), buf, n, buf)
        assert bytes(ffi.buffer(buf)) == peer_seal(key, nonce, ad, pt)
        tag = bytes(ffi.buffer(buf))[n:]
        assert CORE["open"](key, nonce, ad, len(ad), buf, n, tag, buf) == 0
        assert bytes(ffi.buffer(buf, n)) == pt
