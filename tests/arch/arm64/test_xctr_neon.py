"""xctr-aes-neon on the emulated arm64 machine (arch/arm64/aes_neon_blk_glue.py,
table-lookup AES on plain NEON in arch/arm64/aes_neon_xctr.c).

Each probe boots a fresh interpreter as arm64 on a CPU model with the
crypto extensions (``max``) and one without (``cortex-a53`` with them off).
Checked: the /proc/crypto record (the kernel's name, driver, priority 200,
module aes_neon_blk, shape); the module loads on demand through the
``xctr(aes)`` alias; what ``xctr(aes)`` and ``hctr2(aes)`` resolve to (the
CE driver where the CPU has AES, else this one, with hctr2 composed over it
by the 6.0-6.18 priority formula), and per kernel version (none before
6.0, 6.19's formula); testmgr's aes_xctr vectors; the NEON
sections of the shared aes-glue walk; random keys, lengths and scatterlist
layouts against an independent XCTR (tests/hctr2_ref.py over
``cryptography``'s AES) and the xctr template over aes-generic in the same
process; the self-test manager at level full.
"""

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from arm64_emulation import require_emulation, run_json
from drawn_bytes import exactly
from hctr2_ref import xctr as ref_xctr
from sglayout import layouts

pytestmark = pytest.mark.emulation

NO_CE_CPU = "cortex-a53,neon=off,vfp=off"      # HWCAP: fp asimd crc32 cpuid (no aes, no pmull)
CPU_MODELS = ("max", NO_CE_CPU)
HCTR2_NEON = "hctr2_base(xctr-aes-neon,polyval-generic)"

PROBE = r'''
import json
import crypto_api as capi
from emulated_cases import skcipher_sections, trace, vector_failures

out = {"before": "aes_neon_blk" in capi.loaded_modules()}
with capi.crypto_alloc_skcipher("xctr(aes)") as t:
    out["xctr"] = [t.driver_name, t.alg.cra_priority]
out["after"] = "aes_neon_blk" in capi.loaded_modules()
with capi.crypto_alloc_skcipher("hctr2(aes)") as t:
    out["hctr2"] = [t.driver_name, t.alg.cra_priority]
capi.load_all()
recs = {}
for block in capi.proc_crypto().strip().split("\n\n"):
    rec = dict((k.strip(), v.strip()) for k, v in (l.split(":", 1) for l in block.splitlines()))
    recs[rec["driver"]] = rec
out["proc"] = recs.get("xctr-aes-neon")
x = capi.crypto_alloc_skcipher("xctr-aes-neon")
out["vectors"] = vector_failures(x, "aes-xctr.json")
try:
    x.setkey(bytes(20))
except capi.CryptoError as e:
    out["bad_key"] = [e.errno, str(e)]


out["setkey"] = trace(lambda: x.setkey(bytes(32)))[1]
out["steps"] = {"short_first_entry": skcipher_sections(x, [(0, 10), (5, 30)]),
                "two_pages_and_a_tail": skcipher_sections(x, [(0, 5000), (3, 3)])}
with capi.simd_disabled():
    out["nosimd"] = skcipher_sections(x, [(0, 100)])
print(json.dumps(out))
'''


@pytest.fixture(scope="module", params=CPU_MODELS)
def probe(request):
    require_emulation()
    return request.param, run_json(PROBE, request.param)


def test_proc_record(probe):
    _, out = probe
    x = out["proc"]
    assert (x["name"], x["priority"], x["module"], x["type"], x["blocksize"], x["ivsize"], x["chunksize"],
            x["min keysize"], x["max keysize"], x["internal"], x["selftest"]) == \
        ("xctr(aes)", "200", "aes_neon_blk", "skcipher", "1", "16", "16", "16", "32", "no", "passed")


def test_resolution_and_on_demand_loading(probe):
    """No CPU device table: nothing loads aes_neon_blk at boot; without the AES
    extension the lookup of xctr(aes) loads it by its alias and gets it."""
    cpu, out = probe
    assert out["before"] is False
    if cpu == NO_CE_CPU:
        assert out["after"] is True
        assert out["xctr"] == ["xctr-aes-neon", 200]
        # crypto/hctr2.c 6.0-6.18: (2·200 + 4·100 (polyval-generic) + 200 (aes-arm64)) // 7
        assert out["hctr2"] == [HCTR2_NEON, 142]
    else:
        assert out["xctr"] == ["xctr-aes-ce", 300]
        assert out["hctr2"] == ["hctr2_base(xctr-aes-ce,polyval-ce)", 235]


def test_testmgr_vectors_and_key_sizes(probe):
    _, out = probe
    assert out["vectors"] == []
    assert out["bad_key"] == [22, "[Errno 22] EINVAL: xctr-aes-neon: key is 20 bytes, expected 16, 24 or 32"]


def test_neon_sections(probe):
    """aes-glue.c's walk, shared with xctr-aes-ce: one NEON section per step,
    a step shorter than the rest rounded down to whole blocks, no fallback
    without usable SIMD; the library key expansion runs outside NEON."""
    _, out = probe
    assert out["setkey"] == []
    assert out["steps"]["short_first_entry"] == [["neon", 16], ["neon", 24]]
    assert out["steps"]["two_pages_and_a_tail"] == [["neon", 4096], ["neon", 896], ["neon", 11]]
    assert out["nosimd"] == [["neon", 100]]


CASES = r'''
import json, sys
import crypto_api as capi
from emulated_cases import skcipher_case

capi.load_all()
x, generic = capi.crypto_alloc_skcipher("xctr-aes-neon"), capi.crypto_alloc_skcipher("xctr(aes-generic)")
res = []
for c in json.loads(sys.stdin.read()):
    res.append(skcipher_case(x, generic, c))
print(json.dumps(res))
'''


@st.composite
def cases(draw):
    key = draw(st.sampled_from([16, 24, 32]).flatmap(exactly))
    n = draw(st.one_of(st.integers(0, 600), st.integers(4000, 4400)))
    data, iv = draw(exactly(n)), draw(exactly(16))
    return {"key": key.hex(), "iv": iv.hex(), "data": data.hex(), "encrypt": draw(st.booleans()),
            "want": ref_xctr(key, iv, data).hex(), "src": draw(layouts(n)), "dst": draw(layouts(n))}


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(batch=st.lists(cases(), min_size=4, max_size=8))
def test_random_inputs_and_layouts_match_the_reference_and_the_template(batch):
    """The bytes of the independent XCTR, which xctr(aes-generic) gives too in
    the same emulated process; nothing outside dst's entries written, src and
    the IV untouched."""
    require_emulation()
    for c, (rc, result, generic, around_ok, src_ok) in zip(batch, run_json(CASES, NO_CE_CPU, stdin=batch)):
        assert (rc, result, generic, around_ok, src_ok) == (0, c["want"], c["want"], True, True)


SELFTEST = r'''
import json
import crypto_api as capi
from crypto_api import testmgr

capi.load_all()
testmgr.set_level("full")
print(json.dumps({drv: testmgr.alg_test(drv, name) for drv, name in
                  (("xctr-aes-neon", "xctr(aes)"), (HCTR2, "hctr2(aes)"))}))
'''


def test_full_selftests_without_the_crypto_extensions():
    """The self-test manager at level full (vectors under random
    configurations, nosimd included, and fuzzing against the generic
    drivers) passes for xctr-aes-neon and hctr2 composed over it."""
    require_emulation()
    assert run_json(SELFTEST.replace("HCTR2", repr(HCTR2_NEON)), NO_CE_CPU) == \
        {"xctr-aes-neon": 0, HCTR2_NEON: 0}


VERSION = r'''
import json
import crypto_api as capi

got = {}
for name in ("xctr(aes)", "hctr2(aes)"):
    try:
        t = capi.crypto_alloc_skcipher(name)
        got[name] = [t.driver_name, t.alg.cra_priority]
    except capi.CryptoError as e:
        got[name] = -e.errno
print(json.dumps(got))
'''


def test_per_kernel_version_without_the_crypto_extensions():
    """xctr-aes-neon is a 6.0 driver: 5.10 has no xctr(aes) at all; 6.1 and
    6.19 resolve xctr(aes) to it and hctr2(aes) over it, by 6.1's formula
    (2·200 + 4·100 + 200) / 7 and 6.19's (2·200 + 200) / 3.  One process per
    version."""
    require_emulation()
    got = {v: run_json(VERSION, NO_CE_CPU, {"CRYPTO_API_KERNEL": v}) for v in ("5.10", "6.1", "6.19")}
    assert got == {"5.10": {"xctr(aes)": -2, "hctr2(aes)": -2},
                   "6.1": {"xctr(aes)": ["xctr-aes-neon", 200], "hctr2(aes)": [HCTR2_NEON, 142]},
                   "6.19": {"xctr(aes)": ["xctr-aes-neon", 200],
                            "hctr2(aes)": ["hctr2_base(xctr-aes-neon,polyval-lib)", 200]}}
