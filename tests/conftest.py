"""Shared pytest fixtures: vectors, registrations undone at teardown, the
self-test level for one test, /proc/crypto parsed into records.

The registry is process-global (as the kernel's is): a test that registers a
driver or a template must take it out again, so the fixtures here record what
a test registered and unregister it, newest first, when the test ends.
(Parametrized tests read vector files at module level with load_json.)
"""

import gc

import pytest

import crypto_api as capi
from crypto_api.errors import ENOENT
from crypto_api.testmgr.vectors import load_json


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
