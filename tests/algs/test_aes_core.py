"""C-level tests of the portable AES core (crypto_api.algs._aes_generic):
every aes.json vector in both directions, key-length checks, the FIPS-197
key schedule, and a cross-check against `cryptography`'s AES-ECB.
"""
import json
import pathlib
import random

import pytest
from hypothesis import given, settings, strategies as st

from crypto_api.algs import _aes_generic

ffi = _aes_generic.ffi
lib = _aes_generic.lib

VECTORS = pathlib.Path(__file__).resolve().parents[2] / "crypto_api" / "testmgr" / "vectors"
EINVAL = 22


def load_vectors(name):
    return json.loads((VECTORS / name).read_text())["vectors"]


def unhex(s):
    return bytes.fromhex(s)


def expand(key):
    ctx = ffi.new("struct crypto_aes_ctx *")
    assert lib.aes_expandkey_generic(ctx, key, len(key)) == 0
    return ctx


def ecb(ctx, data, decrypt=False, in_place=False):
    n = len(data) // 16
    fn = lib.aes_ecb_decrypt_generic if decrypt else lib.aes_ecb_encrypt_generic
    if in_place:
        buf = ffi.new("uint8_t[]", max(len(data), 1))
        ffi.memmove(buf, data, len(data))
        fn(ctx, buf, buf, n)
        return ffi.buffer(buf, len(data))[:]
    out = ffi.new("uint8_t[]", len(data))
    fn(ctx, out, data, n)
    return bytes(out)


def blockwise(ctx, data, decrypt=False):
    fn = lib.aes_decrypt_generic if decrypt else lib.aes_encrypt_generic
    res = b""
    for i in range(0, len(data), 16):
        out = ffi.new("uint8_t[16]")
        fn(ctx, out, data[i:i + 16])
        res += bytes(out)
    return res


AES = load_vectors("aes.json")


def test_vector_set_not_empty():
    assert len(AES) == 1103
    assert {v["mode"] for v in AES} == {"block", "ecb"}


@pytest.mark.parametrize("vec", AES, ids=lambda v: v["id"])
def test_aes_vectors(vec):
    key, pt, ct = unhex(vec["key"]), unhex(vec["plaintext"]), unhex(vec["ciphertext"])
    ctx = expand(key)
    assert ctx.key_length == len(key)
    if vec["mode"] == "block":
        assert len(pt) == 16
        assert blockwise(ctx, pt) == ct
        assert blockwise(ctx, ct, decrypt=True) == pt
        # one block in place
        buf = ffi.new("uint8_t[16]", pt)
        lib.aes_encrypt_generic(ctx, buf, buf)
        assert bytes(buf) == ct
        lib.aes_decrypt_generic(ctx, buf, buf)
        assert bytes(buf) == pt
    else:
        assert ecb(ctx, pt) == ct
        assert ecb(ctx, ct, decrypt=True) == pt
        assert ecb(ctx, pt, in_place=True) == ct
        assert ecb(ctx, ct, decrypt=True, in_place=True) == pt
        assert blockwise(ctx, pt) == ct
        assert blockwise(ctx, ct, decrypt=True) == pt


@pytest.mark.parametrize("n", [0, 1, 8, 15, 17, 20, 23, 25, 31, 33, 48, 64])
def test_bad_key_length(n):
    ctx = ffi.new("struct crypto_aes_ctx *")
    assert lib.aes_expandkey_generic(ctx, bytes(max(n, 1)), n) == -EINVAL
    assert ctx.key_length == 0


def test_fips197_key_expansion_appendix_a():
    """FIPS-197 A.1/A.3: first and last round-key words (big-endian in the
    standard, stored as little-endian column words here)."""
    def le(word_hex):
        return int.from_bytes(bytes.fromhex(word_hex), "little")

    ctx = expand(bytes.fromhex("2b7e151628aed2a6abf7158809cf4f3c"))
    assert ctx.key_enc[0] == le("2b7e1516")
    assert ctx.key_enc[4] == le("a0fafe17")
    assert ctx.key_enc[43] == le("b6630ca6")
    # decryption schedule: first = last encryption round key, last = first
    assert list(ctx.key_dec[0:4]) == list(ctx.key_enc[40:44])
    assert list(ctx.key_dec[40:44]) == list(ctx.key_enc[0:4])

    ctx = expand(bytes.fromhex("603deb1015ca71be2b73aef0857d7781"
                               "1f352c073b6108d72d9810a30914dff4"))
    assert ctx.key_enc[8] == le("9ba35411")
    assert ctx.key_enc[12] == le("a8b09c1a")   # SubWord without RotWord (Nk = 8, i % 8 == 4)
    assert ctx.key_enc[59] == le("706c631e")


def test_crypto_memzero():
    ctx = expand(bytes(range(32)))
    lib.crypto_memzero(ctx, ffi.sizeof("struct crypto_aes_ctx"))
    assert ffi.buffer(ctx)[:] == bytes(ffi.sizeof("struct crypto_aes_ctx"))


try:
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
except ImportError:  # pragma: no cover - the test extra installs it
    Cipher = None

needs_cryptography = pytest.mark.skipif(Cipher is None, reason="cryptography not installed")


def peer_ecb(key, data, decrypt=False):
    c = Cipher(algorithms.AES(key), modes.ECB())
    op = c.decryptor() if decrypt else c.encryptor()
    return op.update(data) + op.finalize()


@needs_cryptography
@settings(max_examples=100, deadline=None)
@given(key=st.sampled_from([16, 24, 32]).flatmap(lambda n: st.binary(min_size=n, max_size=n)),
       nblocks=st.integers(min_value=0, max_value=40), data=st.data())
def test_matches_cryptography(key, nblocks, data):
    pt = data.draw(st.binary(min_size=16 * nblocks, max_size=16 * nblocks))
    ctx = expand(key)
    ct = peer_ecb(key, pt)
    assert ecb(ctx, pt) == ct
    assert ecb(ctx, ct, decrypt=True) == pt


@needs_cryptography
def test_large_buffer_matches_cryptography():
    rng = random.Random(2)
    for klen in (16, 24, 32):
        key = rng.randbytes(klen)
        data = rng.randbytes(64 * 1024)
        ctx = expand(key)
        assert ecb(ctx, data) == peer_ecb(key, data)
        assert ecb(ctx, data, decrypt=True) == peer_ecb(key, data, decrypt=True)
