"""polyval-clmulni (arch/x86/polyval_clmulni_glue.py over arch/x86/polyval_clmulni.c):
the kernel's name, priority and module, the official vectors, any key and
message in any pieces against POLYVAL through GHASH (tests/hctr2_ref.py) and
against polyval-generic, its FPU sections (at most 4 KiB each, none for the
generic fallback), the self-test manager's full tests, and what ``polyval``
and ``hctr2(aes)`` get with and without PCLMULQDQ."""

import json
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

import crypto_api as capi
from crypto_api.arch.x86.cpufeature import IS_X86, boot_cpu_has
from crypto_api.testmgr.vectors import load_json
from hctr2_ref import polyval as ref_polyval
from shash_pieces import digest_in_pieces

pytestmark = pytest.mark.skipif(not IS_X86 or not boot_cpu_has("pclmulqdq"), reason="x86 with PCLMULQDQ only")

DRIVER = "polyval-clmulni"


def test_name_priority_module(proc_records):
    with capi.crypto_alloc_shash(DRIVER):
        rec = {r["driver"]: r for r in proc_records()}[DRIVER]
    assert (rec["name"], rec["priority"], rec["module"], rec["type"]) == ("polyval", "200", "polyval_clmulni",
                                                                         "shash")
    assert (rec["blocksize"], rec["digestsize"]) == ("16", "16")


def test_vectors():
    with capi.crypto_alloc_shash(DRIVER) as h:
        for v in load_json("polyval.json")["vectors"]:
            h.setkey(bytes.fromhex(v["key"]))
            assert h.digest(bytes.fromhex(v["message"])).hex() == v["digest"], v["id"]


@settings(max_examples=40, deadline=None)
@given(key=st.binary(min_size=16, max_size=16), msg=st.binary(max_size=9000),
       cuts=st.lists(st.integers(0, 9000), max_size=4))
def test_any_message_in_any_pieces(key, msg, cuts):
    with capi.crypto_alloc_shash(DRIVER) as h, capi.crypto_alloc_shash("polyval-generic") as g:
        h.setkey(key)
        g.setkey(key)
        want = g.digest(msg)
        assert h.digest(msg) == want
        assert digest_in_pieces(h, msg, cuts) == want
        if len(msg) <= 512:
            assert want == ref_polyval(key, msg + bytes(-len(msg) % 16))


def test_sections_and_fallback():
    data = bytes(range(256)) * 40 + b"x"                 # 10241 bytes: 4096, 4096, 2049, then the tail
    with capi.crypto_alloc_shash(DRIVER) as h, capi.crypto_alloc_shash("polyval-generic") as g:
        h.setkey(bytes(range(16)))
        g.setkey(bytes(range(16)))
        want = g.digest(data)
        with capi.fpu_trace() as tr:
            assert h.digest(data) == want
        assert tr.nbytes == [4096, 4096, 2049, 16]
        assert all(s.closed for s in tr.sections)
        for ctx in (capi.simd_disabled, capi.interrupt_context):
            with capi.fpu_trace() as tr, ctx():
                assert h.digest(data) == want
            assert tr.sections == [], ctx


def test_selftest_manager_full(selftest_level):
    selftest_level("full")
    assert capi.testmgr.alg_test(DRIVER, "polyval") == 0


PROBE = r"""
import json, crypto_api as capi
with capi.crypto_alloc_shash("polyval") as h, capi.crypto_alloc_skcipher("hctr2(aes)") as t:
    print(json.dumps([h.driver_name, t.driver_name]))
"""


@pytest.mark.parametrize("mask, want", [("", "polyval-clmulni"), ("pclmulqdq", "polyval-generic")])
def test_polyval_and_hctr2_get_the_best_hash(mask, want):
    env = dict(os.environ, CRYPTO_API_CPU_MASK=mask, CRYPTO_API_SELFTESTS="off")
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True)
    best, hctr2 = json.loads(out.stdout.strip().splitlines()[-1])
    assert best == want
    assert hctr2.startswith("hctr2_base(") and hctr2.endswith(f",{want})")


FUNCTIONS = ("polyval_blocks_clmulni", "polyval_blocks_vpclmul_avx512")


@settings(max_examples=40, deadline=None)
@given(key=st.binary(min_size=16, max_size=16), acc=st.binary(min_size=16, max_size=16),
       nblocks=st.one_of(st.integers(0, 70), st.integers(250, 260)), data=st.data())
def test_both_block_functions_match_the_generic_one(key, acc, nblocks, data):
    """Runs of up to 16 blocks with one reduction each (any count, any
    accumulator), on each block function this CPU can run."""
    from crypto_api.algs._polyval_generic import ffi as gffi, lib as glib
    from crypto_api.arch.x86._polyval_clmulni import ffi, lib
    msg = data.draw(st.binary(min_size=16 * nblocks, max_size=16 * nblocks))
    k = gffi.new("struct polyval_key *")
    glib.polyval_setkey(k, key)

    def run(fn):
        a = gffi.new("uint64_t[2]")
        gffi.memmove(a, acc, 16)
        fn(ffi.cast("uint64_t *", a), ffi.cast("struct polyval_key *", k), msg, nblocks)
        return bytes(gffi.buffer(a))
    want = run(glib.polyval_blocks_generic)
    assert run(lib.polyval_blocks_clmulni) == want
    if all(boot_cpu_has(f) for f in ("vpclmulqdq", "avx512f", "avx512vl", "avx512bw", "xsave_zmm")):
        assert run(lib.polyval_blocks_vpclmul_avx512) == want


def test_the_block_function_follows_the_cpu():
    from crypto_api.arch.x86.cpufeature import masked_features
    from crypto_api.arch.x86.polyval_clmulni_glue import blocks_function
    assert blocks_function() in FUNCTIONS
    with masked_features("vpclmulqdq"):
        assert blocks_function() == "polyval_blocks_clmulni"
    with masked_features("avx512bw"):
        assert blocks_function() == "polyval_blocks_clmulni"


def test_the_polyval_offer_is_the_simd_code_only_where_simd_may_run():
    from crypto_api.algs.polyval_generic import GENERIC_BLOCKS
    from crypto_api.arch.x86._polyval_clmulni import ffi, lib
    from crypto_api.arch.x86.polyval_clmulni_glue import blocks_function
    from crypto_api.cinterface import Kind, entries
    with capi.crypto_alloc_shash(DRIVER) as h:
        h.setkey(bytes(range(16)))
        assert entries(h, Kind.POLYVAL, True).blocks == ffi.addressof(lib, blocks_function())
        assert entries(h, Kind.POLYVAL, False).blocks == GENERIC_BLOCKS
