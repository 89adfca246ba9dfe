"""Fixtures of the tests of the portable algorithms and templates.

These tests ask for templates by their algorithm names (``rfc7539(chacha20,
poly1305)``) to check what the kernel's template instance does, so the
vendor-style x86 AEAD driver registered under the same names (tested in
tests/arch) is kept out of their way (tests/conftest.py).
"""

import pytest


@pytest.fixture(scope="module", autouse=True)
def _template_instances_answer(no_vendor_aead_drivers):
    yield
