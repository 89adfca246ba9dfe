"""Planted AEAD bugs: each caught by the layer of the self-tests that can see it.

Four plug-in ``rfc7539(chacha20,poly1305)`` drivers
(tests/core/test_testmgr_drivers/planted_aead_*.py, priority 500, above the
template instance; ChaCha20-Poly1305 from tests/aead_ref.py) are loaded with
``insmod``; each has one bug:

* the last tag byte wrong: the vectors under the first default configuration;
* the AD read from the first scatterlist entry only: only the split
  configurations, never the contiguous ones;
* an empty AD padded to a zero block when there is text (no vector has that
  shape): only fuzzing against the generic instance (level full);
* only the last 8 tag bytes compared: only inauthentic inputs (level full);
  the official inauthentic vector flips the last byte, which it does compare.

A driver that fails stays registered but untested: ``selftest : unknown``,
ELIBBAD by driver name, and ``rfc7539(chacha20,poly1305)`` still gives the
tested template instance.  Seeds are fixed; each docstring says why the
iterations used catch the bug for nearly any seed.
"""

import random
import re

import pytest

import crypto_api as capi
from crypto_api import testmgr
from crypto_api.errors import ELIBBAD
from crypto_api.testmgr import aead_fuzz, aead_test
from crypto_api.testmgr.configs import DEFAULT_CIPHER_TESTVEC_CONFIGS
from crypto_api.testmgr.vectors import suite
from planted_drivers import load_planted, selftest_of

RFC = "rfc7539(chacha20,poly1305)"
VECS = suite(RFC)
pytestmark = pytest.mark.usefixtures("no_vendor_aead_drivers")     # the template answers RFC
CONTIGUOUS = DEFAULT_CIPHER_TESTVEC_CONFIGS[:4]
SPLITS = DEFAULT_CIPHER_TESTVEC_CONFIGS[4:]


@pytest.fixture
def planted(caplog, selftest_level):
    """``planted(name, level, iterations, seed)``: insmod a planted driver; its warning lines."""
    selftest_level("fast")
    # the template instance first: with no tested rfc7539 around, a lookup would stop
    # at the failed driver with ELIBBAD (as in the kernel) instead of building one
    capi.crypto_alloc_aead(RFC).free()
    yield from load_planted(caplog, selftest_level)


def assert_guarded(driver, proc_records):
    assert selftest_of(proc_records, driver) == ["unknown"]
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_aead(driver)
    assert e.value.errno == ELIBBAD and driver in e.value.message
    with capi.crypto_alloc_aead(RFC) as tfm:
        assert tfm.driver_name.startswith("rfc7539(chacha20-")


def assert_passed(driver, proc_records):
    assert selftest_of(proc_records, driver) == ["passed"]
    with capi.crypto_alloc_aead(RFC) as tfm:
        assert tfm.driver_name == driver            # priority 500: what users get


def untested_tfm(driver):
    return capi.crypto_alloc_aead(driver, 0, capi.CRYPTO_ALG_TESTED)


def test_a_wrong_tag_byte_is_caught_by_the_first_vector(planted, proc_records):
    lines = planted("planted_aead_onebyte")
    assert lines[0] == ('alg: aead: rfc7539-planted-onebyte encryption test failed (wrong result) '
                        'on test vector 0, cfg="in-place"')
    assert lines[1].startswith(f"alg: self-tests for rfc7539-planted-onebyte ({RFC}) failed (rc=-22)")
    assert_guarded("rfc7539-planted-onebyte", proc_records)


def test_reading_the_ad_from_one_entry_is_caught_only_by_the_split_configs(planted, proc_records):
    lines = planted("planted_aead_split")
    assert re.match(r'alg: aead: rfc7539-planted-split (en|de)cryption (test )?failed .*'
                    r'on test vector \d+, cfg="(two even aligned splits|uneven misaligned splits, '
                    r'may sleep)"', lines[0]), lines[0]
    assert_guarded("rfc7539-planted-split", proc_records)
    with untested_tfm("rfc7539-planted-split") as tfm:
        aead_test.test_aead(tfm, VECS, CONTIGUOUS)                      # all pass
        # the 50/50 and 19/33/48 % splits each catch it; the page-crossing one puts
        # 75 % of the stream in its first piece, more than the AD of any vector
        assert max(len(v.assoc) / (len(v.assoc) + len(v.ctext)) for v in VECS) < 0.75
        for cfg in SPLITS[:2]:
            with pytest.raises(capi.CryptoError) as e:
                aead_test.test_aead(tfm, VECS, [cfg])
            assert f'cfg="{cfg.name}"' in e.value.message
        aead_test.test_aead(tfm, VECS, SPLITS[2:])


def test_a_bug_without_ad_is_caught_only_by_fuzzing_against_the_generic(planted, proc_records):
    # Wrong when the AD is empty and the text is not; no vector is.  A random
    # vector has no AD with probability 1/4 (and then almost always text), and
    # is not inauthentic 3/4 of the time: each of the 16 random vectors of 2
    # iterations catches it with probability ~0.19, all miss with ~3 %.
    assert not [v for v in VECS if not v.assoc and v.ptext]
    assert planted("planted_aead_noad", "fast") == []
    assert_passed("rfc7539-planted-noad", proc_records)
    with capi.crypto_alloc_aead("rfc7539-planted-noad") as tfm:
        aead_test.test_aead(tfm, VECS, DEFAULT_CIPHER_TESTVEC_CONFIGS)   # passes again
        with pytest.raises(capi.CryptoError):
            aead_fuzz.aead_vs_generic(tfm, testmgr.find_test(RFC), tfm.driver_name, VECS,
                                      random.Random(1), 2)
    capi.rmmod("planted_aead_noad")

    lines = planted("planted_aead_noad", "full", iterations=2, seed=1)
    m = re.match(r'alg: aead: rfc7539-planted-noad (en|de)cryption (test )?failed .*on test vector '
                 r'random: alen=0 plen=(?P<plen>\d+) authsize=16 klen=32 novrfy=0, cfg="random: [^"]*".* '
                 r'\(seed 1, fuzz_iterations=2\)$', lines[0])
    assert m, lines[0]
    assert int(m.group("plen")) > 0
    assert_guarded("rfc7539-planted-noad", proc_records)


def test_comparing_half_the_tag_is_caught_only_by_inauthentic_inputs(planted, proc_records):
    # A change only in the first 8 tag bytes gets through: a mutated message
    # (half of the inauthentic ones) has that with probability about 1/8 to
    # 1/4, so each inauthentic vector catches the bug with p ~ 1/12.  8
    # iterations give 64 inauthentic-input rounds (and ~16 inauthentic
    # vectors against the generic): all miss with probability below 0.1 %.
    (bad,) = [v for v in VECS if v.novrfy]
    (twin,) = [v for v in VECS if not v.novrfy and (v.key, v.ptext) == (bad.key, bad.ptext)]
    assert [i for i, (a, b) in enumerate(zip(bad.ctext, twin.ctext)) if a != b] == [len(bad.ctext) - 1]
    assert planted("planted_aead_halftag", "fast") == []
    assert_passed("rfc7539-planted-halftag", proc_records)
    with capi.crypto_alloc_aead("rfc7539-planted-halftag") as tfm:
        with pytest.raises(capi.CryptoError) as e:
            aead_fuzz.aead_inauthentic_inputs(tfm, testmgr.find_test(RFC), VECS, random.Random(1), 8)
        assert "unexpectedly succeeded" in e.value.message and "novrfy=1" in e.value.message
    capi.rmmod("planted_aead_halftag")

    lines = planted("planted_aead_halftag", "full", iterations=8, seed=1)
    m = re.match(r'alg: aead: rfc7539-planted-halftag decryption unexpectedly succeeded on test '
                 r'vector random: alen=\d+ plen=\d+ authsize=16 klen=32 novrfy=1, cfg="random: [^"]*"; '
                 r'expected_error=-74 \(inauthentic input\) \(seed 1, fuzz_iterations=8\)$', lines[0])
    assert m, lines[0]
    assert_guarded("rfc7539-planted-halftag", proc_records)


def test_the_one_call_decrypt_of_a_planted_driver_releases_nothing_either(planted):
    """Even a driver that writes the plaintext and then refuses (as rfc7539 does) never
    hands it to a one-call caller."""
    planted("planted_aead_onebyte")
    with untested_tfm("rfc7539-planted-onebyte") as tfm:
        tfm.setkey(bytes(32))
        ct = bytearray(tfm.encrypt(b"secret text", bytes(12)))     # its tag is wrong
        out = bytearray(11)
        with pytest.raises(capi.CryptoError) as e:
            tfm.decrypt(bytes(ct), bytes(12), out=out)
        assert e.value.errno == 74 and out == bytes(11)
