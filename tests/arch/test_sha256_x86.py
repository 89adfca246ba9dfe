"""sha256/sha224-ssse3, -avx and -avx2 (arch/x86/sha256_ssse3_glue.py over
arch/x86/sha256_simd.c; their /proc/crypto records are
test_sha2_x86_records.py's): FIPS 180-2 vectors, any message in any pieces
against hashlib, the self-test manager's full tests (random configurations
and fuzzing against sha256-generic), and which driver ``sha256`` and
essiv's hash get when the CPU lacks the better ones."""

import hashlib
import json
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

import crypto_api as capi
from crypto_api.arch.x86.cpufeature import IS_X86, boot_cpu_has
from crypto_api.testmgr.vectors import load_json
from shash_pieces import digest_in_pieces

pytestmark = pytest.mark.skipif(not IS_X86 or not boot_cpu_has("ssse3"), reason="x86 with SSSE3 only")

AVX = boot_cpu_has("avx") and boot_cpu_has("xsave_ymm")
VARIANTS = [("ssse3", 150, True), ("avx", 160, AVX),
            ("avx2", 170, AVX and boot_cpu_has("avx2") and boot_cpu_has("bmi2"))]
PRESENT = [(s, p) for s, p, ok in VARIANTS if ok]


@pytest.mark.parametrize("suffix,prio", PRESENT)
def test_vectors(suffix, prio):
    for v in load_json("sha256.json")["vectors"]:
        with capi.crypto_alloc_shash(f"{v['kernel_alg']}-{suffix}") as h:
            assert h.digest(bytes.fromhex(v["message"])).hex() == v["digest"], v["id"]


@pytest.mark.parametrize("suffix", [s for s, _ in PRESENT])
@settings(max_examples=40, deadline=None)
@given(msg=st.binary(max_size=2000), cuts=st.lists(st.integers(0, 2000), max_size=4),
       name=st.sampled_from(["sha224", "sha256"]))
def test_any_message_in_any_pieces(suffix, msg, cuts, name):
    want = hashlib.new(name, msg).digest()
    with capi.crypto_alloc_shash(f"{name}-{suffix}") as h:
        assert h.digest(msg) == want
        assert digest_in_pieces(h, msg, cuts) == want


@pytest.mark.parametrize("suffix", [s for s, _ in PRESENT])
def test_selftest_manager_full(suffix, selftest_level):
    selftest_level("full")
    for name in ("sha256", "sha224"):
        assert capi.testmgr.alg_test(f"{name}-{suffix}", name) == 0


def test_best_sha256():
    best = "ni" if boot_cpu_has("sha") else PRESENT[-1][0]
    with capi.crypto_alloc_shash("sha256") as h:
        assert h.driver_name == "sha256-" + best


PROBE = r"""
import json, crypto_api as capi
with capi.crypto_alloc_shash("sha256") as h:
    best = h.driver_name
with capi.crypto_alloc_skcipher("essiv(cbc(aes),sha256)") as t:
    essiv = t.driver_name
print(json.dumps([best, essiv]))
"""


@pytest.mark.parametrize("mask, want", [("sha", "sha256-avx2"), ("sha,avx2", "sha256-avx"),
                                        ("sha,avx", "sha256-ssse3")])
def test_essiv_gets_the_best_hash(mask, want):
    if not all(ok for _, _, ok in VARIANTS):
        pytest.skip("CPU lacks AVX2/BMI2")
    env = dict(os.environ, CRYPTO_API_CPU_MASK=mask, CRYPTO_API_SELFTESTS="off")
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True,
                         check=True)
    best, essiv = json.loads(out.stdout.strip().splitlines()[-1])
    assert best == want
    assert essiv.endswith(f",{want})") and essiv.startswith("essiv(")
