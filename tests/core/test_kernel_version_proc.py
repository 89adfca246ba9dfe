"""/proc/crypto as v5.0 shows it (crypto_api.kernel_version): the ecb and
ctr template instances are legacy blkciphers there (aead-modes reference §4
and §8: ``type : blkcipher``, ``geniv : <default>``, no async, chunksize or
walksize line); cbc, xts and the AES-NI drivers keep their skcipher records;
the default (5.2) records are the skcipher ones."""

import contextlib
import os
import subprocess
import sys

import pytest

import crypto_api as capi
from crypto_api.errors import EINVAL
from crypto_api.kernel_version import emulated_kernel, kernel_version, set_kernel_version

HEADER = ("name", "driver", "module", "priority", "refcnt", "selftest", "internal")


def records_of(proc_records, *drivers):
    recs = {r["driver"]: r for r in proc_records()}
    return [recs[d] for d in drivers]


@pytest.fixture
def instances():
    capi.load_all()             # first: a later better "aes" would drop aes-generic's instances
    tfms = [capi.crypto_alloc_skcipher(n) for n in
            ("ecb(aes-generic)", "ctr(aes-generic)", "cbc(aes-generic)", "xts(ecb(aes-generic))")]
    yield
    for t in tfms:
        t.free()


def test_v50_blkcipher_records(proc_records, instances):
    with emulated_kernel("5.0"):
        ecb, ctr = records_of(proc_records, "ecb(aes-generic)", "ctr(aes-generic)")
    # the reference's expected v5.0 records (§8), the header lines aside
    assert {k: v for k, v in ecb.items() if k not in HEADER} == {
        "type": "blkcipher", "blocksize": "16", "min keysize": "16", "max keysize": "32",
        "ivsize": "0", "geniv": "<default>"}
    assert {k: v for k, v in ctr.items() if k not in HEADER} == {
        "type": "blkcipher", "blocksize": "1", "min keysize": "16", "max keysize": "32",
        "ivsize": "16", "geniv": "<default>"}
    assert (ecb["name"], ecb["module"], ctr["name"], ctr["module"]) == ("ecb(aes)", "ecb", "ctr(aes)", "ctr")


def test_v50_keeps_skcipher_records_of_the_others(proc_records, instances):
    with capi.crypto_alloc_skcipher("xts-aes-aesni") if _has_aesni() else contextlib.nullcontext():
        with emulated_kernel("5.0"):
            recs = {r["driver"]: r for r in proc_records()}
    for d in ("cbc(aes-generic)", "xts(ecb(aes-generic))") + (("xts-aes-aesni",) if _has_aesni() else ()):
        assert recs[d]["type"] == "skcipher" and "geniv" not in recs[d], d
    if _has_aesni():
        assert recs["xts-aes-aesni"]["async"] == "yes" and recs["xts-aes-aesni"]["priority"] == "401"


def test_default_records_are_skciphers(proc_records, instances):
    assert kernel_version() == "5.2"
    ecb, ctr = records_of(proc_records, "ecb(aes-generic)", "ctr(aes-generic)")
    assert ecb["type"] == ctr["type"] == "skcipher"
    assert (ctr["chunksize"], ctr["walksize"], ctr["async"]) == ("16", "16", "no")


def test_unknown_version_refused():
    with pytest.raises(capi.CryptoError) as e:
        set_kernel_version("4.19")
    assert e.value.errno == EINVAL and "4.19" in str(e.value)
    assert kernel_version() == "5.2"


def test_environment_selects_the_version():
    code = ("import crypto_api as capi\n"
            "t = capi.crypto_alloc_skcipher('ctr(aes-generic)')\n"
            "b = [b for b in capi.proc_crypto().split('\\n\\n') if 'driver       : ctr(aes-generic)' in b]\n"
            "print(b[0])\n")
    env = dict(os.environ, CRYPTO_API_KERNEL_VERSION="5.0", CRYPTO_API_SELFTESTS="off")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout
    assert "type         : blkcipher\n" in out and "geniv        : <default>" in out


def _has_aesni():
    from crypto_api.arch.x86.cpufeature import boot_cpu_has
    return boot_cpu_has("aes")
