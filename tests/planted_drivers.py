"""Loading the planted-bug driver modules of the self-test tests.

``load_planted`` is the body of a ``planted`` fixture: it yields
``load(name, level, iterations, seed)``, which insmods
tests/core/test_testmgr_drivers/<name>.py at that self-test level and fuzz
setting and returns the warning lines the self-tests logged; at teardown the
modules are removed and the fuzz setting restored.  ``selftest_of`` reads a
driver's ``selftest`` field from /proc/crypto.
"""

import gc
import logging
import os

import crypto_api as capi
from crypto_api import testmgr

PLANTED_DIR = os.path.join(os.path.dirname(__file__), "core", "test_testmgr_drivers")


def load_planted(caplog, selftest_level):
    """Generator for a fixture: yields the loader, unloads what it loaded afterwards."""
    loaded = []
    saved = testmgr.get_fuzz_iterations(), testmgr.get_fuzz_seed()

    def load(name, level="fast", iterations=2, seed=1):
        selftest_level(level)
        testmgr.set_fuzz_iterations(iterations)
        testmgr.set_fuzz_seed(seed)
        caplog.clear()
        with caplog.at_level(logging.INFO, logger="crypto_api"):
            loaded.append(capi.insmod(os.path.join(PLANTED_DIR, name + ".py")))
        return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]

    yield load
    gc.collect()
    for name in loaded:
        if capi.modules.is_loaded(name):
            capi.rmmod(name)
    testmgr.set_fuzz_iterations(saved[0])
    testmgr.set_fuzz_seed(saved[1])


def selftest_of(proc_records, driver):
    """The ``selftest`` fields of ``driver``'s /proc/crypto records."""
    return [r["selftest"] for r in proc_records() if r["driver"] == driver]
