"""C-level tests of the AES-NI core (crypto_api.arch.x86._aesni).

Checks aesni_setkey / aesni_encrypt / aesni_decrypt / aesni_ecb_encrypt /
aesni_ecb_decrypt against all aes.json vectors (single blocks and ECB, both
directions, in place) and against `cryptography`'s AES-ECB on random keys of
all three sizes for every block count 0..40 plus random counts (exercising
the 8-, 4- and 1-block paths), with guard bytes after the output; the key
length checks (-EINVAL); and a context copied to a differently aligned
address.  Runs only where cpu_has("aes") is true.
"""
import json
import pathlib
import random

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from hypothesis import given, settings, strategies as st

from crypto_api.arch.x86 import _aesni, _cpufeatures

ffi = _aesni.ffi
lib = _aesni.lib

VECTORS = pathlib.Path(__file__).resolve().parents[2] / "crypto_api" / "testmgr" / "vectors"
EINVAL = 22

pytestmark = pytest.mark.skipif(not _cpufeatures.lib.cpu_has(b"aes"),
                                reason="CPU lacks AES-NI (aes)")


def load_vectors(name):
    return json.loads((VECTORS / name).read_text())["vectors"]


def new_ctx(key):
    ctx = ffi.new("struct aesni_ctx *")
    assert lib.aesni_setkey(ctx, key, len(key)) == 0
    return ctx


def ecb(ctx, data, decrypt=False, in_place=False, guard=32):
    n = len(data) // 16
    poison = bytes((0x5A + 3 * i) & 0xFF for i in range(guard))
    dst = ffi.new("uint8_t[]", len(data) + guard)
    ffi.memmove(dst, data + poison, len(data) + guard)
    fn = lib.aesni_ecb_decrypt if decrypt else lib.aesni_ecb_encrypt
    if in_place:
        fn(ctx, dst, dst, n)
    else:
        src = ffi.new("uint8_t[]", max(len(data), 1))
        ffi.memmove(src, data, len(data))
        fn(ctx, dst, src, n)
        assert ffi.buffer(src, len(data))[:] == data
    out = ffi.buffer(dst, len(data) + guard)[:]
    assert out[len(data):] == poison, "wrote past the last block"
    return out[:len(data)]


def block(ctx, data, decrypt=False):
    out = ffi.new("uint8_t[16]")
    (lib.aesni_decrypt if decrypt else lib.aesni_encrypt)(ctx, out, data)
    return ffi.buffer(out)[:]


def peer_ecb(key, data, decrypt=False):
    c = Cipher(algorithms.AES(key), modes.ECB())
    op = c.decryptor() if decrypt else c.encryptor()
    return op.update(data) + op.finalize()


AES_VECTORS = load_vectors("aes.json")


def test_vector_set_loaded():
    assert len(AES_VECTORS) == 1103
    assert {len(v["key"]) // 2 for v in AES_VECTORS} == {16, 24, 32}


def test_aes_vectors():
    for v in AES_VECTORS:
        key = bytes.fromhex(v["key"])
        pt, ct = bytes.fromhex(v["plaintext"]), bytes.fromhex(v["ciphertext"])
        ctx = new_ctx(key)
        assert ctx.key_length == len(key)
        assert ctx.rounds == {16: 10, 24: 12, 32: 14}[len(key)]
        if v["mode"] == "block":
            assert block(ctx, pt) == ct, v["id"]
            assert block(ctx, ct, decrypt=True) == pt, v["id"]
        assert ecb(ctx, pt) == ct, v["id"]
        assert ecb(ctx, ct, decrypt=True) == pt, v["id"]
        assert ecb(ctx, pt, in_place=True) == ct, v["id"]
        assert ecb(ctx, ct, decrypt=True, in_place=True) == pt, v["id"]


@pytest.mark.parametrize("keylen", [16, 24, 32])
def test_every_block_count_against_peer(keylen):
    rng = random.Random(keylen)
    counts = list(range(0, 41)) + [rng.randrange(41, 400) for _ in range(20)]
    for n in counts:
        key, data = rng.randbytes(keylen), rng.randbytes(16 * n)
        ctx = new_ctx(key)
        ct = peer_ecb(key, data)
        assert ecb(ctx, data) == ct, n
        assert ecb(ctx, ct, decrypt=True) == data, n
        assert ecb(ctx, data, in_place=True) == ct, n
        assert ecb(ctx, ct, decrypt=True, in_place=True) == data, n


@pytest.mark.parametrize("keylen", [16, 24, 32])
def test_single_block_against_peer(keylen):
    rng = random.Random(100 + keylen)
    for _ in range(200):
        key, data = rng.randbytes(keylen), rng.randbytes(16)
        ctx = new_ctx(key)
        ct = peer_ecb(key, data)
        assert block(ctx, data) == ct
        assert block(ctx, ct, decrypt=True) == data
        # in place
        buf = ffi.new("uint8_t[16]")
        ffi.memmove(buf, data, 16)
        lib.aesni_encrypt(ctx, buf, buf)
        assert ffi.buffer(buf)[:] == ct
        lib.aesni_decrypt(ctx, buf, buf)
        assert ffi.buffer(buf)[:] == data


def test_bad_key_lengths():
    ctx = ffi.new("struct aesni_ctx *")
    good = new_ctx(bytes(range(32)))
    before = ffi.buffer(good)[:]
    for n in (0, 1, 8, 15, 17, 20, 23, 25, 31, 33, 48, 64):
        assert lib.aesni_setkey(ctx, bytes(n), n) == -EINVAL
        assert lib.aesni_setkey(good, bytes(max(n, 1)), n) == -EINVAL
    assert ffi.buffer(good)[:] == before, "failed setkey modified the context"


def test_rekey_replaces_schedule():
    rng = random.Random(5)
    ctx = ffi.new("struct aesni_ctx *")
    data = rng.randbytes(16 * 9)
    for keylen in (32, 16, 24, 16, 32):
        key = rng.randbytes(keylen)
        assert lib.aesni_setkey(ctx, key, keylen) == 0
        assert ecb(ctx, data) == peer_ecb(key, data)


def test_context_copied_to_other_alignment():
    """A context moved (memcpy) to an address with another alignment mod 16
    still works: the keys are found via the stored offset.  Every address a
    C object of the struct may have: a multiple of its alignment (its
    uint32_t fields), not any byte (UBSan's misaligned access: make test-asan)."""
    rng = random.Random(6)
    size = ffi.sizeof("struct aesni_ctx")
    align = ffi.alignof("struct aesni_ctx")
    raw = ffi.new("uint8_t[]", size + 32)
    base = (-int(ffi.cast("uintptr_t", raw))) % 16        # raw + base: 16-byte aligned
    for keylen in (16, 24, 32):
        key = rng.randbytes(keylen)
        ctx = new_ctx(key)
        for shift in range(0, 16, align):
            moved = ffi.cast("struct aesni_ctx *", raw + base + shift)
            assert int(ffi.cast("uintptr_t", moved)) % 16 == shift
            ffi.memmove(moved, ctx, size)
            for n in (1, 4, 8, 13):
                data = rng.randbytes(16 * n)
                ct = peer_ecb(key, data)
                assert ecb(moved, data) == ct
                assert ecb(moved, ct, decrypt=True) == data
            one = rng.randbytes(16)
            assert block(moved, one) == peer_ecb(key, one)
            assert block(moved, peer_ecb(key, one), decrypt=True) == one


@settings(max_examples=100, deadline=None)
@given(key=st.sampled_from([16, 24, 32]).flatmap(lambda n: st.binary(min_size=n, max_size=n)),
       data=st.integers(0, 50).flatmap(lambda nblocks: st.binary(min_size=16 * nblocks,
                                                                 max_size=16 * nblocks)))
def test_hypothesis_roundtrip(key, data):
    ctx = new_ctx(key)
    ct = ecb(ctx, data)
    assert ct == peer_ecb(key, data)
    assert ecb(ctx, ct, decrypt=True) == data


def test_crypto_memzero():
    ctx = new_ctx(bytes(range(16)))
    lib.crypto_memzero(ctx, ffi.sizeof(ctx[0]))
    assert ffi.buffer(ctx)[:] == bytes(ffi.sizeof("struct aesni_ctx"))
