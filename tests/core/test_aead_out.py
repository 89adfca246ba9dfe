"""The one-call AEAD methods with a caller's buffer (``aead.encrypt(pt, iv,
assoc=, out=buf)`` / ``decrypt``): the bytes of cryptography's
ChaCha20Poly1305 and of the new-bytes calls, through the AVX2 one-pass
driver's direct path (no request, nothing of the message's size allocated)
and through the generic path of a template instance (its result in the
tfm's reusable scratch, not a fresh buffer per call); a wrong tag raises
EBADMSG, leaves ``out`` untouched and no plaintext in the scratch.
"""

import tracemalloc

import pytest
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from hypothesis import HealthCheck, given, settings, strategies as st

import crypto_api as capi
from crypto_api.arch.x86.cpufeature import boot_cpu_has
from crypto_api.errors import EBADMSG
from drawn_bytes import exactly

HAS_AVX2 = all(boot_cpu_has(f) for f in ("avx", "avx2", "bmi2", "xsave_ymm"))   # what the driver needs
DRIVER = "rfc7539-chacha20poly1305-avx2"
ESP_DRIVER = "rfc7539esp-chacha20poly1305-avx2"
TEMPLATE = "rfc7539(chacha20-generic,poly1305-generic)"
avx2 = pytest.mark.skipif(not HAS_AVX2, reason="CPU lacks AVX2 or BMI2, or OS YMM state")
NAMES = [pytest.param(DRIVER, marks=avx2), pytest.param(ESP_DRIVER, marks=avx2), TEMPLATE]


def _alloc(name, key):
    tfm = capi.crypto_alloc_aead(name)
    tfm.setkey(key)
    return tfm


def _reference(name, key, iv, ad, pt):
    esp = "esp" in name
    return ChaCha20Poly1305(key[:32]).encrypt(key[32:] + iv, pt, ad[:-8] if esp else ad)


def _scratch_bytes(tfm):
    """What the tfm's one-call scratch holds now (b"" if it has none)."""
    s = getattr(tfm.ctx, "direct_scratch", None)
    if s is None or not s.pool or s.pool[0][1] is None:
        return b""
    return s.pool[0][1][:]


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_out_equals_new_bytes_and_cryptography(name, data):
    esp = "esp" in name
    key = data.draw(exactly(36 if esp else 32))
    iv = data.draw(exactly(8 if esp else 12))
    ad = data.draw(st.binary(min_size=8 if esp else 0, max_size=40))
    size = data.draw(st.one_of(st.integers(0, 600), st.sampled_from([4096, 20000, 65536 + 3])))
    pt = data.draw(exactly(size))
    want = _reference(name, key, iv, ad, pt)
    with _alloc(name, key) as tfm:
        out = bytearray(size + 16)
        assert tfm.encrypt(pt, iv, assoc=ad, out=out) is out and out == want
        assert tfm.encrypt(bytearray(pt), iv, assoc=bytearray(ad)) == want
        back = bytearray(size)
        assert tfm.decrypt(bytes(out), iv, assoc=ad, out=back) is back and back == pt
        assert tfm.decrypt(bytearray(want), iv, assoc=ad) == pt
        if size >= 8 and any(pt):
            assert pt not in _scratch_bytes(tfm)        # the opened plaintext was wiped


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("where", ["text", "tag", "assoc"])
def test_wrong_tag_with_out_raises_and_leaves_out_untouched(name, where):
    esp = "esp" in name
    key, iv, ad = bytes(range(36 if esp else 32)), bytes(range(8 if esp else 12)), b"header--ivcopy.."
    pt = bytes(range(256)) * 80
    with _alloc(name, key) as tfm:
        ct = bytearray(tfm.encrypt(pt, iv, assoc=ad))
        bad_ad = bytearray(ad)
        if where == "text":
            ct[100] ^= 1
        elif where == "tag":
            ct[-1] ^= 0x80
        else:
            bad_ad[0] ^= 1
        for data in (bytes(ct), ct):
            out = bytearray(b"\x5a" * len(pt))
            with pytest.raises(capi.CryptoError) as e:
                tfm.decrypt(data, iv, assoc=bytes(bad_ad), out=out)
            assert e.value.errno == EBADMSG
            assert out == b"\x5a" * len(pt)
            assert pt[:64] not in _scratch_bytes(tfm)


@avx2
@pytest.mark.parametrize("name", [DRIVER, ESP_DRIVER])
def test_driver_out_takes_no_request_and_allocates_nothing_of_its_size(name, monkeypatch):
    esp = "esp" in name
    key, iv, ad = bytes(range(36 if esp else 32)), bytes(range(8 if esp else 12)), b"assoc---"
    n = 1 << 20
    pt = bytes(range(256)) * (n // 256)
    with _alloc(name, key) as tfm:
        ct = tfm.encrypt(pt, iv, assoc=ad)

        def no_request(*args, **kw):
            raise AssertionError("the out= call took the request path")
        monkeypatch.setattr(capi.aead, "_run", no_request)
        enc, dec = bytearray(n + 16), bytearray(n)
        tfm.decrypt(ct, iv, assoc=ad, out=dec)          # the scratch exists from here on
        tracemalloc.start()
        try:
            tracemalloc.reset_peak()
            assert tfm.encrypt(pt, iv, assoc=ad, out=enc) is enc
            assert tfm.decrypt(ct, iv, assoc=ad, out=dec) is dec
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak < n // 16, f"{peak} bytes allocated for {n}-byte out= calls"
        assert enc == ct and dec == pt


def test_generic_path_keeps_no_fresh_result_buffer():
    """A template instance: out= calls allocate less than the old private
    result buffer plus the request's own snapshot (2 x n); the rest is the
    skcipher request path's snapshot of its destination."""
    n = 1 << 20
    key, iv, ad = bytes(range(32)), bytes(12), b"ad"
    pt = bytes(range(256)) * (n // 256)
    with _alloc(TEMPLATE, key) as tfm:
        ct = tfm.encrypt(pt, iv, assoc=ad)
        enc, dec = bytearray(n + 16), bytearray(n)
        tfm.encrypt(pt, iv, assoc=ad, out=enc)          # the scratch exists from here on
        for call, out in ((lambda: tfm.encrypt(pt, iv, assoc=ad, out=enc), enc),
                          (lambda: tfm.decrypt(ct, iv, assoc=ad, out=dec), dec)):
            tracemalloc.start()
            try:
                tracemalloc.reset_peak()
                assert call() is out
                peak = tracemalloc.get_traced_memory()[1]
            finally:
                tracemalloc.stop()
            assert peak < n * 3 // 2, f"{peak} bytes allocated for an {n}-byte out= call"
        assert enc == ct and dec == pt
