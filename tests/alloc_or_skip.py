"""A transform for a test, or the test skipped where this machine has no such
driver (a SIMD driver on a CPU without its instructions): the one place the
tests of drivers that may be missing allocate them."""

import pytest

from crypto_api.errors import CryptoError


def alloc_or_skip(alloc, name: str, key=None):
    """``alloc(name)`` (crypto_alloc_skcipher, _shash, _cipher, _aead), keyed
    with ``key`` where one is given; skips the test if ``name`` is refused."""
    try:
        tfm = alloc(name)
    except CryptoError as e:
        pytest.skip(f"{name}: {e}")
    if key is not None:
        tfm.setkey(key)
    return tfm
