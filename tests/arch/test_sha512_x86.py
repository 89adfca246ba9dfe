"""sha512/sha384-ssse3, -avx and -avx2 (arch/x86/sha512_ssse3_glue.py over
arch/x86/sha512_simd.c and sha512_avx2.c; their /proc/crypto records are
test_sha2_x86_records.py's): the FIPS 180-2 vectors of the self-test table,
every length from 0 to 3 blocks and then some in one piece and in two, any
message in any pieces against hashlib, the block functions against the
generic one for every block count up to 7 (odd counts: AVX2's lone last
block), the glue's FPU sections, the self-test manager's full tests (random
configurations and fuzzing against sha512-generic), and which driver
``sha512``, ``sha384`` and ``hmac(sha512)`` get on a CPU without the better
ones."""

import hashlib
import hmac
import json
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

import crypto_api as capi
from crypto_api import testmgr
from crypto_api.arch.x86.cpufeature import IS_X86, boot_cpu_has
from crypto_api.testmgr.vectors import load_json
from shash_pieces import digest_in_pieces

pytestmark = pytest.mark.skipif(not IS_X86 or not boot_cpu_has("ssse3"), reason="x86 with SSSE3 only")

AVX = boot_cpu_has("avx") and boot_cpu_has("xsave_ymm")
VARIANTS = [("ssse3", 150, True), ("avx", 160, AVX),
            ("avx2", 170, AVX and boot_cpu_has("avx2") and boot_cpu_has("bmi2"))]
PRESENT = [(s, p) for s, p, ok in VARIANTS if ok]
SUFFIXES = [s for s, _ in PRESENT]
NAMES = ("sha512", "sha384")


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_vectors(suffix):
    vectors = load_json("sha512.json")["vectors"]
    assert {v["kernel_alg"] for v in vectors} == set(NAMES)
    for v in vectors:
        with capi.crypto_alloc_shash(f"{v['kernel_alg']}-{suffix}") as h:
            assert h.digest(bytes.fromhex(v["message"])).hex() == v["digest"], v["id"]


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_every_length_whole_and_split(suffix):
    data = os.urandom(3 * 128 + 40)
    for name in NAMES:
        with capi.crypto_alloc_shash(f"{name}-{suffix}") as h:
            for n in range(len(data) + 1):
                msg = data[:n]
                want = hashlib.new(name, msg).digest()
                assert h.digest(msg) == want, n
                cut = (n * 7) % (n + 1)
                assert h.desc().init().update(msg[:cut]).finup(msg[cut:]) == want, (n, cut)


@pytest.mark.parametrize("suffix", SUFFIXES)
@settings(max_examples=40, deadline=None)
@given(msg=st.binary(max_size=3000), cuts=st.lists(st.integers(0, 3000), max_size=5),
       name=st.sampled_from(NAMES))
def test_any_message_in_any_pieces(suffix, msg, cuts, name):
    want = hashlib.new(name, msg).digest()
    with capi.crypto_alloc_shash(f"{name}-{suffix}") as h:
        assert h.digest(msg) == want
        assert digest_in_pieces(h, msg, cuts) == want


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_block_function_against_the_generic_one(suffix):
    from crypto_api.algs._sha512 import ffi, lib
    from crypto_api.arch.x86 import _sha512_x86 as x86
    fn = getattr(x86.lib, f"sha512_{suffix}_blocks")
    for nblocks in range(8):
        data = os.urandom(128 * nblocks)
        start = [int.from_bytes(os.urandom(8), "little") for _ in range(8)]
        want, got = ffi.new("uint64_t[8]", start), ffi.new("uint64_t[8]", start)
        lib.sha512_blocks_generic(want, data, nblocks)
        fn(got, data, nblocks)
        assert list(got) == list(want), nblocks


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_fpu_sections_as_the_glue_opens_them(suffix):
    data = bytes(range(256)) * 3
    with capi.crypto_alloc_shash(f"sha512-{suffix}") as h:
        desc = h.desc().init()
        with capi.fpu_trace() as tr:
            desc.update(data[:100])                 # no block completed: generic, no section
        assert tr.sections == []
        with capi.fpu_trace() as tr:
            desc.update(data[100:400])              # completes blocks: one section
        assert tr.nbytes == [300] and tr.sections[0].closed
        with capi.fpu_trace() as tr:
            out = desc.finup(data[400:])            # 368 bytes, then one final block
        assert tr.nbytes == [368 + 128] and tr.sections[0].closed
        assert out == hashlib.sha512(data).digest()


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_no_simd_runs_the_generic_code_on_the_same_state(suffix):
    data = bytes(range(251)) * 9
    with capi.crypto_alloc_shash(f"sha384-{suffix}") as h:
        for ctx in (capi.simd_disabled, capi.interrupt_context):
            with capi.fpu_trace() as tr, ctx():
                assert h.digest(data) == hashlib.sha384(data).digest()
            assert tr.sections == [], ctx
        desc = h.desc().init()
        with capi.simd_disabled():
            desc.update(data[:700])                 # the generic code's state ...
        assert desc.finup(data[700:]) == hashlib.sha384(data).digest()      # ... continued with SIMD


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_selftest_manager_full(suffix, selftest_level):
    selftest_level("full")
    saved = testmgr.get_fuzz_iterations(), testmgr.get_fuzz_seed()
    testmgr.set_fuzz_iterations(50)
    testmgr.set_fuzz_seed(29)
    try:
        for name in NAMES:
            assert testmgr.alg_test(f"{name}-{suffix}", name) == 0
    finally:
        testmgr.set_fuzz_iterations(saved[0])
        testmgr.set_fuzz_seed(saved[1])


def test_best_sha512_and_hmac():
    capi.crypto_alloc_shash("sha512-ssse3").free()         # the module loaded
    best = PRESENT[-1]
    for name in NAMES:
        with capi.crypto_alloc_shash(name) as h:
            assert (h.driver_name, h.alg.cra_priority) == (f"{name}-{best[0]}", best[1])
    # hmac over the best driver; which instance plain "hmac(sha512)" names in this process
    # depends on what earlier tests instantiated (an hmac(sha512-generic) built by driver name
    # answers it, as in the kernel), so that resolution is checked in a fresh process by
    # test_cpu_gating's unmasked case
    key, msg = os.urandom(40), os.urandom(300)
    with capi.crypto_alloc_shash(f"hmac(sha512-{best[0]})") as h:
        h.setkey(key)
        assert h.alg.cra_name == "hmac(sha512)" and h.alg.cra_priority == best[1]
        assert h.digest(msg) == hmac.digest(key, msg, "sha512")


PROBE = r"""
import json, crypto_api as capi
from crypto_api.errors import ENOENT
out = []
for name in ("sha512", "sha384", "hmac(sha512)"):
    with capi.crypto_alloc_shash(name) as h:
        out.append(h.driver_name)
try:
    capi.crypto_alloc_shash("sha512-avx2").free()
    out.append("allocated")
except capi.CryptoError as e:
    out.append("ENOENT" if e.errno == ENOENT else str(e))
print(json.dumps(out))
"""


@pytest.mark.parametrize("mask, want", [("", "avx2"), ("avx2", "avx"), ("bmi2", "avx"),
                                        ("xsave_ymm", "ssse3"), ("avx", "ssse3"),
                                        ("ssse3,avx", "generic")])
def test_cpu_gating(mask, want):
    """A CPU without AVX2 (or without BMI2) does not get sha512-avx2; one
    without any of the three gets the generic driver (the module: ENODEV)."""
    if not all(ok for _, _, ok in VARIANTS):
        pytest.skip("CPU lacks AVX2/BMI2")
    env = dict(os.environ, CRYPTO_API_CPU_MASK=mask, CRYPTO_API_SELFTESTS="off")
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True,
                         check=True)
    sha512, sha384, hmac512, avx2 = json.loads(out.stdout.strip().splitlines()[-1])
    assert (sha512, sha384, hmac512) == (f"sha512-{want}", f"sha384-{want}", f"hmac(sha512-{want})")
    assert avx2 == ("allocated" if want == "avx2" else "ENOENT")
