"""Fixtures of the tests of the portable algorithms and templates.

These tests ask for templates by their algorithm names (``rfc7539(chacha20,
poly1305)``) to check what the kernel's template instance does.  A vendor
driver registered under the same name at a higher priority, the x86 one-pass
ChaCha20-Poly1305 (module chacha20poly1305_avx2, tested in tests/arch), would
answer those requests instead; so it is unloaded, and kept from loading
through its aliases, while this directory's tests run.
"""

import pytest

import crypto_api as capi
from crypto_api import modules

VENDOR_MODULES = ("chacha20poly1305_avx2",)


@pytest.fixture(scope="package", autouse=True)
def no_vendor_aead_drivers():
    index = modules.alias_index()
    hidden, reload = {}, []
    for name in VENDOR_MODULES:
        if modules.is_loaded(name):
            capi.rmmod(name)
            reload.append(name)
        for alias, names in index.items():
            if name in names:
                hidden.setdefault(alias, list(names))
                names.remove(name)
    yield
    for alias, names in hidden.items():
        index[alias] = names
    if reload:
        modules.load_all(only=reload)
