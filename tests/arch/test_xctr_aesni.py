"""xctr-aes-aesni (6.0's aesni-intel_glue.c: ``__xctr-aes-aesni``, priority
400, registered where AVX is usable, behind its SIMD wrapper): names, flags
and module, the google/hctr2 vectors, random inputs against XCTR written from
the HCTR2 paper (tests/hctr2_ref.py), the IV left unchanged, one FPU section
per request, the move to cryptd where SIMD is unusable, and what
``hctr2(aes)`` becomes on this CPU (6.0's x86 instance and priority)."""

import json
import os
import subprocess
import sys
import threading
from errno import EINPROGRESS

import pytest
from hypothesis import given, settings, strategies as st

import crypto_api as capi
from crypto_api.arch.x86.cpufeature import IS_X86, boot_cpu_has
from crypto_api.fpu import fpu_trace, simd_disabled
from crypto_api.testmgr.vectors import load_json
from hctr2_ref import hctr2 as ref_hctr2, xctr as ref_xctr
from simd_pair import assert_simd_pair

HAS_XCTR = IS_X86 and boot_cpu_has("aes") and boot_cpu_has("avx") and boot_cpu_has("xsave_ymm")
pytestmark = pytest.mark.skipif(not HAS_XCTR, reason="x86 with AES-NI and AVX only")

DRIVER = "xctr-aes-aesni"
INTERNAL = capi.CRYPTO_ALG_INTERNAL
ASYNC = capi.CRYPTO_ALG_ASYNC


def test_names_priorities_flags(proc_records):
    with capi.crypto_alloc_skcipher(DRIVER) as tfm:
        assert tfm.alg.cra_flags & ASYNC
        recs = {r["driver"]: r for r in proc_records()}
    fields = {"priority": "400", "blocksize": "1", "min keysize": "16", "max keysize": "32",
              "ivsize": "16", "chunksize": "16", "type": "skcipher"}
    assert_simd_pair(recs, DRIVER, "xctr(aes)", "aesni_intel", fields)


@pytest.mark.parametrize("vec", load_json("aes-xctr.json")["vectors"], ids=lambda v: v["id"])
def test_vectors(vec):
    k, iv, p, c = (bytes.fromhex(vec[f]) for f in ("key", "iv", "plaintext", "ciphertext"))
    with capi.crypto_alloc_skcipher(DRIVER) as t, \
            capi.crypto_alloc_skcipher("__" + DRIVER, INTERNAL, INTERNAL) as inner:
        for tfm in (t, inner):
            tfm.setkey(k)
            assert tfm.encrypt(p, iv) == c and tfm.decrypt(c, iv) == p


@settings(max_examples=40, deadline=None)
@given(key=st.sampled_from([16, 24, 32]).flatmap(lambda n: st.binary(min_size=n, max_size=n)),
       iv=st.binary(min_size=16, max_size=16), msg=st.binary(max_size=700), split=st.integers(0, 700))
def test_random_inputs_match_the_paper_and_leave_the_iv(key, iv, msg, split):
    with capi.crypto_alloc_skcipher(DRIVER) as t:
        t.setkey(key)
        want = ref_xctr(key, iv, msg)
        assert t.encrypt(msg, iv) == want
        cut = min(split, len(msg))
        a, b = bytearray(msg[:cut]), bytearray(msg[cut:])
        sgl = capi.sg_init_table(2)
        capi.sg_set_buf(sgl[0], a)
        capi.sg_set_buf(sgl[1], b)
        ivbuf = bytearray(iv)
        req = capi.skcipher_request_alloc(t)
        capi.skcipher_request_set_crypt(req, sgl, sgl, len(msg), ivbuf)
        assert capi.crypto_skcipher_encrypt(req) == 0
        assert bytes(a + b) == want and bytes(ivbuf) == iv


def test_one_fpu_section_per_request():
    with capi.crypto_alloc_skcipher(DRIVER) as t:
        t.setkey(bytes(32))
        with fpu_trace() as trace:
            t.encrypt(bytes(3 * 4096 + 5), bytes(16))
        assert trace.nbytes == [3 * 4096 + 5]


def test_the_wrapper_queues_to_cryptd_when_simd_is_unusable():
    with capi.crypto_alloc_skcipher(DRIVER) as t:
        t.setkey(bytes(range(32)))
        iv = bytes(range(16))
        want = ref_xctr(bytes(range(32)), iv, bytes(1000))
        seen, done = [], threading.Event()

        def callback(req, err):
            seen.append((err, threading.current_thread().name))
            done.set()
        buf = bytearray(1000)
        req = capi.skcipher_request_alloc(t)
        capi.skcipher_request_set_callback(req, 0, callback, None)
        capi.skcipher_request_set_crypt(req, capi.sg_init_one(buf), capi.sg_init_one(buf), 1000,
                                        bytearray(iv))
        with simd_disabled():
            assert capi.crypto_skcipher_encrypt(req) == -EINPROGRESS
        done.wait()
        (err, thread), = seen
        assert err == 0 and thread.startswith("cryptd/") and bytes(buf) == want


def test_hctr2_over_an_asynchronous_xctr_completes_through_its_callback():
    """hctr2(aes) spawns the best XCTR driver, in the composite registry a SIMD
    wrapper (asynchronous) as xctr-aes-aesni is: where SIMD is unusable the
    XCTR step goes to cryptd and the instance finishes in its callback."""
    key, tweak, msg = bytes(range(32)), bytes(range(32, 64)), bytes(range(200))
    with capi.crypto_alloc_skcipher("hctr2(aes)") as t:
        assert t.alg.cra_flags & ASYNC
        t.setkey(key)
        seen, done = [], threading.Event()

        def callback(req, err):
            seen.append(err)
            done.set()
        buf = bytearray(msg)
        req = capi.skcipher_request_alloc(t)
        capi.skcipher_request_set_callback(req, 0, callback, None)
        capi.skcipher_request_set_crypt(req, capi.sg_init_one(buf), capi.sg_init_one(buf), len(msg),
                                        bytearray(tweak))
        with simd_disabled():
            assert capi.crypto_skcipher_encrypt(req) == -EINPROGRESS
        done.wait()
        assert seen == [0] and bytes(buf) == ref_hctr2(key, tweak, msg)


def test_selftest_manager_full(selftest_level):
    selftest_level("full")
    assert capi.testmgr.alg_test(DRIVER, "xctr(aes)") == 0


PROBE = r"""
import json, crypto_api as capi
with capi.crypto_alloc_skcipher("xctr(aes)") as x, capi.crypto_alloc_skcipher("hctr2(aes)") as t:
    print(json.dumps([x.driver_name, t.driver_name, t.alg.cra_priority]))
"""


@pytest.mark.parametrize("mask, xctr, hctr2, prio", [
    ("", DRIVER, "hctr2_base(xctr-aes-aesni,polyval-clmulni)", (2 * 400 + 4 * 200 + 300) // 7),
    ("avx", "xctr(aes-aesni)", "hctr2_base(xctr(aes-aesni),polyval-clmulni)", (2 * 300 + 4 * 200 + 300) // 7),
])
def test_what_hctr2_gets(mask, xctr, hctr2, prio):
    """Under 6.12 (6.0-6.16: the one XCTR driver; 6.17+ has one per
    generation, tests/kernels/test_x86_modes_versions.py) xctr-aes-aesni is the
    best xctr(aes) and hctr2's; without AVX the template over aes-aesni."""
    if not boot_cpu_has("pclmulqdq"):
        pytest.skip("CPU lacks PCLMULQDQ")
    env = dict(os.environ, CRYPTO_API_CPU_MASK=mask, CRYPTO_API_SELFTESTS="off", CRYPTO_API_KERNEL="6.12")
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == [xctr, hctr2, prio]


@settings(max_examples=20, deadline=None)
@given(key=st.sampled_from([16, 24, 32]).flatmap(lambda n: st.binary(min_size=n, max_size=n)),
       iv=st.binary(min_size=16, max_size=16), msg=st.binary(max_size=600))
def test_the_xctr_offer_is_the_simd_code_only(key, iv, msg):
    """xctr-aes-aesni's XCTR C entry (through the SIMD wrapper's delegate):
    aesni_xctr_crypt where SIMD may run, nothing otherwise."""
    from crypto_api.cinterface import Kind, entries
    from xctr_entry import run_xctr_entry
    with capi.crypto_alloc_skcipher(DRIVER) as t:
        t.setkey(key)
        assert entries(t, Kind.XCTR, False) is None
        assert run_xctr_entry(entries(t, Kind.XCTR, True), msg, iv) == ref_xctr(key, iv, msg)
