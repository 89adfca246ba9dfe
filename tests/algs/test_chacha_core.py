"""C-level tests of the portable ChaCha core (crypto_api.algs._chacha_generic).

Checks chacha_setup/chacha_init_state + chacha_crypt_generic, hchacha_block_generic
and xchacha_setup against every relevant vector file, the kernel counter rules
(word 12 only, partial blocks count, 32-bit wrap), a small pure-Python ChaCha
written from RFC 8439, and the `cryptography` package's ChaCha20.
"""
import json
import pathlib
import random
import struct

import pytest
from hypothesis import given, settings, strategies as st

from crypto_api.algs import _chacha_generic
from chacha_ref import M32, ref_hchacha_words, ref_permute

ffi = _chacha_generic.ffi
lib = _chacha_generic.lib

VECTORS = pathlib.Path(__file__).resolve().parents[2] / "crypto_api" / "testmgr" / "vectors"


def load_vectors(name):
    return json.loads((VECTORS / name).read_text())["vectors"]


def unhex(s):
    return bytes.fromhex(s)


# ---------------------------------------------------------------- helpers


def new_state():
    return ffi.new("uint32_t[16]")


def state_words(state):
    return list(state)


def crypt(state, data, nrounds, in_place=False):
    """Run chacha_crypt_generic over data; returns the output bytes."""
    if in_place:
        buf = ffi.new("uint8_t[]", max(len(data), 1))
        ffi.memmove(buf, data, len(data))
        lib.chacha_crypt_generic(state, buf, buf, len(data), nrounds)
        return bytes(ffi.buffer(buf, len(data)))
    src = ffi.from_buffer(data) if data else ffi.new("uint8_t[1]")
    dst = ffi.new("uint8_t[]", max(len(data), 1))
    lib.chacha_crypt_generic(state, dst, src, len(data), nrounds)
    return bytes(ffi.buffer(dst, len(data)))


def chacha(key, iv16, data, nrounds, in_place=False):
    state = new_state()
    lib.chacha_setup(state, key, iv16)
    return crypt(state, data, nrounds, in_place)


def xchacha(key, iv32, data, nrounds):
    state = new_state()
    lib.xchacha_setup(state, key, iv32, nrounds)
    return crypt(state, data, nrounds)


def hchacha(key, nonce16, nrounds):
    state = new_state()
    lib.chacha_setup(state, key, nonce16)
    out = ffi.new("uint32_t[8]")
    lib.hchacha_block_generic(state, out, nrounds)
    return struct.pack("<8I", *out)


# ------------------------------------------------ pure-Python reference (RFC 8439)

SIGMA = (0x61707865, 0x3320646E, 0x79622D32, 0x6B206574)


def ref_state(key, iv16):
    return list(SIGMA) + list(struct.unpack("<8I", key)) + list(struct.unpack("<4I", iv16))


def ref_chacha(key, iv16, data, nrounds):
    state = ref_state(key, iv16)
    out = bytearray()
    for off in range(0, len(data), 64):
        x = ref_permute(state, nrounds)
        ks = struct.pack("<16I", *((x[i] + state[i]) & M32 for i in range(16)))
        out += bytes(a ^ b for a, b in zip(data[off:off + 64], ks))
        state[12] = (state[12] + 1) & M32
    return bytes(out)


def ref_hchacha(key, nonce16, nrounds):
    return struct.pack("<8I", *ref_hchacha_words(ref_state(key, nonce16), nrounds))


def ref_xchacha(key, iv32, data, nrounds):
    subkey = ref_hchacha(key, iv32[:16], nrounds)
    return ref_chacha(subkey, iv32[24:32] + iv32[16:24], data, nrounds)


# ---------------------------------------------------------------- vectors

CHACHA20 = load_vectors("chacha20.json")
# The kernel ChaCha core only takes 256-bit keys: leave out the 128-bit-key
# ("expand 16-byte k") vectors of chacha-rounds.json.
CHACHA_ROUNDS_256 = [v for v in load_vectors("chacha-rounds.json") if len(unhex(v["key"])) == 32]
HCHACHA20 = load_vectors("hchacha20.json")
XCHACHA = [(v, 12) for v in load_vectors("xchacha12.json")] + \
          [(v, 20) for v in load_vectors("xchacha20.json")]


def test_vector_sets_not_empty():
    assert len(CHACHA20) == 72
    assert len(CHACHA_ROUNDS_256) == 74
    assert {v["rounds"] for v in CHACHA_ROUNDS_256} == {8, 12, 20}
    assert len(HCHACHA20) == 11
    assert len(XCHACHA) == 73


@pytest.mark.parametrize("vec", CHACHA20, ids=lambda v: v["id"])
def test_chacha20_vectors(vec):
    key, iv = unhex(vec["key"]), unhex(vec["kernel_iv"])
    pt, ct = unhex(vec["plaintext"]), unhex(vec["ciphertext"])
    assert chacha(key, iv, pt, 20) == ct
    assert chacha(key, iv, ct, 20) == pt
    assert chacha(key, iv, pt, 20, in_place=True) == ct


@pytest.mark.parametrize("vec", CHACHA20, ids=lambda v: v["id"])
def test_chacha20_vectors_split(vec):
    """Non-final steps of whole 64-byte blocks, then the rest, on one state."""
    key, iv = unhex(vec["key"]), unhex(vec["kernel_iv"])
    pt, ct = unhex(vec["plaintext"]), unhex(vec["ciphertext"])
    rng = random.Random(vec["id"])
    state = new_state()
    lib.chacha_setup(state, key, iv)
    out, pos = b"", 0
    while len(pt) - pos > 64:
        n = 64 * rng.randint(1, max(1, (len(pt) - pos) // 64))
        out += crypt(state, pt[pos:pos + n], 20)
        pos += n
    out += crypt(state, pt[pos:], 20)
    assert out == ct


@pytest.mark.parametrize("vec", CHACHA_ROUNDS_256, ids=lambda v: v["id"])
def test_chacha_rounds_vectors(vec):
    key, iv = unhex(vec["key"]), unhex(vec["kernel_iv"])
    pt, ct = unhex(vec["plaintext"]), unhex(vec["ciphertext"])
    assert chacha(key, iv, pt, vec["rounds"]) == ct
    assert ref_chacha(key, iv, pt, vec["rounds"]) == ct


@pytest.mark.parametrize("vec", HCHACHA20, ids=lambda v: v["id"])
def test_hchacha20_vectors(vec):
    key, nonce, out = unhex(vec["key"]), unhex(vec["nonce"]), unhex(vec["output"])
    assert vec["rounds"] == 20
    assert hchacha(key, nonce, 20) == out
    assert ref_hchacha(key, nonce, 20) == out


@pytest.mark.parametrize("vec,nrounds", XCHACHA, ids=lambda v: v["id"] if isinstance(v, dict) else "r%d" % v)
def test_xchacha_vectors(vec, nrounds):
    key, iv = unhex(vec["key"]), unhex(vec["kernel_iv"])
    pt, ct = unhex(vec["plaintext"]), unhex(vec["ciphertext"])
    assert len(iv) == 32
    assert xchacha(key, iv, pt, nrounds) == ct
    assert xchacha(key, iv, ct, nrounds) == pt


# ---------------------------------------------------------------- state layout


def test_init_state_layout():
    key = bytes(range(32))
    iv = bytes(range(100, 116))
    state = new_state()
    lib.chacha_setup(state, key, iv)
    assert state_words(state) == ref_state(key, iv)
    kw = ffi.new("uint32_t[8]", list(struct.unpack("<8I", key)))
    state2 = new_state()
    lib.chacha_init_state(state2, kw, iv)
    assert state_words(state2) == state_words(state)
    # "expand 32-byte k"
    assert struct.pack("<4I", *state_words(state)[:4]) == b"expand 32-byte k"


def test_xchacha_setup_state():
    key = bytes(range(1, 33))
    iv = bytes(range(200, 232))
    for nrounds in (12, 20):
        state = new_state()
        lib.xchacha_setup(state, key, iv, nrounds)
        subkey = ref_hchacha(key, iv[:16], nrounds)
        assert state_words(state) == ref_state(subkey, iv[24:32] + iv[16:24])


# ---------------------------------------------------------------- counter rules


@pytest.mark.parametrize("nbytes,blocks", [(0, 0), (1, 1), (63, 1), (64, 1), (65, 2),
                                           (128, 2), (129, 3), (1000, 16)])
def test_counter_advances_per_block_including_partial(nbytes, blocks):
    key = bytes(32)
    iv = struct.pack("<I", 7) + bytes(range(12))
    state = new_state()
    lib.chacha_setup(state, key, iv)
    before = state_words(state)
    crypt(state, bytes(nbytes), 20)
    after = state_words(state)
    assert after[12] == 7 + blocks
    assert after[:12] == before[:12] and after[13:] == before[13:]


def test_counter_wraps_without_carry():
    key = bytes(range(32))
    iv = struct.pack("<II", 0xFFFFFFFF, 0x12345678) + bytes(8)
    state = new_state()
    lib.chacha_setup(state, key, iv)
    out = crypt(state, bytes(130), 20)
    assert state[12] == 2 and state[13] == 0x12345678
    # block 0 at counter 0xffffffff, block 1 at counter 0 with word 13 unchanged
    iv0 = struct.pack("<II", 0, 0x12345678) + bytes(8)
    assert out[64:128] == chacha(key, iv0, bytes(64), 20)
    assert out[128:] == chacha(key, struct.pack("<II", 1, 0x12345678) + bytes(8), bytes(2), 20)
    assert out == ref_chacha(key, iv, bytes(130), 20)


def test_partial_block_then_continue_skips_rest_of_block():
    """A partial step consumes its block: the next call starts a fresh block."""
    key, iv = bytes(range(32)), bytes(16)
    state = new_state()
    lib.chacha_setup(state, key, iv)
    a = crypt(state, bytes(10), 20)
    b = crypt(state, bytes(64), 20)
    full = chacha(key, iv, bytes(128), 20)
    assert a == full[:10] and b == full[64:128]


# ---------------------------------------------------------------- peers

try:
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms
except ImportError:  # pragma: no cover - the test extra installs it
    Cipher = algorithms = None

needs_cryptography = pytest.mark.skipif(Cipher is None, reason="cryptography not installed")


def peer_chacha20(key, iv16, data):
    """cryptography's ChaCha20 takes the same 16-byte counter||nonce block."""
    c = Cipher(algorithms.ChaCha20(key, iv16), mode=None)
    enc = c.encryptor()
    return enc.update(data) + enc.finalize()


@needs_cryptography
@settings(max_examples=60, deadline=None)
@given(key=st.binary(min_size=32, max_size=32),
       counter=st.integers(min_value=0, max_value=2**32 - 200),
       nonce=st.binary(min_size=12, max_size=12),
       data=st.binary(max_size=2000))
def test_chacha20_matches_cryptography(key, counter, nonce, data):
    iv = struct.pack("<I", counter) + nonce
    assert chacha(key, iv, data, 20) == peer_chacha20(key, iv, data)


@settings(max_examples=40, deadline=None)
@given(key=st.binary(min_size=32, max_size=32),
       iv=st.binary(min_size=16, max_size=16),
       nrounds=st.sampled_from([8, 12, 20]),
       data=st.binary(max_size=300))
def test_chacha_matches_reference(key, iv, nrounds, data):
    assert chacha(key, iv, data, nrounds) == ref_chacha(key, iv, data, nrounds)


@settings(max_examples=40, deadline=None)
@given(key=st.binary(min_size=32, max_size=32),
       iv=st.binary(min_size=32, max_size=32),
       nrounds=st.sampled_from([12, 20]),
       data=st.binary(max_size=300))
def test_xchacha_matches_reference(key, iv, nrounds, data):
    assert xchacha(key, iv, data, nrounds) == ref_xchacha(key, iv, data, nrounds)


@settings(max_examples=30, deadline=None)
@given(key=st.binary(min_size=32, max_size=32),
       nonce=st.binary(min_size=16, max_size=16))
def test_hchacha12_matches_reference(key, nonce):
    assert hchacha(key, nonce, 12) == ref_hchacha(key, nonce, 12)


@needs_cryptography
def test_large_buffer_matches_cryptography():
    rng = random.Random(1)
    key = rng.randbytes(32)
    iv = struct.pack("<I", 5) + rng.randbytes(12)
    data = rng.randbytes(1 << 20)
    assert chacha(key, iv, data, 20) == peer_chacha20(key, iv, data)
    assert chacha(key, iv, data, 20, in_place=True) == peer_chacha20(key, iv, data)


def test_crypto_memzero():
    state = new_state()
    lib.chacha_setup(state, bytes(range(32)), bytes(range(16)))
    lib.crypto_memzero(state, ffi.sizeof(state))
    assert state_words(state) == [0] * 16
