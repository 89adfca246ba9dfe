"""C-level tests of the x86 NH cores (crypto_api.arch.x86._nh_sse2 / _nh_avx2).

Checked against nh.json and a pure-Python big-integer NH written from the
specification (4 passes, key shifted 4 words per pass, 32-bit additions, 64-bit
sums), for every message length 16..1024 step 16 with random and all-ones
inputs; the key and message are placed right before an inaccessible page so
any read past key[len/4 + 12 words] or past the message faults.  Also checks
additivity over key windows (how the streaming code feeds pieces), and that
``ffi.addressof(lib, "nh_<isa>")`` is the ``nh_fn_t`` of crypto_api.algs._poly1305
(whose types the NH extensions include), taken by its NHPoly1305 code as it is.
Each ISA's tests run only where cpu_has() reports it.
"""
import json
import pathlib
import random
import struct

import pytest
from hypothesis import given, settings, strategies as st

from crypto_api.arch.x86 import _nh_avx2, _nh_sse2
from x86_simd_impls import Impl, impl_params

VECTORS = pathlib.Path(__file__).resolve().parents[2] / "crypto_api" / "testmgr" / "vectors"

NH_KEY_WORDS = 268
NH_KEY_BYTES = 4 * NH_KEY_WORDS
M32, M64 = (1 << 32) - 1, (1 << 64) - 1


def load_vectors(name):
    return json.loads((VECTORS / name).read_text())["vectors"]


IMPLS = [Impl("sse2", _nh_sse2, ("sse2",), "nh_"), Impl("avx2", _nh_avx2, ("avx", "avx2"), "nh_")]
IMPL_PARAMS = impl_params(IMPLS)


# ------------------------------------------------------------ reference


def ref_nh(key, message):
    """NH from the spec: key as bytes (>= len(message) + 48), message a
    multiple of 16 bytes; output 4 x le64."""
    assert len(message) % 16 == 0
    nwords = len(message) // 4
    k = struct.unpack("<%dI" % (nwords + 12), key[:4 * (nwords + 12)])
    m = struct.unpack("<%dI" % nwords, message)
    out = []
    for p in range(4):
        s = 0
        for u in range(0, nwords, 4):
            kk = k[u + 4 * p:u + 4 * p + 4]
            s += ((m[u] + kk[0]) & M32) * ((m[u + 2] + kk[2]) & M32)
            s += ((m[u + 1] + kk[1]) & M32) * ((m[u + 3] + kk[3]) & M32)
        out.append(s & M64)
    return struct.pack("<4Q", *out)


def nh(impl, key, message):
    ffi = impl.ffi
    kbuf = ffi.new("uint32_t[]", max(len(key) // 4, 1))
    ffi.memmove(kbuf, key, len(key) // 4 * 4)
    out = ffi.new("uint8_t[32]")
    impl.fn(kbuf, message, len(message), out)
    return ffi.buffer(out)[:]


# ------------------------------------------------------------ fenced memory

# ------------------------------------------------------------ tests

NH_VECTORS = load_vectors("nh.json")


def test_reference_matches_vectors():
    assert len(NH_VECTORS) == 15
    for v in NH_VECTORS:
        key, msg = bytes.fromhex(v["key"]), bytes.fromhex(v["message"])
        assert len(key) == NH_KEY_BYTES
        assert ref_nh(key, msg) == bytes.fromhex(v["digest"]), v["id"]


@pytest.mark.parametrize("impl", IMPL_PARAMS)
def test_nh_vectors(impl):
    for v in NH_VECTORS:
        key, msg = bytes.fromhex(v["key"]), bytes.fromhex(v["message"])
        assert nh(impl, key, msg) == bytes.fromhex(v["digest"]), v["id"]


@pytest.mark.parametrize("impl", IMPL_PARAMS)
@pytest.mark.parametrize("pattern", ["random", "ones", "mixed"])
def test_every_length_fenced(impl, pattern, fences):
    """Every length 16..1024 step 16; key is exactly len/4 + 12 words and it
    and the message end at an inaccessible page."""
    ffi = impl.ffi
    fkey, fmsg = fences(NH_KEY_BYTES), fences(1024)
    rng = random.Random(pattern)
    for length in range(16, 1025, 16):
        if pattern == "random":
            key, msg = rng.randbytes(NH_KEY_BYTES), rng.randbytes(length)
        elif pattern == "ones":
            # maximal 32-bit sums and 64-bit accumulation
            key, msg = b"\xff" * NH_KEY_BYTES, b"\xff" * length
        else:
            key = bytes(rng.choice((0, 0xFF, rng.getrandbits(8))) for _ in range(NH_KEY_BYTES))
            msg = bytes(rng.choice((0, 0xFF, 1)) for _ in range(length))
        kbytes = length + 48
        kptr = fkey.ptr(ffi, kbytes, "uint32_t *")
        mptr = fmsg.ptr(ffi, length)
        ffi.memmove(kptr, key, kbytes)
        ffi.memmove(mptr, msg, length)
        out = ffi.new("uint8_t[32]")
        impl.fn(kptr, mptr, length, out)
        assert ffi.buffer(out)[:] == ref_nh(key, msg), "length %d" % length


@pytest.mark.parametrize("impl", IMPL_PARAMS)
def test_random_keys_full_key(impl):
    rng = random.Random(11)
    for _ in range(100):
        length = 16 * rng.randint(1, 64)
        key, msg = rng.randbytes(NH_KEY_BYTES), rng.randbytes(length)
        assert nh(impl, key, msg) == ref_nh(key, msg)


@pytest.mark.parametrize("impl", IMPL_PARAMS)
def test_additive_over_key_windows(impl):
    """NH of a 1024-byte message = sum (mod 2^64, per pass) of NH of its
    pieces, each piece using the key window at its byte offset / 4."""
    ffi = impl.ffi
    rng = random.Random(3)
    for _ in range(30):
        key, msg = rng.randbytes(NH_KEY_BYTES), rng.randbytes(1024)
        kbuf = ffi.new("uint32_t[]", NH_KEY_WORDS)
        ffi.memmove(kbuf, key, NH_KEY_BYTES)
        cuts = sorted({0, 1024} | {16 * rng.randint(1, 63) for _ in range(rng.randint(1, 6))})
        sums = [0, 0, 0, 0]
        for a, b in zip(cuts, cuts[1:]):
            out = ffi.new("uint8_t[32]")
            impl.fn(kbuf + a // 4, msg[a:b], b - a, out)
            for i, s in enumerate(struct.unpack("<4Q", ffi.buffer(out)[:])):
                sums[i] = (sums[i] + s) & M64
        assert struct.pack("<4Q", *sums) == ref_nh(key, msg)


@pytest.mark.parametrize("impl", IMPL_PARAMS)
def test_message_alignment(impl):
    """Unaligned message and key pointers."""
    ffi = impl.ffi
    rng = random.Random(8)
    for off in range(0, 16):
        length = 16 * rng.randint(1, 64)
        key, msg = rng.randbytes(NH_KEY_BYTES), rng.randbytes(length)
        kraw = ffi.new("uint8_t[]", NH_KEY_BYTES + 16)
        mraw = ffi.new("uint8_t[]", length + 16)
        koff = (off * 4) % 16
        ffi.memmove(kraw + koff, key, NH_KEY_BYTES)
        ffi.memmove(mraw + off, msg, length)
        out = ffi.new("uint8_t[32]")
        impl.fn(ffi.cast("uint32_t *", kraw + koff), mraw + off, length, out)
        assert ffi.buffer(out)[:] == ref_nh(key, msg)


@pytest.mark.parametrize("impl", IMPL_PARAMS)
def test_function_pointer_is_typed_nh_fn(impl):
    """ffi.addressof(lib, "nh_<isa>") has _poly1305's nh_fn_t type and is
    passed, as typed cdata (no integer address), to its NHPoly1305 code,
    which gives the generic NH's digest."""
    from crypto_api.algs._poly1305 import ffi as pffi, lib as plib
    ptr = impl.ffi.addressof(impl.lib, "nh_" + impl.isa)
    assert impl.ffi.typeof(ptr) is pffi.typeof("nh_fn_t")
    assert not hasattr(impl.lib, "nh_%s_address" % impl.isa)
    rng = random.Random(2)
    raw, msg = rng.randbytes(16 + NH_KEY_BYTES), rng.randbytes(1500)
    key = pffi.new("struct nhpoly1305_key *")
    generic_ops = pffi.addressof(plib, "poly1305_generic_ops")
    plib.nhpoly1305_setkey(key, raw, generic_ops)
    digests = []
    for nh in (ptr, pffi.addressof(plib, "nh_generic")):
        out = pffi.new("uint8_t[16]")
        plib.nhpoly1305_digest(key, msg, len(msg), out, nh, nh, generic_ops)
        digests.append(pffi.buffer(out)[:])
    assert digests[0] == digests[1]


@pytest.mark.parametrize("impl", IMPL_PARAMS)
@settings(max_examples=80, deadline=None)
@given(key=st.binary(min_size=NH_KEY_BYTES, max_size=NH_KEY_BYTES),
       msg=st.integers(1, 64).flatmap(lambda units: st.binary(min_size=16 * units, max_size=16 * units)))
def test_hypothesis(impl, key, msg):
    assert nh(impl, key, msg) == ref_nh(key, msg)


@pytest.mark.parametrize("module", [_nh_sse2, _nh_avx2], ids=["sse2", "avx2"])
def test_crypto_memzero(module):
    ffi = module.ffi
    buf = ffi.new("uint8_t[64]", [0xEE] * 64)
    module.lib.crypto_memzero(buf, 63)
    assert list(buf) == [0] * 63 + [0xEE]
