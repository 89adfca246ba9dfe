"""Shared pytest fixtures: vectors, registrations undone at teardown, the
self-test level for one test, /proc/crypto parsed into records.

The registry is process-global (as the kernel's is): a test that registers a
driver or a template must take it out again, so the fixtures here record what
a test registered and unregister it, newest first, when the test ends.
(Parametrized tests read vector files at module level with load_json.)

The suite's kernel: the registry follows Linux 6.18 by default, but most
tests name drivers of no single kernel (v5.0's ``*-simd`` names beside
later kernels' drivers), so the suite pins :data:`SUITE_KERNEL` here, in
``CRYPTO_API_KERNEL``, before crypto_api is imported; the processes the
tests start inherit it.  A test about what a user sees by default runs
without the pin (``default_kernel.default_env()`` for a child process).
One process follows one kernel, so a directory converted to the default is
run under it with ``CRYPTO_API_SUITE_KERNEL=default`` (or a version) in its
own pytest run; a test there that only holds for the composite registry is
marked ``@pytest.mark.composite_only("why")`` and skipped under any other.
"""

import gc
import os

#: The kernel the suite runs under: ``composite`` unless $CRYPTO_API_SUITE_KERNEL
#: names another (``default``: no pin, the registry's default, 6.18).
SUITE_KERNEL = os.environ.get("CRYPTO_API_SUITE_KERNEL", "composite")
if SUITE_KERNEL == "default":
    os.environ.pop("CRYPTO_API_KERNEL", None)
else:
    os.environ["CRYPTO_API_KERNEL"] = SUITE_KERNEL

import pytest

import crypto_api as capi
from crypto_api.errors import ENOENT
from crypto_api.testmgr.vectors import load_json


def pytest_collection_modifyitems(config, items):
    """Skip the tests marked ``composite_only`` unless the suite runs the composite registry."""
    if SUITE_KERNEL == "composite":
        return
    for item in items:
        mark = item.get_closest_marker("composite_only")
        if mark is not None:
            why = mark.args[0] if mark.args else "names drivers only the composite registry has"
            item.add_marker(pytest.mark.skip(reason=f"composite only ({SUITE_KERNEL} suite): {why}"))


@pytest.fixture
def vectors():
    """``vectors("xchacha12.json")``: the ``vectors`` list of a packaged file."""
    return lambda filename: load_json(filename)["vectors"]


@pytest.fixture
def register():
    """``register(obj)``: register an alg descriptor or a Template for this test.

    Teardown frees dropped transforms (gc) and unregisters everything still
    registered, newest first; EBUSY there means the test leaked a transform.
    """
    done = []

    def _register(obj):
        if isinstance(obj, capi.Template):
            capi.crypto_register_template(obj)
        else:
            capi.crypto_register_alg(obj)
        done.append(obj)
        return obj

    yield _register
    gc.collect()
    for obj in reversed(done):
        try:
            if isinstance(obj, capi.Template):
                capi.crypto_unregister_template(obj)
            else:
                capi.crypto_unregister_alg(obj)
        except capi.CryptoError as e:
            if e.errno != ENOENT:      # already unregistered by the test itself
                raise


@pytest.fixture
def selftest_level():
    """``selftest_level("off")``: change the self-test level for this test only."""
    saved = capi.testmgr.get_level()
    yield capi.testmgr.set_level
    capi.testmgr.set_level(saved)


def _proc_records():
    """/proc/crypto parsed into one dict per record, in list order."""
    records = []
    for block in capi.proc_crypto().split("\n\n"):
        if block.strip():
            records.append({line[:13].rstrip(): line[15:] for line in block.splitlines()})
    return records


@pytest.fixture
def proc_records():
    """``proc_records()``: the current /proc/crypto text as a list of dicts."""
    return _proc_records


#: Modules registering AEADs under the rfc7539 names above the template instance.
VENDOR_AEAD_MODULES = ("chacha20poly1305_avx2",)


@pytest.fixture(scope="module")
def no_vendor_aead_drivers():
    """For tests of the rfc7539 template asked for by its algorithm name: the
    one-pass x86 driver (priority 400) would answer instead, so its module is
    unloaded, and kept from loading (by alias or by load_all), for the test
    module."""
    from crypto_api import modules
    index = modules.alias_index()
    modules.available_modules()
    available = modules._available          # what load_all() and request_module() see
    hidden, paths, reload = {}, {}, []
    for name in VENDOR_AEAD_MODULES:
        if modules.is_loaded(name):
            gc.collect()
            capi.rmmod(name)
            reload.append(name)
        if name in available:
            paths[name] = available.pop(name)
        for alias, names in index.items():
            if name in names:
                hidden.setdefault(alias, list(names))
                names.remove(name)
    yield
    available.update(paths)
    for alias, names in hidden.items():
        index[alias] = names
    if reload:
        modules.load_all(only=reload)
