"""Fixtures of the ppc64le tests: the ``emulation`` marker skips a test with a
reason naming the missing package (qemu-user, gcc-powerpc64le-linux-gnu,
libc6-dev-ppc64el-cross), or fails it under CRYPTO_API_REQUIRE_EMULATION=1."""

from arm64_emulation import require_emulation


def pytest_configure(config):
    config.addinivalue_line("markers", "emulation: needs qemu-user and the arch's cross compiler "
                            "(skipped without them unless CRYPTO_API_REQUIRE_EMULATION=1)")


def pytest_runtest_setup(item):
    if item.get_closest_marker("emulation") is not None:
        require_emulation("ppc64le")
