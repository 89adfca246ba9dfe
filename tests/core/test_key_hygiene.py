"""Key hygiene: key material in driver contexts (the cffi buffers) is wiped
when a tfm is freed, when setkey fails, and before a re-key.

Each test keeps its own reference to the driver's key buffers (named
explicitly per driver, e.g. ``tfm.ctx.key``), so it can look at that memory
after the tfm is done with it.
"""

import os

import cffi
import pytest

import crypto_api as capi
from crypto_api import CryptoError

_ffi = cffi.FFI()


def raw(cdata) -> bytes:
    return bytes(_ffi.buffer(cdata))


def is_zero(cdata) -> bool:
    return not any(raw(cdata))


def alloc(kind, name):
    fn = {"skcipher": capi.crypto_alloc_skcipher, "cipher": capi.crypto_alloc_cipher,
          "shash": capi.crypto_alloc_shash}[kind]
    try:
        return fn(name)
    except CryptoError as e:
        if e.errno == 2:
            pytest.skip(f"{name} not available on this machine")
        raise


# name -> (kind, valid key length, a bad key length, function giving the key buffers)
DRIVERS = {
    "xchacha12-generic": ("skcipher", 32, 16, lambda t: [t.ctx.key]),
    "xchacha20-simd": ("skcipher", 32, 31, lambda t: [t.ctx.key]),
    "aes-generic": ("cipher", 32, 8, lambda t: [t.ctx.aes]),
    "aes-aesni": ("cipher", 16, 40, lambda t: [t.ctx.aes]),
    "nhpoly1305-generic": ("shash", 1088, 1087, lambda t: [t.ctx.key]),
    "nhpoly1305-avx2": ("shash", 1088, 32, lambda t: [t.ctx.key]),
    "adiantum(xchacha12,aes)": ("skcipher", 32, 33, lambda t: [
        t.ctx.header_key, t.ctx.streamcipher.ctx.key, t.ctx.blockcipher.ctx.aes, t.ctx.hash.ctx.key]),
    "polyval-generic": ("shash", 16, 15, lambda t: [t.ctx.key]),
    "polyval-clmulni": ("shash", 16, 32, lambda t: [t.ctx.key]),
    "hctr2_base(xctr(aes-generic),polyval-generic)": ("skcipher", 32, 33, lambda t: [
        t.ctx.blockcipher.ctx.aes, t.ctx.xctr.ctx.cipher.ctx.aes, t.ctx.polyval.ctx.key,
        *t.ctx.fast.structs.values()]),     # the one-call structs hold L and the hash states
}


def use(tfm, kind):
    """Exercise the tfm so that a missing key shows (ENOKEY)."""
    if kind == "skcipher":
        return tfm.encrypt(bytes(64), bytes(tfm.ivsize) if tfm.ivsize else None)
    if kind == "cipher":
        return tfm.encrypt_one(bytes(16))
    return tfm.digest(bytes(range(64)))     # not all zeros: POLYVAL of zero blocks is zero


@pytest.mark.parametrize("name", DRIVERS)
def test_free_wipes_key_buffers(name):
    kind, klen, _, bufs = DRIVERS[name]
    tfm = alloc(kind, name)
    tfm.setkey(os.urandom(klen))
    held = bufs(tfm)
    assert all(not is_zero(b) for b in held)
    tfm.free()
    assert all(is_zero(b) for b in held)
    with pytest.raises(CryptoError) as e:
        use(tfm, kind)
    assert e.value.errno == 22 and "freed" in e.value.message


@pytest.mark.parametrize("name", DRIVERS)
def test_failed_setkey_wipes_and_needs_key(name):
    kind, klen, bad, bufs = DRIVERS[name]
    with alloc(kind, name) as tfm:
        tfm.setkey(os.urandom(klen))
        before = use(tfm, kind)
        held = bufs(tfm)
        with pytest.raises(CryptoError) as e:
            tfm.setkey(os.urandom(bad))
        assert e.value.errno == 22
        assert tfm.get_flags() & capi.CRYPTO_TFM_NEED_KEY
        assert all(is_zero(b) for b in held)
        with pytest.raises(CryptoError) as e:
            use(tfm, kind)
        assert e.value.errno == 126              # ENOKEY: the old key is not usable
        # a good key brings it back
        tfm.setkey(os.urandom(klen))
        assert use(tfm, kind) != before


@pytest.mark.parametrize("name", DRIVERS)
def test_rekey_leaves_no_trace_of_the_old_key(name):
    """After a re-key, memory that held the old key holds zeros or the new key's state."""
    kind, klen, _, bufs = DRIVERS[name]
    k1, k2 = os.urandom(klen), os.urandom(klen)
    with alloc(kind, name) as tfm, alloc(kind, name) as fresh:
        tfm.setkey(k1)
        held = bufs(tfm)
        old = [raw(b) for b in held]
        tfm.setkey(k2)
        fresh.setkey(k2)
        for b, was, want in zip(held, old, [raw(b) for b in bufs(fresh)]):
            assert raw(b) != was
            assert is_zero(b) or raw(b) == want


def test_driver_refusal_after_frontend_check_wipes():
    """aes-generic takes 16..32-byte keys at the frontend but refuses 20 bytes
    itself: the context it had is wiped and NEED_KEY is armed."""
    with capi.crypto_alloc_cipher("aes-generic") as tfm:
        tfm.setkey(os.urandom(32))
        held = tfm.ctx.aes
        with pytest.raises(CryptoError) as e:
            tfm.setkey(os.urandom(20))
        assert e.value.errno == 22 and "20" in e.value.message
        assert is_zero(held)
        with pytest.raises(CryptoError) as e:
            tfm.encrypt_one(bytes(16))
        assert e.value.errno == 126


def test_driver_raising_midway_through_setkey():
    """A driver that stores key material then raises: the frontend wipes it."""
    ffi = cffi.FFI()
    seen = {}

    def setkey(tfm, key):
        buf = tfm.ctx.key = ffi.new("uint8_t[32]")
        ffi.memmove(buf, key, 32)
        tfm.ctx.copy = bytearray(key)
        seen["buf"], seen["copy"] = buf, tfm.ctx.copy
        if key[0] == 0:
            raise CryptoError(22, "keyhyg-test: weak key refused")

    def crypt(req):
        raise AssertionError("never reached")

    alg = capi.SkcipherAlg(cra_name="keyhyg-test", cra_driver_name="keyhyg-test-drv",
                           cra_priority=1, min_keysize=32, max_keysize=32,
                           setkey=setkey, encrypt=crypt, decrypt=crypt)
    capi.crypto_register_skcipher(alg)
    try:
        with capi.crypto_alloc_skcipher("keyhyg-test-drv") as tfm:
            with pytest.raises(CryptoError) as e:
                tfm.setkey(bytes([0]) + os.urandom(31))
            assert e.value.errno == 22 and "weak key" in e.value.message
            assert is_zero(seen["buf"]) and not any(seen["copy"])
            assert tfm.get_flags() & capi.CRYPTO_TFM_NEED_KEY
    finally:
        capi.crypto_unregister_skcipher(alg)


def test_wipe_ctx_leaves_foreign_memory_alone():
    """Pointers the driver does not own (into a caller's buffer) are not zeroed."""
    from crypto_api.tfm import TfmCtx, wipe_ctx
    ffi = cffi.FFI()
    caller = bytearray(b"caller data")
    ctx = TfmCtx(owned=ffi.new("uint8_t[4]", [1, 2, 3, 4]),
                 foreign=ffi.from_buffer("uint8_t[]", bytes(b"readonly")), rounds=12)
    ctx.view = ffi.from_buffer("uint8_t[]", caller, require_writable=True)
    wipe_ctx(ctx)
    assert raw(ctx.owned) == bytes(4)
    assert caller == bytearray(b"caller data")
    assert ctx.rounds == 12
