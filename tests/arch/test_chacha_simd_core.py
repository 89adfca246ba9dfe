"""C-level tests of the x86 SIMD ChaCha cores.

Modules: crypto_api.arch.x86._chacha_ssse3 / _chacha_avx2 / _chacha_avx512vl /
_chacha_avx512 (chacha_dosimd_<isa> and hchacha_block_ssse3; "avx512" is the
16-block zmm code, beyond the v5.0 kernel) and the CPU probe
crypto_api.arch.x86._cpufeatures.  Each ISA's tests run only where cpu_has()
reports that ISA.

Checked against the official vectors (chacha20.json through kernel_iv,
chacha-rounds.json for 8/12/20 rounds, hchacha20.json, xchacha12/20.json via
HChaCha + dosimd), a pure-Python ChaCha written from RFC 8439, the generic C
core (algs/chacha_generic.c) and the `cryptography` package's ChaCha20
(16-byte nonce = the kernel IV) on random data: every length 0..2200 and
random lengths up to 70000, nrounds 8/12/20, in place and out of place, the
state[12] advance by the blocks consumed (also across calls; 32-bit wrap, no
carry), and no access past the end of src/dst (poisoned guard bytes, plus
buffers that end right before an inaccessible page).
"""
import json
import pathlib
import random
import struct

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms
from hypothesis import given, settings, strategies as st

from chacha_ref import M32, ref_hchacha_words, ref_keystream
from crypto_api.algs import _chacha_generic
from crypto_api.arch.x86 import _chacha_avx2, _chacha_avx512, _chacha_avx512vl, _chacha_ssse3, _cpufeatures
from x86_simd_impls import Impl, cpu_has, impl_params

VECTORS = pathlib.Path(__file__).resolve().parents[2] / "crypto_api" / "testmgr" / "vectors"


def load_vectors(name):
    return json.loads((VECTORS / name).read_text())["vectors"]


def unhex(s):
    return bytes.fromhex(s)


CHACHA = "chacha_dosimd_"
IMPLS = [
    Impl("ssse3", _chacha_ssse3, ("ssse3",), CHACHA),
    Impl("avx2", _chacha_avx2, ("avx", "avx2", "ssse3"), CHACHA),
    Impl("avx512vl", _chacha_avx512vl, ("avx2", "avx512f", "avx512vl", "avx512bw", "ssse3"), CHACHA),
    Impl("avx512", _chacha_avx512, ("avx2", "avx512f", "avx512vl", "avx512bw", "ssse3"), CHACHA),
]


IMPL_PARAMS = impl_params(IMPLS)


# ------------------------------------------------ pure-Python reference (RFC 8439)

SIGMA = b"expand 32-byte k"
TAU = b"expand 16-byte k"


def state_words(key, iv16):
    """Initial state: constants, key (32 bytes, or 16 repeated), 16-byte IV."""
    if len(key) == 16:
        return list(struct.unpack("<4I", TAU) + struct.unpack("<4I", key) * 2 +
                    struct.unpack("<4I", iv16))
    return list(struct.unpack("<4I", SIGMA) + struct.unpack("<8I", key) +
                struct.unpack("<4I", iv16))


def xor(a, b):
    """a ^ b over the shorter length (as integers: fast for long buffers)."""
    n = min(len(a), len(b))
    return (int.from_bytes(a[:n], "little") ^ int.from_bytes(b[:n], "little")).to_bytes(n, "little")


def generic_crypt(words, data, nrounds):
    """The generic C core (chacha_crypt_generic) over data: (output, state after)."""
    ffi, lib = _chacha_generic.ffi, _chacha_generic.lib
    n = len(data)
    state = ffi.new("uint32_t[16]", list(words))
    dst = ffi.new("uint8_t[]", max(n, 1))
    lib.chacha_crypt_generic(state, dst, ffi.from_buffer("uint8_t[]", data), n, nrounds)
    return ffi.buffer(dst, n)[:], list(state)


def peer_chacha20(key, iv16, data):
    """cryptography/OpenSSL ChaCha20; its 16-byte nonce is the kernel IV.
    (OpenSSL carries a word-12 overflow into word 13, so callers keep the
    counter far from 2^32 when comparing.)"""
    return Cipher(algorithms.ChaCha20(key, iv16), mode=None).encryptor().update(data)


# ---------------------------------------------------------------- buffers

def new_state(ffi, words):
    return ffi.new("uint32_t[16]", list(words))


def run(impl, words, data, nrounds, in_place=False, guard=64):
    """dosimd over data; returns (output, state after).  dst carries `guard`
    poison bytes that must stay untouched; src must stay unchanged."""
    ffi = impl.ffi
    n = len(data)
    state = new_state(ffi, words)
    poison = bytes((0xA5 + i) & 0xFF for i in range(guard))
    dst = ffi.new("uint8_t[]", n + guard)
    ffi.memmove(dst, data + poison, n + guard)
    if in_place:
        impl.fn(state, dst, dst, n, nrounds)
    else:
        src = ffi.new("uint8_t[]", max(n, 1))
        ffi.memmove(src, data, n)
        impl.fn(state, dst, src, n, nrounds)
        assert ffi.buffer(src, n)[:] == data, "src modified"
    out = ffi.buffer(dst, n + guard)[:]
    assert out[n:] == poison, "wrote past dst + bytes"
    return out[:n], list(state)


def expect_state(words, n):
    after = list(words)
    after[12] = (after[12] + (n + 63) // 64) & M32
    return after


# ---------------------------------------------------------------- vectors

CHACHA20 = load_vectors("chacha20.json")
CHACHA_ROUNDS = load_vectors("chacha-rounds.json")
HCHACHA20 = load_vectors("hchacha20.json")
XCHACHA = [(v, 12) for v in load_vectors("xchacha12.json")] + \
          [(v, 20) for v in load_vectors("xchacha20.json")]


def test_vector_sets_loaded():
    assert len(CHACHA20) == 72
    assert len(CHACHA_ROUNDS) == 173
    assert {v["rounds"] for v in CHACHA_ROUNDS} == {8, 12, 20}
    assert len(HCHACHA20) == 11
    assert len(XCHACHA) == 73


@pytest.mark.parametrize("impl", IMPL_PARAMS)
def test_chacha20_vectors(impl):
    for vec in CHACHA20:
        key, iv = unhex(vec["key"]), unhex(vec["kernel_iv"])
        pt, ct = unhex(vec["plaintext"]), unhex(vec["ciphertext"])
        words = state_words(key, iv)
        for in_place in (False, True):
            out, after = run(impl, words, pt, 20, in_place)
            assert out == ct, vec["id"]
            assert after == expect_state(words, len(pt)), vec["id"]
        assert run(impl, words, ct, 20)[0] == pt, vec["id"]


@pytest.mark.parametrize("impl", IMPL_PARAMS)
def test_chacha_rounds_vectors(impl):
    """8/12/20 rounds, 256- and 128-bit keys (the core takes any state)."""
    for vec in CHACHA_ROUNDS:
        key, iv = unhex(vec["key"]), unhex(vec["kernel_iv"])
        pt, ct = unhex(vec["plaintext"]), unhex(vec["ciphertext"])
        words = state_words(key, iv)
        out, after = run(impl, words, pt, vec["rounds"])
        assert out == ct, vec["id"]
        assert after == expect_state(words, len(pt)), vec["id"]


@pytest.mark.parametrize("impl", IMPL_PARAMS)
def test_hchacha20_vectors(impl):
    ffi = impl.ffi
    for vec in HCHACHA20:
        key, nonce, expected = unhex(vec["key"]), unhex(vec["nonce"]), unhex(vec["output"])
        state = new_state(ffi, state_words(key, nonce))
        before = list(state)
        out = ffi.new("uint32_t[8]")
        impl.lib.hchacha_block_ssse3(state, out, vec["rounds"])
        assert struct.pack("<8I", *out) == expected, vec["id"]
        assert list(state) == before


def xchacha_simd(impl, key, iv32, data, nrounds, in_place=False):
    """XChaCha the way the x86 glue does it: HChaCha (SSSE3) for the subkey,
    then dosimd with words 12..15 = iv[24:32] || iv[16:24]."""
    ffi = impl.ffi
    hstate = new_state(ffi, state_words(key, iv32[:16]))
    sub = ffi.new("uint32_t[8]")
    impl.lib.hchacha_block_ssse3(hstate, sub, nrounds)
    words = state_words(struct.pack("<8I", *sub), iv32[24:32] + iv32[16:24])
    out, after = run(impl, words, data, nrounds, in_place)
    assert after == expect_state(words, len(data))
    return out


@pytest.mark.parametrize("impl", IMPL_PARAMS)
def test_xchacha_vectors(impl):
    for vec, nrounds in XCHACHA:
        key, iv = unhex(vec["key"]), unhex(vec["kernel_iv"])
        pt, ct = unhex(vec["plaintext"]), unhex(vec["ciphertext"])
        assert xchacha_simd(impl, key, iv, pt, nrounds) == ct, vec["id"]
        assert xchacha_simd(impl, key, iv, ct, nrounds, in_place=True) == pt, vec["id"]


@pytest.mark.parametrize("impl", IMPL_PARAMS)
@pytest.mark.parametrize("nrounds", [8, 12, 20])
def test_hchacha_matches_reference(impl, nrounds):
    rng = random.Random(1000 + nrounds)
    ffi = impl.ffi
    for _ in range(50):
        words = [rng.getrandbits(32) for _ in range(16)]
        out = ffi.new("uint32_t[8]")
        impl.lib.hchacha_block_ssse3(new_state(ffi, words), out, nrounds)
        assert list(out) == ref_hchacha_words(words, nrounds)


# ---------------------------------------------------------- random inputs

MAX_LEN = 6000
LONG_LEN = 70000    # many 1024-byte chunks of the 16-block code, and 4096-byte walk steps
_KEYSTREAM_CACHE = {}


def reference_stream(nrounds, nbytes=MAX_LEN):
    """(words, keystream of nbytes bytes) for a fixed random state, counter
    far from the wrap; the 20-round stream is also checked against OpenSSL."""
    if (nrounds, nbytes) not in _KEYSTREAM_CACHE:
        rng = random.Random(nrounds)
        key = bytes(rng.getrandbits(8) for _ in range(32))
        iv = struct.pack("<I", rng.getrandbits(20)) + bytes(rng.getrandbits(8) for _ in range(12))
        words = state_words(key, iv)
        ks = ref_keystream(words, nbytes, nrounds)
        if nrounds == 20:
            assert peer_chacha20(key, iv, bytes(nbytes)) == ks
        _KEYSTREAM_CACHE[nrounds, nbytes] = (words, ks)
    return _KEYSTREAM_CACHE[nrounds, nbytes]


@pytest.mark.parametrize("impl", IMPL_PARAMS)
@pytest.mark.parametrize("nrounds", [8, 12, 20])
@pytest.mark.parametrize("in_place", [False, True], ids=["out_of_place", "in_place"])
def test_every_length_0_to_600(impl, nrounds, in_place):
    words, ks = reference_stream(nrounds)
    rng = random.Random(nrounds * 2 + in_place)
    for n in range(0, 601):
        data = bytes(rng.getrandbits(8) for _ in range(n))
        out, after = run(impl, words, data, nrounds, in_place)
        assert out == xor(data, ks), "length %d" % n
        assert after == expect_state(words, n), "length %d" % n


@pytest.mark.parametrize("impl", IMPL_PARAMS)
@pytest.mark.parametrize("nrounds", [8, 12, 20])
def test_random_lengths_up_to_5000(impl, nrounds):
    words, ks = reference_stream(nrounds)
    rng = random.Random(77 + nrounds)
    lengths = [rng.randrange(601, MAX_LEN + 1) for _ in range(40)] + [4096, MAX_LEN]
    for n in lengths:
        data = rng.randbytes(n)
        for in_place in (False, True):
            out, after = run(impl, words, data, nrounds, in_place)
            assert out == xor(data, ks), "length %d" % n
            assert after == expect_state(words, n)


@pytest.mark.parametrize("impl", IMPL_PARAMS)
@pytest.mark.parametrize("nrounds", [12, 20])
def test_random_lengths_up_to_70000(impl, nrounds):
    """Long inputs (many 16-block chunks, then every kind of tail) against
    the pure-Python reference and the generic C core."""
    words, ks = reference_stream(nrounds, LONG_LEN)
    rng = random.Random(7000 + nrounds)
    lengths = [rng.randrange(2201, LONG_LEN + 1) for _ in range(10)] + [65536, 65536 + 576, LONG_LEN]
    for n in lengths:
        data = rng.randbytes(n)
        expected = xor(data, ks)
        assert generic_crypt(words, data, nrounds) == (expected, expect_state(words, n))
        for in_place in (False, True):
            out, after = run(impl, words, data, nrounds, in_place)
            assert out == expected, "length %d" % n
            assert after == expect_state(words, n)


@pytest.mark.parametrize("impl", IMPL_PARAMS)
def test_against_openssl_random_keys(impl):
    rng = random.Random(4242)
    for _ in range(60):
        n = rng.randrange(0, 3000)
        key = rng.randbytes(32)
        iv = struct.pack("<I", rng.getrandbits(24)) + rng.randbytes(12)
        data = rng.randbytes(n)
        out, after = run(impl, state_words(key, iv), data, 20, in_place=bool(n & 1))
        assert out == peer_chacha20(key, iv, data)


@pytest.mark.parametrize("impl", IMPL_PARAMS)
@pytest.mark.parametrize("nrounds", [12, 20])
def test_no_access_past_buffers(impl, nrounds, fences):
    """src and dst end exactly at an inaccessible page: a read or write of
    even one byte past either faults (and kills the test run).  Every length
    0..2200 (every tail after zero, one and two 1024-byte chunks), checked
    against the pure-Python reference and the generic C core, out of place
    and in place, with the state advance; then the lengths around one and two
    2560-byte groups of the AVX2 10-block code."""
    words, ks = reference_stream(nrounds)
    ffi = impl.ffi
    fsrc, fdst = fences(8192), fences(8192)
    if not (fsrc.fenced and fdst.fenced):
        pytest.skip("mprotect unavailable")
    rng = random.Random(5)
    # (the AVX2 code takes 2560-byte groups of 10-block chunks: every tail after one group too)
    for n in list(range(0, 2201)) + list(range(2555, 2700)) + [4095, 4096, 5120, 5121, 5759, 5760]:
        data = rng.randbytes(n)
        expected = xor(data, ks)
        src, dst = fsrc.ptr(ffi, n), fdst.ptr(ffi, n)
        ffi.memmove(src, data, n)
        state = new_state(ffi, words)
        impl.fn(state, dst, src, n, nrounds)
        out = ffi.buffer(dst, n)[:]
        assert out == expected, "length %d" % n
        assert (out, list(state)) == generic_crypt(words, data, nrounds), "length %d" % n
        assert ffi.buffer(src, n)[:] == data
        # in place, on the fenced buffer
        state = new_state(ffi, words)
        impl.fn(state, src, src, n, nrounds)
        assert ffi.buffer(src, n)[:] == expected, "length %d" % n
        assert list(state) == expect_state(words, n)


@pytest.mark.parametrize("impl", IMPL_PARAMS)
@pytest.mark.parametrize("nrounds", [8, 20])
def test_counter_wraps_without_carry(impl, nrounds):
    """Word 12 is a 32-bit counter: it wraps to 0 and never carries into 13."""
    rng = random.Random(9)
    for start in (0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFF9, 0xFFFFFFF0):
        for n in (1, 64, 65, 200, 256, 300, 512, 600, 1100, 2100, 2560, 2600, 5200):
            words = [rng.getrandbits(32) for _ in range(16)]
            words[12] = start
            data = rng.randbytes(n)
            out, after = run(impl, words, data, nrounds)
            assert out == xor(data, ref_keystream(words, n, nrounds))
            assert after[12] == (start + (n + 63) // 64) & M32
            assert after[13] == words[13]
            assert after[:12] == words[:12] and after[14:] == words[14:]


@pytest.mark.parametrize("impl", IMPL_PARAMS)
@pytest.mark.parametrize("nrounds", [12, 20])
def test_stepwise_equals_one_shot(impl, nrounds):
    """Whole-block steps followed by a final step (the skcipher walk's use)
    give the one-shot output, the state carrying the counter across calls:
    after each call state[12] has advanced by the blocks consumed so far."""
    words, ks = reference_stream(nrounds, LONG_LEN)
    ffi = impl.ffi
    rng = random.Random(31 + nrounds)
    for i in range(40):
        n = rng.randrange(0, 3000 if i < 30 else LONG_LEN)
        data = rng.randbytes(n)
        state = new_state(ffi, words)
        buf = ffi.new("uint8_t[]", max(n, 1))
        ffi.memmove(buf, data, n)
        pos = 0
        while n - pos > 64:
            step = 64 * rng.randint(1, min(n - pos, 5000) // 64)
            if pos + step == n:
                break
            impl.fn(state, buf + pos, buf + pos, step, nrounds)
            pos += step
            assert list(state) == expect_state(words, pos)
        impl.fn(state, buf + pos, buf + pos, n - pos, nrounds)
        assert ffi.buffer(buf, n)[:] == xor(data, ks)
        assert list(state) == expect_state(words, n)


@pytest.mark.parametrize("impl", IMPL_PARAMS)
@settings(max_examples=60, deadline=None)
@given(data=st.binary(max_size=1200), key=st.binary(min_size=32, max_size=32),
       nonce=st.binary(min_size=12, max_size=12), ctr=st.integers(0, 2**31))
def test_hypothesis_against_openssl(impl, data, key, nonce, ctr):
    iv = struct.pack("<I", ctr) + nonce
    out, after = run(impl, state_words(key, iv), data, 20)
    assert out == peer_chacha20(key, iv, data)
    assert after[12] == ctr + (len(data) + 63) // 64


@pytest.mark.parametrize("impl", IMPL_PARAMS)
def test_all_isas_agree(impl):
    """Each available ISA gives the same bytes as the SSSE3 code."""
    if not cpu_has("ssse3"):
        pytest.skip("CPU lacks SSSE3")
    base = IMPLS[0]
    rng = random.Random(55)
    for n in (1, 63, 64, 65, 127, 128, 129, 255, 256, 257, 511, 512, 513, 1023, 1024, 1025,
              1536, 1537, 2047, 4096):
        words = [rng.getrandbits(32) for _ in range(16)]
        data = rng.randbytes(n)
        for nrounds in (8, 12, 20):
            assert run(impl, words, data, nrounds) == run(base, words, data, nrounds)


# ---------------------------------------------------------- helpers / probe


@pytest.mark.parametrize("module", [_chacha_ssse3, _chacha_avx2, _chacha_avx512vl, _chacha_avx512,
                                    _cpufeatures],
                         ids=["ssse3", "avx2", "avx512vl", "avx512", "cpufeatures"])
def test_crypto_memzero(module):
    ffi = module.ffi
    buf = ffi.new("uint8_t[100]", list(range(1, 101)))
    module.lib.crypto_memzero(buf + 10, 50)
    assert list(buf) == list(range(1, 11)) + [0] * 50 + list(range(61, 101))


def test_cpufeatures_probe():
    lib = _cpufeatures.lib
    names = ["sse2", "ssse3", "avx", "avx2", "avx512f", "avx512vl", "avx512bw",
             "aes", "pclmul", "osxsave", "xsave_ymm", "xsave_zmm"]
    for name in names:
        assert lib.cpu_has(name.encode()) in (0, 1)
    assert lib.cpu_has(b"no-such-feature") == 0
    assert lib.cpu_feature_known(b"no-such-feature") == 0
    if not lib.cpu_feature_known(b"sse2"):
        # non-x86 build: everything is absent
        assert not any(lib.cpu_has(n.encode()) for n in names)
        return
    assert all(lib.cpu_feature_known(n.encode()) for n in names)
    assert lib.cpu_has(b"sse2") == 1  # every x86-64 CPU
    # usable features imply their OS state and their prerequisites
    if cpu_has("avx") or cpu_has("avx2"):
        assert cpu_has("osxsave") and cpu_has("xsave_ymm")
    if cpu_has("avx512f") or cpu_has("avx512vl") or cpu_has("avx512bw"):
        assert cpu_has("xsave_zmm") and cpu_has("xsave_ymm")
    if cpu_has("xsave_zmm"):
        assert cpu_has("xsave_ymm")
    if cpu_has("xsave_ymm"):
        assert (lib.cpu_xcr0() & 0x6) == 0x6
    for name in names[:-3]:
        if cpu_has(name):
            assert lib.cpu_cpuid_has(name.encode()) == 1
