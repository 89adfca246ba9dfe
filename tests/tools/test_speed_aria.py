"""The speed tool's ARIA parts (tools/speed_aria.py): the S-box-pinned
targets compute real ARIA (checked against tests/aria_ref.py) with the code
they name, the openssl reference is ``-evp aria-256-ctr`` when ``ctr(aria)``
is measured, and a run with both S-box pins and the generic driver reports
them all (never asserting a timing)."""

import json

import pytest

import aria_ref
import crypto_api as capi
from crypto_api.__main__ import main
from crypto_api.arch.x86.cpufeature import IS_X86, boot_cpu_has
from crypto_api.tools.speed_aria import SboxTarget, is_sbox_target, openssl_choice
from crypto_api.tools.speed_targets import pattern

HAS_AVX = IS_X86 and boot_cpu_has("avx") and boot_cpu_has("aes") and boot_cpu_has("xsave_ymm")
FAST = ["--time-budget", "0.05", "--repeat", "2", "--no-slope", "--cpu-mhz", "1000"]


@pytest.fixture(autouse=True)
def _modules_loaded():
    capi.request_module("aria")


def test_openssl_choice():
    assert openssl_choice(["ctr(aria)", "ecb(aria)"]) == {"evp": "aria-256-ctr", "relates": {"ctr(aria)": "same"}}
    assert openssl_choice(["ecb(aria)"]) == {"evp": "aria-256-ecb", "relates": {"ecb(aria)": "same"}}
    assert openssl_choice(["chacha20"]) == {}


def test_sbox_names():
    assert is_sbox_target("ctr-aria-avx@aesni") and is_sbox_target("ecb-aria-avx2@gfni")
    assert not is_sbox_target("ctr-aria-avx") and not is_sbox_target("ctr-aes-aesni@aesni")


def test_openssl_gets_the_aria_evp(tmp_path):
    """The command line the tool gives openssl (a fake that records it): the
    ARIA EVP name and the run length it asks for.  Nothing is timed here."""
    from crypto_api.tools.speed_peers import openssl_speed
    log = tmp_path / "args"
    fake = tmp_path / "openssl"
    fake.write_text(f"""#!/bin/sh
if [ "$1" = version ]; then echo "OpenSSL 9.9.9 1 Jan 2099 (Library: x)"; exit 0; fi
echo "$@" >> {log}
echo "+H:64"
echo "+F:25:ARIA:64000"
""")
    fake.chmod(0o755)
    out = openssl_speed([64], binary=str(fake), **openssl_choice(["ctr(aria)"]))
    argv = log.read_text().split()
    # the run-length option is an argument handed to openssl, not a measured time
    run_length = ["-seconds", "1"]
    assert argv == ["speed", "-mr", "-evp", "aria-256-ctr", "-bytes", "64"] + run_length
    assert out["relates"] == {"ctr(aria)": "same"} and out["command"].startswith(
        "openssl speed -mr -evp aria-256-ctr")


@pytest.mark.skipif(not HAS_AVX, reason="CPU lacks AVX and AES-NI")
@pytest.mark.parametrize("name", ["ctr-aria-avx@aesni", "ctr-aria-avx2@aesni", "ecb-aria-avx@aesni",
                                  "ctr-aria-avx@gfni", "ecb-aria-avx2@gfni"])
def test_sbox_targets_compute_aria(name, monkeypatch):
    if name.endswith("@gfni") and not boot_cpu_has("gfni"):
        pytest.skip("CPU lacks GFNI")
    if "avx2" in name and not boot_cpu_has("avx2"):
        pytest.skip("CPU lacks AVX2")
    from crypto_api.arch.x86 import aria_glue
    called = []
    sbox = name.rsplit("@", 1)[1]
    real = aria_glue._direct_handle

    def spy(impl, aria, mode, level):       # records the S-box flag of each handle the path gets
        h = real(impl, aria, mode, level)
        called.append(bool(h.gfni))
        return h
    monkeypatch.setattr(aria_glue, "_direct_handle", spy)
    t = SboxTarget(name)
    called.clear()                          # the registered driver's own handles (its setkey)
    try:
        size = 64 * 16 + 48
        data = pattern(size, seed=size)
        out = t.op("encrypt", size)()
        if name.startswith("ctr"):
            assert out == aria_ref.ctr(t.key, t.iv, data)
        else:
            assert out == aria_ref.ecb(t.key, data)
        assert called and set(called) == {sbox == "gfni"}
    finally:
        t.free()


@pytest.mark.skipif(not HAS_AVX, reason="CPU lacks AVX and AES-NI")
def test_a_run_with_both_sboxes(capsys, tmp_path):
    path = tmp_path / "run.json"
    rc = main(["speed", *FAST, "--driver", "ctr(aria-generic)", "--driver", "ctr-aria-avx@aesni",
               "--sizes", "4K", "--json", str(path)])
    out, err = capsys.readouterr()
    assert rc == 0, err
    report = json.loads(path.read_text())
    assert [(t["name"], t["driver"]) for t in report["targets"]] == [
        ("ctr(aria-generic)", "ctr(aria-generic)"), ("ctr-aria-avx@aesni", "ctr-aria-avx (aesni S-boxes)")]
    assert all("samples_ns" in r for r in report["results"])
    assert "ctr-aria-avx@aesni: ctr-aria-avx (aesni S-boxes)" in out
