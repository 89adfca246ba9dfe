"""Plug-in drivers under the self-test manager: the example package and insmod.

The out-of-tree example (examples/xchacha12_mine: a cffi C core and its
module, entry point group ``crypto_api.modules``) is built and installed once
per session with pip into a temporary directory (never into the shared
environment), put on sys.path for the tests that use it, found through its
entry point, loaded by ``request_module`` and tested like any driver.  Its
output is checked against the official XChaCha12 vectors and against
xchacha12-generic on split buffers.  A driver file written to tmp_path is
loaded with ``insmod``.  Every test removes what it loaded.
"""

import gc
import logging
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import crypto_api as capi
from crypto_api import modules, testmgr

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "xchacha12_mine"


@pytest.fixture(scope="session")
def example_site(tmp_path_factory):
    """The example package built and installed into its own directory (once)."""
    base = tmp_path_factory.mktemp("xchacha12_mine")
    src, site = base / "src", base / "site"
    shutil.copytree(EXAMPLE, src, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    r = subprocess.run([sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-deps",
                        "--no-index", "-q", "--target", str(site), str(src)],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    return site


@pytest.fixture
def example(example_site):
    """The installed example on sys.path, module list rescanned; all undone afterwards."""
    sys.path.insert(0, str(example_site))
    modules.rescan()
    yield example_site
    gc.collect()
    if modules.is_loaded("xchacha12_mine"):
        capi.rmmod("xchacha12_mine")
    sys.path.remove(str(example_site))
    modules.rescan()


def record(proc_records, driver):
    found = [r for r in proc_records() if r["driver"] == driver]
    return found[0] if found else None


def test_the_entry_point_declares_the_module_and_its_aliases(example):
    assert modules.available_modules()["xchacha12_mine"] == "xchacha12_mine"
    index = modules.alias_index()
    for alias in ("xchacha12", "crypto-xchacha12", "xchacha12-mine", "crypto-xchacha12-mine"):
        assert "xchacha12_mine" in index[alias]
    assert not modules.is_loaded("xchacha12_mine")       # found, not loaded yet


def test_request_module_loads_it_and_it_passes_its_self_tests(example, caplog, proc_records):
    with caplog.at_level(logging.INFO, logger="crypto_api"):
        assert capi.request_module("crypto-xchacha12-mine") == 1
    assert "alg: self-tests for xchacha12-mine (xchacha12) passed" in caplog.text
    rec = record(proc_records, "xchacha12-mine")
    assert rec["selftest"] == "passed" and rec["module"] == "xchacha12_mine"
    assert rec["type"] == "skcipher" and rec["ivsize"] == "32" and rec["chunksize"] == "64"
    assert capi.rmmod("xchacha12_mine") is None
    assert record(proc_records, "xchacha12-mine") is None


def test_a_lookup_by_driver_name_loads_it(example, vectors):
    with capi.crypto_alloc_skcipher("xchacha12-mine") as tfm:
        assert tfm.driver_name == "xchacha12-mine"
        for v in vectors("xchacha12.json"):
            key, iv = bytes.fromhex(v["key"]), bytes.fromhex(v["kernel_iv"])
            pt, ct = bytes.fromhex(v["plaintext"]), bytes.fromhex(v["ciphertext"])
            tfm.setkey(key)
            assert tfm.encrypt(pt, iv) == ct
            assert tfm.decrypt(ct, iv) == pt


def test_it_follows_the_stride_rule_on_split_buffers(example):
    capi.request_module("crypto-xchacha12-generic")
    key, iv = bytes(range(32)), bytes(range(100, 132))
    data = bytes((7 * i + 3) & 0xFF for i in range(3000))
    with capi.crypto_alloc_skcipher("xchacha12-mine") as tfm, \
            capi.crypto_alloc_skcipher("xchacha12-generic") as ref:
        tfm.setkey(key)
        ref.setkey(key)
        want = ref.encrypt(data, iv)
        for cuts in ((1,), (100, 900, 2000), (63, 128, 1000, 1872), (1001,)):
            bufs, sgl, pos = [], capi.sg_init_table(len(cuts) + 1), 0
            for i, end in enumerate(cuts + (len(data),)):     # pieces data[pos:end], in place
                piece = bytearray(data[pos:end])
                bufs.append(piece)
                capi.sg_set_buf(sgl[i], piece)
                pos = end
            req = capi.skcipher_request_alloc(tfm)
            capi.skcipher_request_set_crypt(req, sgl, sgl, len(data), bytearray(iv))
            capi.crypto_skcipher_encrypt(req)
            assert b"".join(bufs) == want, cuts


def test_it_passes_the_full_tests(example, selftest_level):
    capi.request_module("crypto-xchacha12-mine")
    saved = testmgr.get_fuzz_iterations(), testmgr.get_fuzz_seed()
    selftest_level("full")
    testmgr.set_fuzz_iterations(3)
    testmgr.set_fuzz_seed(12)
    try:
        assert testmgr.alg_test("xchacha12-mine", "xchacha12") == 0
    finally:
        testmgr.set_fuzz_iterations(saved[0])
        testmgr.set_fuzz_seed(saved[1])


def test_it_wins_over_generic_and_loses_to_simd(example):
    capi.request_module("crypto-xchacha12")             # every module with that alias
    with capi.crypto_alloc_skcipher("xchacha12") as tfm:
        simd = capi.crypto_has_alg("xchacha12-simd")
        assert tfm.driver_name == ("xchacha12-simd" if simd else "xchacha12-mine")
        assert tfm.alg.cra_priority >= 250


# ---------------------------------------------------------------- insmod from a file

DRIVER_FILE = '''
"""A test driver: xchacha20 over the project's generic C core, written as a plug-in file."""
import crypto_api as capi
from crypto_api.algs import chacha_generic as cg
from crypto_api.algs._chacha_generic import ffi, lib

MODULE_NAME = "tmplug_xchacha20"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("xchacha20-tmplug")


def crypt(req):
    ctx = capi.crypto_skcipher_ctx(capi.crypto_skcipher_reqtfm(req))
    state = cg.chacha_state(ctx, req.iv, True)
    walk = capi.skcipher_walk_virt(req, atomic=False)
    while walk.nbytes:
        n = walk.nbytes if walk.nbytes == walk.total else walk.nbytes - walk.nbytes % walk.stride
        lib.chacha_crypt_generic(state, ffi.from_buffer(walk.dst), ffi.from_buffer(walk.src), n, 20)
        capi.skcipher_walk_done(walk, walk.nbytes - n)


ALG = capi.SkcipherAlg(
    cra_name="xchacha20", cra_driver_name="xchacha20-tmplug", cra_priority=1,
    cra_blocksize=1, min_keysize=32, max_keysize=32, ivsize=32, chunksize=64,
    setkey=cg.chacha20_setkey, encrypt=crypt, decrypt=crypt, exit=cg.chacha_exit)


def module_init():
    capi.crypto_register_skcipher(ALG)


def module_exit():
    capi.crypto_unregister_skcipher(ALG)
'''


def test_insmod_of_a_driver_file_runs_its_self_tests(tmp_path, caplog, proc_records):
    path = tmp_path / "tmplug_driver.py"
    path.write_text(textwrap.dedent(DRIVER_FILE))
    with caplog.at_level(logging.INFO, logger="crypto_api"):
        name = capi.insmod(str(path))
    try:
        assert name == "tmplug_xchacha20"
        assert "alg: self-tests for xchacha20-tmplug (xchacha20) passed" in caplog.text
        rec = record(proc_records, "xchacha20-tmplug")
        assert rec["selftest"] == "passed" and rec["module"] == "tmplug_xchacha20"
    finally:
        capi.rmmod(name)
    assert record(proc_records, "xchacha20-tmplug") is None


def test_insmod_of_a_broken_driver_file_keeps_it_from_users(tmp_path, caplog, proc_records):
    capi.request_module("crypto-xchacha20")
    path = tmp_path / "tmplug_broken.py"
    path.write_text(textwrap.dedent(DRIVER_FILE).replace("n, 20)", "n, 12)")    # wrong rounds
                    .replace("cra_priority=1", "cra_priority=9000"))
    with caplog.at_level(logging.INFO, logger="crypto_api"):
        name = capi.insmod(str(path))
    try:
        assert ('alg: skcipher: xchacha20-tmplug encryption test failed (wrong result) '
                'on test vector 0, cfg="in-place"') in caplog.text
        assert record(proc_records, "xchacha20-tmplug")["selftest"] == "unknown"
        with capi.crypto_alloc_skcipher("xchacha20") as tfm:
            assert tfm.driver_name != "xchacha20-tmplug"
    finally:
        capi.rmmod(name)
