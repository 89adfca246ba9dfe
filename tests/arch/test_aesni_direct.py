"""The one-call path of the AES-NI mode drivers with a caller's buffer
(``tfm.encrypt(data, iv, out=buf)``, in place): the same bytes as new-bytes
calls and as ``cryptography`` (or the P1619 XTS of modes_ref) across lengths,
through the C entry point (crypto_api/direct_call.c);
the caller's buffer is written where it is, with no copy of it and no
request; the caller's IV is never advanced; FPU traces and the SIMD
wrapper's cryptd fallback still take the request path.
"""

import tracemalloc

import pytest
from cryptography.hazmat.primitives.ciphers import modes
from hypothesis import HealthCheck, given, settings, strategies as st

import crypto_api as capi
from crypto_api import direct as direct_path
from crypto_api.arch.x86 import _cpufeatures
from crypto_api.errors import EINVAL, CryptoError
from crypto_api.fpu import fpu_trace, simd_disabled
from drawn_bytes import exactly
from modes_ref import aes, xts

pytestmark = pytest.mark.skipif(not _cpufeatures.lib.cpu_has(b"aes"), reason="CPU lacks AES-NI")

HAS_VAES = all(_cpufeatures.lib.cpu_has(f)
               for f in (b"vaes", b"vpclmulqdq", b"pclmulqdq", b"avx2", b"xsave_ymm"))
DRIVERS = ["ecb-aes-aesni", "cbc-aes-aesni", "ctr-aes-aesni", "xts-aes-aesni"]
if HAS_VAES:
    DRIVERS += ["xts-aes-vaes-avx2", "ctr-aes-vaes-avx2"]
INTERNAL = ["__ecb-aes-aesni", "__cbc-aes-aesni", "__ctr-aes-aesni", "__xts-aes-aesni"]


def _mode(driver):
    return driver.lstrip("_")[:3]


@pytest.fixture
def entry():
    """The direct path: the C entry point (where built; else there is none)."""
    if direct_path._skcipher_call is None:
        pytest.skip("crypto_api._direct_call is not built")
    return "c"


def _alloc(driver, key):
    internal = (capi.CRYPTO_ALG_INTERNAL,) * 2 if driver.startswith("__") else ()
    tfm = capi.crypto_alloc_skcipher(driver, *internal)
    tfm.setkey(key)
    return tfm


def _reference(mode, key, iv, data, encrypt=True):
    if mode == "xts":
        return xts(key, iv, data, encrypt)
    m = {"ecb": lambda: modes.ECB(), "cbc": lambda: modes.CBC(iv), "ctr": lambda: modes.CTR(iv)}
    return aes(key, m[mode](), data, encrypt)


@st.composite
def cases(draw, driver):
    mode = _mode(driver)
    keylen = draw(st.sampled_from([32, 48, 64] if mode == "xts" else [16, 24, 32]))
    key = draw(exactly(keylen))
    if mode == "xts" and key[:keylen // 2] == key[keylen // 2:]:
        key = bytes([key[0] ^ 1]) + key[1:]
    iv = None if mode == "ecb" else draw(exactly(16))
    size = draw(st.one_of(st.integers(16 if mode == "xts" else 0, 600),
                          st.sampled_from([4096, 4096 + 15, 65536, 65536 + 17])))
    if mode in ("ecb", "cbc"):
        size -= size % 16
    return key, iv, draw(exactly(size))


@pytest.mark.parametrize("driver", DRIVERS + INTERNAL)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_out_and_in_place_equal_new_bytes_and_cryptography(entry, driver, data):
    key, iv, pt = data.draw(cases(driver))
    mode = _mode(driver)
    want = _reference(mode, key, iv, pt)
    ivcopy = None if iv is None else bytes(iv)
    with _alloc(driver, key) as tfm:
        assert tfm.encrypt(pt, iv) == want
        out = bytearray(len(pt))
        assert tfm.encrypt(pt, iv, out=out) is out and out == want
        buf = bytearray(pt)
        assert tfm.encrypt(buf, iv, out=buf) is buf and buf == want
        view = memoryview(bytearray(pt))
        assert tfm.encrypt(view, iv, out=view) is view and view.obj == want
        # decryption the same three ways, from a bytearray source too
        back = bytearray(len(pt))
        assert tfm.decrypt(bytearray(want), iv, out=back) is back and back == pt
        assert tfm.decrypt(buf, iv, out=buf) is buf and buf == pt
        assert tfm.decrypt(bytearray(want), iv) == pt
        # the caller's IV is read, never advanced (CBC and CTR copy it)
        assert iv == ivcopy
        assert tfm.encrypt(pt, iv, out=out) == want


@pytest.mark.parametrize("driver", DRIVERS + INTERNAL)
def test_out_is_written_in_place_without_a_copy_or_a_request(entry, driver, monkeypatch):
    """1 MiB into the caller's buffer: nothing of its size is allocated (the
    full path snapshots ``out`` and builds a request), and no request runs."""
    mode = _mode(driver)
    key = bytes(range(64 if mode == "xts" else 32))
    iv = None if mode == "ecb" else bytes(range(16, 32))
    n = 1 << 20
    pt = bytes(range(256)) * (n // 256)
    with _alloc(driver, key) as tfm:
        want = _reference(mode, key, iv, pt[:4096])
        out = bytearray(n)
        buf = bytearray(pt)

        def no_request(*args, **kw):
            raise AssertionError("the out= call took the request path")
        monkeypatch.setattr(capi.skcipher, "_call_and_wait", no_request)
        tracemalloc.start()
        try:
            tracemalloc.reset_peak()
            assert tfm.encrypt(pt, iv, out=out) is out
            assert tfm.encrypt(buf, iv, out=buf) is buf
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak < n // 16, f"{peak} bytes allocated for a {n}-byte out= call"
        assert out[:4096] == want and buf == out


@pytest.mark.parametrize("driver", DRIVERS)
def test_out_keeps_one_fpu_section_per_request_while_a_trace_records(driver):
    with capi.crypto_alloc_skcipher(driver) as tfm:
        tfm.setkey(bytes(range(tfm.alg.max_keysize)))
        iv = bytes(16) if tfm.ivsize else None
        want = tfm.encrypt(bytes(3 * 4096), iv)
        out = bytearray(3 * 4096)
        with fpu_trace() as trace:
            tfm.encrypt(bytes(3 * 4096), iv, out=out)
            tfm.encrypt(out, iv, out=out)
        assert trace.nbytes == [3 * 4096, 3 * 4096]
        assert out == tfm.encrypt(want, iv)


@pytest.mark.parametrize("driver", DRIVERS)
def test_out_through_cryptd_where_simd_is_unusable(driver, monkeypatch):
    with capi.crypto_alloc_skcipher(driver) as tfm:
        tfm.setkey(bytes(range(tfm.alg.max_keysize)))
        iv = bytes(range(16)) if tfm.ivsize else None
        want = tfm.encrypt(bytes(4096), iv)
        seen = []
        real = capi.skcipher._call_and_wait

        def spy(req, op):
            seen.append(req)
            return real(req, op)
        monkeypatch.setattr(capi.skcipher, "_call_and_wait", spy)
        buf = bytearray(4096)
        with simd_disabled():
            assert tfm.encrypt(buf, iv, out=buf) is buf
        assert buf == want and len(seen) == 1       # the request path (the wrapper queues it)


@pytest.mark.parametrize("driver", ["ecb-aes-aesni", "cbc-aes-aesni", "xts-aes-aesni"])
def test_refused_lengths_leave_out_untouched(entry, driver):
    with capi.crypto_alloc_skcipher(driver) as tfm:
        tfm.setkey(bytes(range(tfm.alg.max_keysize)))
        iv = bytes(16) if tfm.ivsize else None
        n = 15 if driver.startswith("xts") else 40
        out = bytearray(b"\xaa" * n)
        with pytest.raises(CryptoError) as e:
            tfm.encrypt(bytes(n), iv, out=out)
        assert e.value.errno == EINVAL and driver in str(e.value)
        assert out == b"\xaa" * n


@pytest.mark.parametrize("driver", INTERNAL)
def test_internal_driver_installs_the_c_entry_point(driver):
    if direct_path._skcipher_call is None:
        pytest.skip("crypto_api._direct_call is not built")
    with _alloc(driver, bytes(range(64 if _mode(driver) == "xts" else 32))) as tfm:
        for fn in (tfm._direct_enc, tfm._direct_dec):
            assert type(fn.__self__).__name__ == "SkcipherCallState"
        with simd_disabled():                # no generic code: SIMD unusable declines
            iv = None if _mode(driver) == "ecb" else bytes(16)
            assert tfm._direct_enc(bytes(64), iv, None) is None
