"""A fixed-size result's direct path from one declaration
(crypto_api.oneshot.digest_direct): the C entry (digest_call.h) and the
Python function made from the same arguments take, decline and answer alike,
for the drivers' own declarations (their SimdRule included)."""

import os

import pytest

import crypto_api as capi
from crypto_api import oneshot
from alloc_or_skip import alloc_or_skip

pytestmark = pytest.mark.skipif(oneshot._linear_call is None, reason="crypto_api._linear_call is not built")

KEYS = {"nhpoly1305": bytes(range(256)) * 4 + bytes(64), "poly1305": None, "sha256": None}
LENGTHS = (0, 16, 31, 32, 63, 64, 65, 288, 289, 1000)


MESSAGES = [os.urandom(n) for n in LENGTHS]


def _inputs():
    for data in MESSAGES:
        yield bytes(data)
        yield bytearray(data)
        yield memoryview(bytearray(data) * 2)[::2]          # not contiguous: declined by both


def _answers(tfm, rekey):
    rekey()                                                # rebuilds tfm's direct path
    got = []
    for data in _inputs():
        got.append(tfm._direct_digest(data))
        with capi.fpu_trace():
            got.append(tfm._direct_digest(data))         # SIMD lengths decline while tracing
        with capi.simd_disabled():
            got.append(tfm._direct_digest(data))
    return got


@pytest.mark.parametrize("driver", ["nhpoly1305-generic", "nhpoly1305-sse2", "nhpoly1305-avx2",
                                    "poly1305-simd", "sha256-generic", "sha256-ni"])
def test_the_c_entry_and_the_python_function_of_one_declaration_agree(driver, monkeypatch):
    tfm = alloc_or_skip(capi.crypto_alloc_shash, driver)
    key = KEYS[driver.split("-")[0]]
    if key is not None:
        rekey = lambda: tfm.setkey(key)                 # noqa: E731
    else:
        rekey = lambda: tfm._install_direct()           # noqa: E731  (an unkeyed hash: at allocation)
    with tfm:
        from_c = _answers(tfm, rekey)
        assert not isinstance(tfm._direct_digest, type(_answers))   # the C entry
        monkeypatch.setattr(oneshot, "_linear_call", None)
        from_python = _answers(tfm, rekey)
        assert isinstance(tfm._direct_digest, type(_answers))       # the Python function
    assert from_c == from_python
    assert any(a is None for a in from_c) and any(a is not None for a in from_c)
