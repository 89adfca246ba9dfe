"""Planted bugs: each caught at the level that can catch it, never handed to a user.

Five plug-in xchacha12 drivers (tests/core/test_testmgr_drivers/planted_*.py,
priority 500, above every real one) are loaded with ``insmod``; each has one
bug that only one kind of test can see:

* one wrong byte: the test vectors under the first default configuration;
* whole walk steps (no rounding down to the stride): only the split
  configurations, not the contiguous ones;
* wrong only for lengths no vector has: only fuzzing against the generic
  (level full), with the seed in the message;
* wrong only when SIMD is not usable: only a nosimd configuration (full);
* wrong only in the contiguous entry point (``encrypt_contiguous``): only the
  configuration of ``tfm.encrypt`` that declines the one-call path.

After a failure the driver stays registered but untested: ``selftest :
unknown`` in /proc/crypto, ELIBBAD by driver name, and a lookup by cra_name
returns a tested driver.  The bugs are chosen so that the few iterations
used here catch them for any seed (see each test); the seed is fixed anyway.
"""

import re

import pytest

import crypto_api as capi
from crypto_api.errors import ELIBBAD
from crypto_api.testmgr.configs import DEFAULT_CIPHER_TESTVEC_CONFIGS
from crypto_api.testmgr import skcipher_test
from crypto_api.testmgr.vectors import suite
from planted_drivers import load_planted, selftest_of

KEY = bytes(range(32))
IV = bytes(range(32, 64))
CONTIGUOUS = DEFAULT_CIPHER_TESTVEC_CONFIGS[:4]
SPLITS = DEFAULT_CIPHER_TESTVEC_CONFIGS[4:]


@pytest.fixture
def planted(caplog, selftest_level):
    """``planted(name, level)``: insmod tests/core/test_testmgr_drivers/<name>.py at that level.

    Returns the error lines the self-tests logged; the module is removed at teardown.
    """
    # real xchacha12 drivers first: with none tested, a lookup would stop at
    # the failed one with ELIBBAD (as in the kernel) instead of loading them
    capi.request_module("crypto-xchacha12")
    yield from load_planted(caplog, selftest_level)


def assert_guarded(driver, proc_records):
    """Registered, untested, ELIBBAD by driver name, never returned for xchacha12."""
    assert selftest_of(proc_records, driver) == ["unknown"]
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_skcipher(driver)
    assert e.value.errno == ELIBBAD and driver in e.value.message
    with capi.crypto_alloc_skcipher("xchacha12") as tfm:
        assert tfm.driver_name != driver
        assert tfm.driver_name in ("xchacha12-simd", "xchacha12-generic")
    with capi.crypto_alloc_skcipher("adiantum(xchacha12,aes)") as tfm:
        assert driver not in tfm.driver_name


def assert_passed(driver, proc_records):
    assert selftest_of(proc_records, driver) == ["passed"]
    with capi.crypto_alloc_skcipher("xchacha12") as tfm:
        assert tfm.driver_name == driver          # priority 500: it is what users get


def untested_tfm(driver):
    return capi.crypto_alloc_skcipher(driver, 0, capi.CRYPTO_ALG_TESTED)


def test_one_wrong_byte_is_caught_by_the_vectors(planted, proc_records):
    lines = planted("planted_onebyte")
    assert lines[0] == ('alg: skcipher: xchacha12-planted-onebyte encryption test failed (wrong result) '
                        'on test vector 0, cfg="in-place"')
    assert lines[1].startswith("alg: self-tests for xchacha12-planted-onebyte (xchacha12) failed (rc=-22)")
    assert_guarded("xchacha12-planted-onebyte", proc_records)


def test_ignoring_the_stride_is_caught_only_by_the_split_configs(planted, proc_records):
    lines = planted("planted_stride")
    # vector 3 is 375 bytes: "two even aligned splits" gives 188 + 187, and a
    # 188-byte first step processed whole puts the keystream out of step
    assert [len(v.ptext) for v in suite("xchacha12")][3] == 375
    assert lines[0] == ('alg: skcipher: xchacha12-planted-stride encryption test failed (wrong result) '
                        'on test vector 3, cfg="two even aligned splits"')
    assert_guarded("xchacha12-planted-stride", proc_records)
    with untested_tfm("xchacha12-planted-stride") as tfm:
        skcipher_test.test_skcipher(tfm, suite("xchacha12"), CONTIGUOUS)      # all pass
        for cfg in SPLITS:                                                    # each one fails
            with pytest.raises(capi.CryptoError) as e:
                skcipher_test.test_skcipher(tfm, suite("xchacha12"), [cfg])
            assert f'cfg="{cfg.name}"' in e.value.message


def test_a_bug_at_lengths_no_vector_has_is_caught_only_by_fuzzing(planted, proc_records):
    # The driver is wrong when cryptlen % 64 is in 2..26; no vector is.
    # A random vector has a valid key 3/4 of the time and a length in that
    # class about 25/64 of the time: each catches it with probability ~0.3,
    # so the 16 random vectors of 2 iterations all miss it with probability
    # about 0.7**16 (0.4 %), whatever the seed.
    assert not [v for v in suite("xchacha12") if 2 <= len(v.ptext) % 64 <= 26]
    assert planted("planted_length", "fast") == []
    assert_passed("xchacha12-planted-length", proc_records)
    capi.rmmod("planted_length")

    lines = planted("planted_length", "full", iterations=2, seed=1)
    m = re.match(r'alg: skcipher: xchacha12-planted-length (en|de)cryption test failed \(wrong result\) '
                 r'on test vector random: len=(\d+) klen=32, cfg="random: [^"]*" '
                 r'\(seed 1, fuzz_iterations=2\)$', lines[0])
    assert m, lines[0]
    assert 2 <= int(m.group(2)) % 64 <= 26
    assert_guarded("xchacha12-planted-length", proc_records)


def test_a_bug_without_simd_is_caught_only_by_nosimd(planted, proc_records):
    # A quarter of the random configs are nosimd (1/2 without may_sleep, 1/2
    # of those); 2 iterations give 128 configs over the 32 vectors in
    # encryption alone, so none being nosimd has probability (3/4)**128.
    assert planted("planted_nosimd", "fast") == []
    assert_passed("xchacha12-planted-nosimd", proc_records)
    with capi.crypto_alloc_skcipher("xchacha12-planted-nosimd") as tfm, \
            capi.crypto_alloc_skcipher("xchacha12-generic") as ref:
        tfm.setkey(KEY)
        ref.setkey(KEY)
        data = bytes(range(256)) * 4
        with capi.fpu_trace() as trace:
            assert tfm.encrypt(data, IV) == ref.encrypt(data, IV)       # the SIMD path is right
        assert trace.sections and sum(trace.nbytes) == len(data)
        with capi.simd_disabled():
            assert tfm.encrypt(data, IV) != ref.encrypt(data, IV)       # the fallback is not
    capi.rmmod("planted_nosimd")

    lines = planted("planted_nosimd", "full", iterations=2, seed=1)
    m = re.match(r'alg: skcipher: xchacha12-planted-nosimd (en|de)cryption test failed \(wrong result\) '
                 r'on test vector \d+, cfg="(random: [^"]*)" \(seed 1, fuzz_iterations=2\)$', lines[0])
    assert m, lines[0]
    assert " nosimd " in m.group(2) and "may_sleep" not in m.group(2)
    assert_guarded("xchacha12-planted-nosimd", proc_records)


def test_a_bug_in_the_linear_entry_point_is_caught_by_the_declined_config(planted, proc_records):
    """tfm.encrypt on bytes and on a memoryview both take the one-call path;
    only the configuration that declines it runs ``encrypt_contiguous``."""
    lines = planted("planted_contiguous")
    assert lines[0] == ('alg: skcipher: xchacha12-planted-contiguous encryption test failed (wrong result) '
                        f'on test vector 0, cfg="{skcipher_test.ONE_BUFFER_DECLINED_CFG}"')
    assert_guarded("xchacha12-planted-contiguous", proc_records)
    with untested_tfm("xchacha12-planted-contiguous") as tfm, \
            capi.crypto_alloc_skcipher("xchacha12-generic") as ref:
        tfm.setkey(KEY)
        ref.setkey(KEY)
        data = bytes(range(200))
        want = ref.encrypt(data, IV)
        assert tfm.encrypt(data, IV) == tfm.encrypt(memoryview(data), IV) == want
        assert tfm.encrypt(data, bytearray(IV)) != want     # declined: the contiguous entry point


def test_the_planted_drivers_are_plain_plugins(planted, proc_records):
    """Loaded from a file by insmod: module name from MODULE_NAME, aliases usable, rmmod works."""
    planted("planted_onebyte")
    assert "planted_onebyte" in capi.loaded_modules()
    rec = [r for r in proc_records() if r["driver"] == "xchacha12-planted-onebyte"][0]
    assert rec["module"] == "planted_onebyte" and rec["priority"] == "500"
    capi.rmmod("planted_onebyte")
    assert not [r for r in proc_records() if r["driver"] == "xchacha12-planted-onebyte"]
