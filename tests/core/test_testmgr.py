"""The self-test manager itself: the table, alg_test, configurations, levels, messages.

crypto/testmgr.c: a sorted table checked at first
use, generic driver names, both table entries run, "No test for", configs
that cannot be met, the default configuration lists, and the levels (from
the environment, in a subprocess, and from Python).  Test drivers compute
their keystream with the ``cryptography`` package (an independent ChaCha20).
"""

import logging
import os
import subprocess
import sys
import textwrap

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms

import crypto_api as capi
from crypto_api import testmgr
from crypto_api.errors import EINVAL, ELIBBAD
from crypto_api.testmgr import descs
from crypto_api.testmgr.configs import (DEFAULT_CIPHER_TESTVEC_CONFIGS,
                                        DEFAULT_HASH_TESTVEC_CONFIGS, PAGE_SIZE, TOTAL,
                                        DivSpec, TestvecConfig)
from crypto_api.testmgr import hash_test, skcipher_test
from crypto_api.testmgr.vectors import suite

KEY = bytes(range(32))


def chacha20_driver(driver, priority=50, name="chacha20", corrupt_from=None):
    """ChaCha20 (kernel IV layout: counter ‖ nonce) from ``cryptography``, over the walk.

    ``corrupt_from``: flip the last byte of any request of at least that many bytes.
    """

    def setkey(tfm, key):
        capi.crypto_skcipher_ctx(tfm).key = bytes(key)

    def crypt(req):
        ctx = capi.crypto_skcipher_ctx(capi.crypto_skcipher_reqtfm(req))
        stream = Cipher(algorithms.ChaCha20(ctx.key, bytes(req.iv[:16])), mode=None).encryptor()
        walk = capi.skcipher_walk_virt(req, atomic=False)
        while walk.nbytes:
            last = walk.nbytes == walk.total
            n = walk.nbytes if last else walk.nbytes - walk.nbytes % walk.stride
            out = bytearray(stream.update(bytes(walk.src[:n])))
            if last and corrupt_from is not None and req.cryptlen >= corrupt_from and out:
                out[-1] ^= 1
            walk.dst[:n] = out
            capi.skcipher_walk_done(walk, walk.nbytes - n)

    return capi.SkcipherAlg(
        cra_name=name, cra_driver_name=driver, cra_priority=priority, cra_blocksize=1,
        min_keysize=32, max_keysize=32, ivsize=16, chunksize=64,
        setkey=setkey, encrypt=crypt, decrypt=crypt)


def record(proc_records, driver):
    found = [r for r in proc_records() if r["driver"] == driver]
    return found[0] if found else None


@pytest.fixture
def fuzz_settings():
    saved = testmgr.get_fuzz_iterations(), testmgr.get_fuzz_seed()
    yield
    testmgr.set_fuzz_iterations(saved[0])
    testmgr.set_fuzz_seed(saved[1])


def run_python(code, **env):
    full_env = dict(os.environ, **env)
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, env=full_env, timeout=600)


# ---------------------------------------------------------------- the table

def test_the_table_is_in_strcmp_order_without_duplicates():
    keys = [d.alg.encode() for d in descs.ALG_TEST_DESCS]
    assert keys == sorted(set(keys))
    assert descs.check_order() is True


def test_check_order_warns_about_a_bad_table(caplog):
    a, b = descs.AlgTestDesc("xchacha20", "skcipher", "xchacha20"), descs.AlgTestDesc("aes", "cipher", "ecb(aes)")
    with caplog.at_level(logging.WARNING, logger="crypto_api"):
        assert descs.check_order((a, b)) is False
        assert descs.check_order((b, b)) is False
    text = caplog.text
    assert "wrong order" in text and "'xchacha20' before 'aes'" in text
    assert "duplicate" in text and "aes" in text


def test_order_is_strcmp_not_locale():
    # '(' (0x28) sorts before '-' (0x2d) and before letters; uppercase before lowercase
    a, b = descs.AlgTestDesc("adiantum(x)", "skcipher", "s"), descs.AlgTestDesc("adiantum-x", "skcipher", "s")
    assert descs.check_order((a, b)) is True
    assert descs.check_order((b, a)) is False


def test_every_project_algorithm_has_an_entry():
    for alg in ("adiantum(xchacha12,aes)", "adiantum(xchacha20,aes)", "chacha20", "ecb(aes)",
                "nhpoly1305", "poly1305", "xchacha12", "xchacha20"):
        d = testmgr.find_test(alg)
        assert d is not None and d.alg == alg and suite(d.suite)
    assert testmgr.find_test("xchacha") is None
    assert testmgr.find_test("aes") is None       # the cipher is tested through ecb(aes)


@pytest.mark.parametrize("alg, generic", [
    ("aes", "aes-generic"),
    ("cbc(aes)", "cbc(aes-generic)"),
    ("rfc7539(chacha20,poly1305)", "rfc7539(chacha20-generic,poly1305-generic)"),
    ("xchacha12", "xchacha12-generic"),
    ("lrw(ecb(aes))", "lrw(ecb(aes-generic))"),
])
def test_generic_driver_name_is_derived_from_the_leaves(alg, generic):
    assert testmgr.generic_driver_name(alg, None) == generic


def test_an_entrys_own_generic_driver_wins():
    d = testmgr.find_test("adiantum(xchacha12,aes)")
    assert testmgr.generic_driver_name(d.alg, d) == \
        "adiantum(xchacha12-generic,aes-generic,nhpoly1305-generic)"
    assert testmgr.generic_driver_name("chacha20", testmgr.find_test("chacha20")) == "chacha20-generic"


# ---------------------------------------------------------------- alg_test

def test_no_test_for_an_unknown_algorithm(register, caplog, proc_records):
    with caplog.at_level(logging.INFO, logger="crypto_api"):
        register(chacha20_driver("tmtest-stream-drv", name="tmtest-stream"))
    assert "alg: No test for tmtest-stream (tmtest-stream-drv)" in caplog.text
    assert record(proc_records, "tmtest-stream-drv")["selftest"] == "passed"
    assert testmgr.alg_test("tmtest-stream-drv", "tmtest-stream") == 0


def test_a_passing_driver_logs_the_kernel_line(register, caplog):
    with caplog.at_level(logging.INFO, logger="crypto_api"):
        register(chacha20_driver("tmtest-chacha20-good"))
    assert "alg: self-tests for tmtest-chacha20-good (chacha20) passed" in caplog.text
    # and a registered, tested driver can be tested again with type = mask = 0
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="crypto_api"):
        assert testmgr.alg_test("tmtest-chacha20-good", "chacha20") == 0
    assert "alg: self-tests for tmtest-chacha20-good (chacha20) passed" in caplog.text


def _with_entry(monkeypatch, entry):
    table = tuple(sorted(descs.ALG_TEST_DESCS + (entry,), key=lambda d: d.alg.encode()))
    monkeypatch.setattr(descs, "ALG_TEST_DESCS", table)


def test_both_the_name_entry_and_the_driver_entry_run(register, monkeypatch):
    _with_entry(monkeypatch, descs.AlgTestDesc("tmtest-chacha20-twice", "skcipher", "chacha20"))
    ran = []
    real = testmgr._run_desc
    monkeypatch.setattr(testmgr, "_run_desc", lambda d, *a: (ran.append(d.alg), real(d, *a)))
    register(chacha20_driver("tmtest-chacha20-twice"))
    assert ran == ["chacha20", "tmtest-chacha20-twice"]
    ran.clear()
    assert testmgr.alg_test("tmtest-chacha20-twice", "chacha20") == 0
    assert ran == ["chacha20", "tmtest-chacha20-twice"]


def test_a_driver_entry_can_fail_a_driver_the_name_entry_passes(register, monkeypatch, caplog):
    # The driver is a correct chacha20 (the "chacha20" entry passes); the entry
    # for its driver name holds the xchacha20 vectors, which it cannot pass.
    _with_entry(monkeypatch, descs.AlgTestDesc("tmtest-chacha20-entry", "skcipher", "xchacha20"))
    with caplog.at_level(logging.INFO, logger="crypto_api"):
        register(chacha20_driver("tmtest-chacha20-entry"))
    assert ('alg: skcipher: tmtest-chacha20-entry encryption test failed (wrong result) '
            'on test vector 0, cfg="in-place"') in caplog.text
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_skcipher("tmtest-chacha20-entry")
    assert e.value.errno == ELIBBAD


def test_a_failure_names_test_vector_configuration_and_direction(register, caplog, proc_records):
    capi.request_module("crypto-chacha20")
    # wrong only from 128 bytes on: vectors 0..2 of chacha20 are shorter
    with caplog.at_level(logging.INFO, logger="crypto_api"):
        register(chacha20_driver("tmtest-chacha20-long", 9000, corrupt_from=128))
    lengths = [len(v.ptext) for v in suite("chacha20")]
    first = next(i for i, n in enumerate(lengths) if n >= 128)
    assert (f'alg: skcipher: tmtest-chacha20-long encryption test failed (wrong result) '
            f'on test vector {first}, cfg="in-place"') in caplog.text
    assert "alg: self-tests for tmtest-chacha20-long (chacha20) failed (rc=-22)" in caplog.text
    assert record(proc_records, "tmtest-chacha20-long")["selftest"] == "unknown"
    with capi.crypto_alloc_skcipher("chacha20") as tfm:
        assert tfm.driver_name != "tmtest-chacha20-long"


def test_alg_test_raises_with_the_message(register):
    register(chacha20_driver("tmtest-chacha20-raise", corrupt_from=0))
    with pytest.raises(capi.CryptoError) as e:       # the registry's call: the untested driver itself
        testmgr.alg_test("tmtest-chacha20-raise", "chacha20", capi.CRYPTO_ALG_TYPE_SKCIPHER,
                         capi.CRYPTO_ALG_TESTED)
    assert e.value.errno == EINVAL
    assert e.value.message.startswith("alg: skcipher: tmtest-chacha20-raise encryption test failed")
    assert 'on test vector 0, cfg="in-place"' in e.value.message


# ---------------------------------------------------------------- configurations

def test_default_configs_are_the_kernels():
    names = [c.name for c in DEFAULT_CIPHER_TESTVEC_CONFIGS]
    assert names == ["in-place", "out-of-place", "unaligned buffer, offset=1",
                     "buffer aligned only to alignmask", "two even aligned splits",
                     "uneven misaligned splits, may sleep", "misaligned splits crossing pages, inplace"]
    assert len(DEFAULT_HASH_TESTVEC_CONFIGS) == 9
    for cfg in DEFAULT_CIPHER_TESTVEC_CONFIGS + DEFAULT_HASH_TESTVEC_CONFIGS:
        cfg.check()
        assert sum(d.proportion for d in cfg.src_divs) == TOTAL


@pytest.mark.parametrize("cfg, words", [
    (TestvecConfig("tmtest short divs", src_divs=(DivSpec(5000), DivSpec(4000))), "do not add up to 10000"),
    (TestvecConfig("tmtest long dst", dst_divs=(DivSpec(TOTAL), DivSpec(1))), "do not add up to 10000"),
    (TestvecConfig("tmtest nosimd sleep", nosimd=True, may_sleep=True), "nosimd cannot be combined"),
])
def test_a_config_that_cannot_be_met_is_a_failure_with_its_name(cfg, words):
    with capi.crypto_alloc_skcipher("xchacha12-generic") as tfm:
        with pytest.raises(capi.CryptoError) as e:
            skcipher_test.test_skcipher(tfm, suite("xchacha12"), [cfg])
    assert e.value.errno == EINVAL
    assert f'cfg="{cfg.name}"' in e.value.message and words in e.value.message
    assert "xchacha12-generic" in e.value.message
    with capi.crypto_alloc_shash("poly1305-generic") as h:
        with pytest.raises(capi.CryptoError) as e:
            hash_test.test_hash(h, suite("poly1305"), [cfg])
    assert f'cfg="{cfg.name}"' in e.value.message


def test_poison_around_the_pieces_catches_an_overrun(register):
    """A driver writing one byte past the end of its destination is caught."""

    def setkey(tfm, key):
        tfm.ctx.key = bytes(key)

    def crypt(req):
        ctx = req.tfm.ctx
        stream = Cipher(algorithms.ChaCha20(ctx.key, bytes(req.iv[:16])), mode=None).encryptor()
        data = b"".join(bytes(sg.view()) for sg in req.src)[:req.cryptlen]
        out = stream.update(data)
        pos = 0
        for sg in req.dst:
            take = min(sg.length, len(out) - pos)
            sg.buf[sg.offset:sg.offset + take] = out[pos:pos + take]
            pos += take
        if sg.offset + sg.length < len(sg.buf):
            sg.buf[sg.offset + sg.length] ^= 0xFF          # the overrun

    alg = capi.SkcipherAlg(cra_name="chacha20", cra_driver_name="tmtest-chacha20-overrun",
                           cra_priority=1, min_keysize=32, max_keysize=32, ivsize=16, chunksize=64,
                           setkey=setkey, encrypt=crypt, decrypt=crypt)
    register(alg)
    with capi.crypto_alloc_skcipher("tmtest-chacha20-overrun", 0, capi.CRYPTO_ALG_TESTED) as tfm:
        with pytest.raises(capi.CryptoError) as e:
            skcipher_test.test_skcipher(tfm, suite("chacha20"), DEFAULT_CIPHER_TESTVEC_CONFIGS[:1])
    assert "overran dst buffer" in e.value.message and 'cfg="in-place"' in e.value.message


def test_pieces_crossing_pages_fit_the_two_page_buffers():
    from crypto_api.testmgr.buffers import BUFSIZE, TestSgl
    cfg = DEFAULT_CIPHER_TESTVEC_CONFIGS[-1]
    for n in (0, 1, 100, 4096, 2 * PAGE_SIZE - 16):
        sgl = TestSgl(n, cfg.src_divs, 0, bytes(range(256)) * 32)
        assert sum(sg.length for sg in sgl.sgl) == n
        assert all(sg.offset + sg.length <= BUFSIZE for sg in sgl.sgl)
        assert sgl.poison_intact()


# ---------------------------------------------------------------- levels

def test_set_level_round_trip_and_refusal(selftest_level):
    old = testmgr.get_level()
    assert selftest_level("full") == old
    assert testmgr.get_level() == "full"
    with pytest.raises(capi.CryptoError) as e:
        testmgr.set_level("extreme")
    assert e.value.errno == EINVAL and "extreme" in e.value.message
    assert testmgr.get_level() == "full"


def test_fuzz_settings_are_validated(fuzz_settings):
    assert testmgr.DEFAULT_FUZZ_ITERATIONS == 100
    testmgr.set_fuzz_iterations(3)
    assert testmgr.get_fuzz_iterations() == 3
    testmgr.set_fuzz_seed(42)
    assert testmgr.set_fuzz_seed(None) == 42
    for bad in (-1, 1.5, "3", True):
        with pytest.raises(capi.CryptoError):
            testmgr.set_fuzz_iterations(bad)
        with pytest.raises(capi.CryptoError):
            testmgr.set_fuzz_seed(bad)


def test_level_off_marks_a_bad_driver_passed_and_hands_it_out(register, selftest_level, proc_records):
    selftest_level("off")
    register(chacha20_driver("tmtest-chacha20-off", 9000, corrupt_from=0))
    assert record(proc_records, "tmtest-chacha20-off")["selftest"] == "passed"
    with capi.crypto_alloc_skcipher("chacha20") as tfm:
        assert tfm.driver_name == "tmtest-chacha20-off"     # no test: nothing protects the user


def test_set_level_full_makes_registration_fuzz(register, selftest_level, fuzz_settings, caplog):
    capi.request_module("crypto-chacha20")
    # wrong only from 2000 bytes on: no chacha20 vector is that long (max 1281),
    # so only the comparison with chacha20-generic on random lengths finds it
    assert max(len(v.ptext) for v in suite("chacha20")) < 2000
    selftest_level("fast")
    alg = register(chacha20_driver("tmtest-chacha20-fuzz", 9000, corrupt_from=2000))
    capi.crypto_unregister_skcipher(alg)
    selftest_level("full")
    testmgr.set_fuzz_iterations(8)
    testmgr.set_fuzz_seed(7)
    with caplog.at_level(logging.INFO, logger="crypto_api"):
        register(chacha20_driver("tmtest-chacha20-fuzz", 9000, corrupt_from=2000))
    line = next(r.getMessage() for r in caplog.records if r.levelno == logging.ERROR)
    assert line.startswith("alg: skcipher: tmtest-chacha20-fuzz encryption test failed (wrong result) "
                           "on test vector random: len=")
    assert line.endswith("(seed 7, fuzz_iterations=8)")
    n = int(line.split("len=")[1].split()[0])
    assert n >= 2000


ENV_SCRIPT = """
    import logging
    import crypto_api as capi
    from crypto_api import testmgr
    logging.basicConfig(level=logging.ERROR, format="%(message)s")
    print("level", testmgr.get_level(), testmgr.get_fuzz_iterations())
    capi.request_module("crypto-xchacha12-generic")
    name = capi.insmod({path!r})
    print([l for l in capi.proc_crypto().split("\\n\\n") if "planted" in l][0])
"""


def _planted(name):
    return os.path.join(os.path.dirname(__file__), "test_testmgr_drivers", f"{name}.py")


def test_env_off_marks_everything_passed():
    r = run_python(ENV_SCRIPT.format(path=_planted("planted_onebyte")), CRYPTO_API_SELFTESTS="off")
    assert r.returncode == 0, r.stderr
    assert "level off" in r.stdout
    assert "selftest     : passed" in r.stdout


def test_env_fast_catches_vectors_but_not_fuzz_bugs():
    r = run_python(ENV_SCRIPT.format(path=_planted("planted_onebyte")), CRYPTO_API_SELFTESTS="fast")
    assert r.returncode == 0, r.stderr
    assert "selftest     : unknown" in r.stdout
    r = run_python(ENV_SCRIPT.format(path=_planted("planted_length")),     # unset: fast
                   CRYPTO_API_SELFTESTS="", CRYPTO_API_FUZZ_ITERATIONS="")
    assert "level fast 100" in r.stdout
    assert "selftest     : passed" in r.stdout


def test_env_full_runs_the_full_tests_at_registration():
    r = run_python(ENV_SCRIPT.format(path=_planted("planted_length")),
                   CRYPTO_API_SELFTESTS="full", CRYPTO_API_FUZZ_ITERATIONS="4")
    assert r.returncode == 0, r.stderr
    assert "level full 4" in r.stdout
    assert "selftest     : unknown" in r.stdout
    assert "on test vector random: len=" in r.stderr and "fuzz_iterations=4)" in r.stderr


def test_a_bad_env_level_is_refused():
    r = run_python("import crypto_api as capi; capi.testmgr.get_level()", CRYPTO_API_SELFTESTS="sometimes")
    assert r.returncode != 0
    assert "CRYPTO_API_SELFTESTS='sometimes'" in r.stderr and "off, fast, full" in r.stderr


def test_a_bad_env_level_refuses_allocations_and_registers_nothing():
    # The refusal reaches the user (not a bare ENOENT from a module whose
    # init failed), and no algorithm is left registered without its test.
    r = run_python("""
        import crypto_api as capi
        try:
            capi.crypto_alloc_skcipher("xchacha12")
        except capi.CryptoError as e:
            print("errno", e.errno, e.message)
        print("listed", capi.proc_crypto().count("name "))
    """, CRYPTO_API_SELFTESTS="sometimes")
    assert r.returncode == 0, r.stderr
    assert f"errno {EINVAL} CRYPTO_API_SELFTESTS='sometimes'" in r.stdout
    assert "listed 0" in r.stdout
