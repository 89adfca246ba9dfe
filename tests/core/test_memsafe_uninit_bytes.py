"""The large-result shortcut of the fast paths (crypto_api.oneshot).

Results of DIRECT_MIN bytes or more are written by C straight into a fresh
bytes object.  That relies on cffi handing C a pointer to the object's own
contents, which is checked once at import; where the check fails the fast
paths copy out of a buffer instead.  Both ways must give the peer's bytes.
"""

import os

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms

import crypto_api as capi
from crypto_api import oneshot


def _peer(key, iv, data):
    return Cipher(algorithms.ChaCha20(key, iv), None).encryptor().update(data)


def test_the_import_check_passes_here_and_catches_a_copying_call():
    if oneshot.new_uninit_bytes is None:
        pytest.skip("not CPython: the copying path is the only one")
    assert oneshot._writes_in_place(oneshot.new_uninit_bytes, oneshot._c_memmove())

    def into_a_copy(dst, src, n):               # what a copying argument conversion does
        tmp = bytearray(dst)
        tmp[:n] = src[:n]

    assert not oneshot._writes_in_place(oneshot.new_uninit_bytes, into_a_copy)
    assert oneshot._uninit_bytes_maker(write=into_a_copy) is None
    assert oneshot._uninit_bytes_maker(write=lambda dst, src, n: None) is None
    assert oneshot._uninit_bytes_maker() is not None


@pytest.mark.parametrize("check_passes", [True, False], ids=["written in place", "copied"])
@pytest.mark.parametrize("name", ["chacha20-generic", "chacha20-simd"])
def test_large_results_either_way(name, check_passes, monkeypatch):
    monkeypatch.setattr(oneshot, "_linear_call", None)     # the Python function's shortcut
    made = []
    if check_passes:
        real = oneshot.new_uninit_bytes
        if real is None:
            pytest.skip("not CPython")

        def counting(ptr, n):
            made.append(n)
            return real(ptr, n)
        monkeypatch.setattr(oneshot, "new_uninit_bytes", counting)
    else:
        monkeypatch.setattr(oneshot, "new_uninit_bytes",
                            oneshot._uninit_bytes_maker(write=lambda dst, src, n: None))
    try:
        tfm = capi.crypto_alloc_skcipher(name)
    except capi.CryptoError as e:
        pytest.skip(str(e))
    key, iv = os.urandom(32), os.urandom(16)
    tfm.setkey(key)                             # the fast path binds the shortcut here
    sizes = (oneshot.DIRECT_MIN, oneshot.DIRECT_MIN + 4097, 1 << 20)
    for n in sizes:
        data = os.urandom(n)
        res = tfm.encrypt(data, iv)
        assert type(res) is bytes and res == _peer(key, iv, data)
        assert tfm.encrypt(bytearray(data), iv) == res
    assert made == ([n for n in sizes for _ in "ab"] if check_passes else [])
    tfm.free()
