"""testmgr.alg_test at the full level for AEAD drivers (the x86 GCM tests'
shared helper): the vectors, the random configurations, and fuzzing against
the generic driver, with a fixed seed."""
import logging


def full_selftests(selftest_level, caplog, drivers, seed):
    """testmgr.alg_test at level full (20 fuzz iterations, ``seed``) for each
    ``alg: driver`` of ``drivers``: each passes, each compared with its generic form."""
    from crypto_api import testmgr
    saved = testmgr.get_fuzz_iterations(), testmgr.get_fuzz_seed()
    selftest_level("full")
    testmgr.set_fuzz_iterations(20)
    testmgr.set_fuzz_seed(seed)
    try:
        with caplog.at_level(logging.INFO, logger="crypto_api"):
            for name, driver in drivers.items():
                assert testmgr.alg_test(driver, name) == 0
    finally:
        testmgr.set_fuzz_iterations(saved[0])
        testmgr.set_fuzz_seed(saved[1])
    for name, driver in drivers.items():
        assert f"alg: self-tests for {driver} ({name}) passed" in caplog.text
    assert "skipping comparison" not in caplog.text
