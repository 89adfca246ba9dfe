"""Fixtures of the arm64 tests: ``arm64_emulation`` skips a test with a reason
naming the missing package (qemu-user, gcc-aarch64-linux-gnu,
libc6-dev-arm64-cross), or fails it under CRYPTO_API_REQUIRE_EMULATION=1;
the ``emulation`` marker applies it to a whole module or test."""

import pytest
from arm64_emulation import require_emulation


def pytest_configure(config):
    config.addinivalue_line("markers", "emulation: needs qemu-user and the arm64 cross compiler "
                            "(skipped without them unless CRYPTO_API_REQUIRE_EMULATION=1)")


@pytest.fixture
def arm64_emulation():
    require_emulation()


def pytest_runtest_setup(item):
    if item.get_closest_marker("emulation") is not None:
        require_emulation()
