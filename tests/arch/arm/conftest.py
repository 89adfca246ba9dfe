"""Fixtures of the arm (32-bit) machine's tests: the ``emulation`` marker skips a
test with a reason naming the missing package (qemu-user,
gcc-arm-linux-gnueabihf, libc6-dev-armhf-cross), or fails it under
CRYPTO_API_REQUIRE_EMULATION=1."""

from arm64_emulation import require_emulation


def pytest_configure(config):
    config.addinivalue_line("markers", "emulation: needs qemu-user and the cross compiler of the "
                            "emulated arch (skipped without them unless CRYPTO_API_REQUIRE_EMULATION=1)")


def pytest_runtest_setup(item):
    if item.get_closest_marker("emulation") is not None:
        require_emulation("arm")
