"""ChaCha20, XChaCha12 and XChaCha20 skciphers through the public API.

Mirrors crypto/chacha_generic.c as driven by the kernel's users: every
official vector of the three algorithms on the generic drivers in both
directions, cross-checks against the ``cryptography`` package's ChaCha20 and
against a small XChaCha reference written here from draft-irtf-cfrg-xchacha-03, the
1 MiB messages, and scatterlist layouts (the
skcipher walk of crypto/skcipher.c) that must not change a single byte.
"""

import struct

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms
from hypothesis import HealthCheck, given, settings, strategies as st

import crypto_api as capi
from crypto_api.testmgr.vectors import load_json
from sglayout import gather, layouts, outside, scatter
from chacha_ref import M32, ref_hchacha_words, ref_permute

FILES = ("chacha20.json", "xchacha12.json", "xchacha20.json")
CASES = [(f, v) for f in FILES for v in load_json(f)["vectors"]]


@pytest.fixture(scope="module")
def generic():
    tfms = {n: capi.crypto_alloc_skcipher(n + "-generic") for n in ("chacha20", "xchacha12", "xchacha20")}
    yield tfms
    for t in tfms.values():
        t.free()


# ---------------------------------------------------------------- independent references

def peer_chacha20(key, iv16, data):
    """``cryptography``'s ChaCha20: its 16-byte nonce is the kernel's state words 12..15."""
    return Cipher(algorithms.ChaCha20(key, iv16), mode=None).encryptor().update(data)


SIGMA = (0x61707865, 0x3320646E, 0x79622D32, 0x6B206574)


def ref_chacha_block(key, iv16, nrounds):
    state = list(SIGMA) + list(struct.unpack("<8I", key)) + list(struct.unpack("<4I", iv16))
    out = ref_permute(state, nrounds)
    return struct.pack("<16I", *((a + b) & M32 for a, b in zip(out, state)))


def ref_hchacha(key, n16, nrounds):
    state = list(SIGMA) + list(struct.unpack("<8I", key)) + list(struct.unpack("<4I", n16))
    return struct.pack("<8I", *ref_hchacha_words(state, nrounds))


def ref_xchacha_setup(key, iv32, nrounds):
    """(subkey, 16-byte ChaCha IV): position iv[24:32] first, then nonce tail iv[16:24]."""
    return ref_hchacha(key, iv32[:16], nrounds), iv32[24:32] + iv32[16:24]


def test_hchacha20_reference_matches_the_official_vectors():
    for v in load_json("hchacha20.json")["vectors"]:
        key, nonce = bytes.fromhex(v["key"]), bytes.fromhex(v["nonce"])
        assert ref_hchacha(key, nonce, v["rounds"]) == bytes.fromhex(v["output"])


# ---------------------------------------------------------------- official vectors

@pytest.mark.parametrize("filename, vec", CASES, ids=[v["id"] for _, v in CASES])
def test_official_vector_both_directions(generic, filename, vec):
    tfm = generic[filename[:-5]]
    tfm.setkey(bytes.fromhex(vec["key"]))
    iv = bytes.fromhex(vec["kernel_iv"])
    pt, ct = bytes.fromhex(vec["plaintext"]), bytes.fromhex(vec["ciphertext"])
    assert tfm.encrypt(pt, iv) == ct
    assert tfm.decrypt(ct, iv) == pt
    assert tfm.encrypt(bytearray(ct), memoryview(bytearray(iv))) == pt


@pytest.mark.parametrize("name", ["chacha20", "xchacha12", "xchacha20"])
def test_the_best_driver_passes_a_sample_of_vectors(name):
    with capi.crypto_alloc_skcipher(name) as tfm:
        assert tfm.alg.cra_name == name
        assert (tfm.blocksize, tfm.min_keysize, tfm.max_keysize, tfm.chunksize) == (1, 32, 32, 64)
        assert tfm.ivsize == (16 if name == "chacha20" else 32)
        for v in load_json(name + ".json")["vectors"][::5]:
            tfm.setkey(bytes.fromhex(v["key"]))
            assert tfm.encrypt(bytes.fromhex(v["plaintext"]), bytes.fromhex(v["kernel_iv"])).hex() \
                == v["ciphertext"]


# ---------------------------------------------------------------- cross-checks with peers

@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key=st.binary(min_size=32, max_size=32), counter=st.integers(0, 2**31),
       nonce=st.binary(min_size=12, max_size=12), data=st.binary(max_size=1500))
def test_chacha20_matches_cryptography(generic, key, counter, nonce, data):
    iv = struct.pack("<I", counter) + nonce
    tfm = generic["chacha20"]
    tfm.setkey(key)
    assert tfm.encrypt(data, iv) == peer_chacha20(key, iv, data)


def test_chacha20_counter_is_word_12_only_and_wraps():
    key, tail = bytes(range(32)), bytes(range(12))
    with capi.crypto_alloc_skcipher("chacha20") as tfm:
        tfm.setkey(key)
        out = tfm.encrypt(bytes(150), struct.pack("<I", M32) + tail)
    assert out[:64] == peer_chacha20(key, struct.pack("<I", M32) + tail, bytes(64))
    assert out[64:] == peer_chacha20(key, struct.pack("<I", 0) + tail, bytes(86))


@settings(max_examples=40, deadline=None)
@given(key=st.binary(min_size=32, max_size=32), iv=st.binary(min_size=32, max_size=32),
       data=st.binary(max_size=700))
def test_xchacha20_matches_hchacha_plus_cryptography(key, iv, data):
    iv = iv[:28] + bytes(4)               # a position below 2^32 blocks
    subkey, iv16 = ref_xchacha_setup(key, iv, 20)
    with capi.crypto_alloc_skcipher("xchacha20") as tfm:
        tfm.setkey(key)
        assert tfm.encrypt(data, iv) == peer_chacha20(subkey, iv16, data)


def test_xchacha_position_field_skips_whole_blocks(generic):
    key, nonce = bytes(range(1, 33)), bytes(range(24))
    for name in ("xchacha12", "xchacha20"):
        tfm = generic[name]
        tfm.setkey(key)
        whole = tfm.encrypt(bytes(64 * 10), nonce + struct.pack("<Q", 0))
        for pos in (1, 3, 7):
            part = tfm.encrypt(bytes(64 * (10 - pos)), nonce + struct.pack("<Q", pos))
            assert part == whole[64 * pos:]


# ---------------------------------------------------------------- 1 MiB

MIB = 1 << 20


def test_xchacha12_encrypts_one_mib_correctly():
    key = bytes((7 * i + 3) & 0xFF for i in range(32))
    iv = bytes((5 * i + 1) & 0xFF for i in range(24)) + struct.pack("<Q", 5)
    data = bytes(i * 131 & 0xFF for i in range(MIB))
    with capi.crypto_alloc_skcipher("xchacha12") as tfm:
        tfm.setkey(key)
        ct = tfm.encrypt(data, iv)
        assert tfm.decrypt(ct, iv) == data
    assert len(ct) == MIB
    subkey, iv16 = ref_xchacha_setup(key, iv, 12)
    pos = struct.unpack("<I", iv16[:4])[0]
    nblocks = MIB // 64
    blocks = sorted(set(range(16)) | set(range(nblocks - 16, nblocks)) | set(range(0, nblocks, 7)))
    for b in blocks:
        ks = ref_chacha_block(subkey, struct.pack("<I", pos + b) + iv16[4:], 12)
        got = bytes(x ^ y for x, y in zip(ct[64 * b:64 * b + 64], data[64 * b:64 * b + 64]))
        assert got == ks, f"keystream block {b} differs"


def test_xchacha20_encrypts_one_mib_correctly():
    key = bytes(range(32, 64))
    iv = bytes(range(200, 224)) + struct.pack("<Q", 1)
    data = bytes(i * 37 & 0xFF for i in range(MIB))
    with capi.crypto_alloc_skcipher("xchacha20") as tfm:
        tfm.setkey(key)
        ct = tfm.encrypt(data, iv)
    subkey, iv16 = ref_xchacha_setup(key, iv, 20)
    assert ct == peer_chacha20(subkey, iv16, data)


# ---------------------------------------------------------------- scatterlist layouts

@st.composite
def requests(draw, ivsize):
    data = draw(st.binary(min_size=0, max_size=2000))
    src = draw(layouts(len(data)))
    dst = None if draw(st.booleans()) else draw(layouts(len(data)))
    return data, draw(st.binary(min_size=32, max_size=32)), draw(
        st.binary(min_size=ivsize, max_size=ivsize)), src, dst, draw(st.booleans())


def check_layout(tfm, data, key, iv, src_layout, dst_layout, encrypt):
    tfm.setkey(key)
    expected = (tfm.encrypt if encrypt else tfm.decrypt)(data, iv)
    src, sbufs = scatter(data, src_layout, b"\xa5")
    sbefore = [bytes(b) for b in sbufs]
    if dst_layout is None:
        dst, dbufs, dst_layout = src, sbufs, src_layout
    else:
        dst, dbufs = scatter(bytes(len(data)), dst_layout, b"\x5a")
    dbefore = outside(dbufs, dst_layout)
    ivbuf = bytearray(iv)
    req = capi.skcipher_request_alloc(tfm)
    capi.skcipher_request_set_crypt(req, src, dst, len(data), ivbuf)
    (capi.crypto_skcipher_encrypt if encrypt else capi.crypto_skcipher_decrypt)(req)
    assert gather(dbufs, dst_layout) == expected
    assert outside(dbufs, dst_layout) == dbefore
    if dbufs is not sbufs:
        assert [bytes(b) for b in sbufs] == sbefore
    assert bytes(ivbuf) == iv


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=requests(16))
def test_chacha20_any_scatterlist_layout(generic, case):
    data, key, iv, src, dst, enc = case
    check_layout(generic["chacha20"], data, key, iv, src, dst, enc)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=requests(32))
def test_xchacha12_any_scatterlist_layout(generic, case):
    data, key, iv, src, dst, enc = case
    check_layout(generic["xchacha12"], data, key, iv, src, dst, enc)


def test_a_layout_with_tiny_entries_crossing_a_page(generic):
    data = bytes(range(256)) * 3
    layout = [(4093, 5), (0, 1), (4095, 70), (2, 63), (4030, 200), (0, len(data) - 339)]
    check_layout(generic["xchacha12"], data, bytes(32), bytes(range(32)), layout, None, True)
    check_layout(generic["chacha20"], data, bytes(32), bytes(16), layout,
                 [(4096 - 64, 64), (1, len(data) - 64)], False)


def test_unused_scatterlist_slots_are_skipped(generic):
    tfm = generic["xchacha20"]
    tfm.setkey(bytes(32))
    data = bytes(range(256)) * 2
    expected = tfm.encrypt(data, bytes(32))
    buf = bytearray(data)
    sgl = capi.sg_init_table(4)                  # slots 0 and 2 stay empty
    capi.sg_set_buf(sgl[1], buf, 0, 100)
    capi.sg_set_buf(sgl[3], buf, 100, 412)
    req = capi.skcipher_request_alloc(tfm)
    capi.skcipher_request_set_crypt(req, sgl, sgl, 512, bytearray(32))
    capi.crypto_skcipher_encrypt(req)
    assert buf == expected
