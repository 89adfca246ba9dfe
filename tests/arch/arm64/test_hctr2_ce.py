"""HCTR2's arm64 drivers on the emulated machine: ``polyval-ce`` (PMULL,
arch/arm64/polyval_ce_glue.py) and ``xctr-aes-ce`` (AES-CE,
arch/arm64/aes_ce_blk_glue.py), and ``hctr2(aes)`` composed over them.

Each probe boots a fresh interpreter as arm64 on a CPU model (``max``,
``cortex-a53``, and one without the crypto extensions).  Checked:
registration and /proc/crypto, module dependencies and refusals, what
``polyval``, ``xctr(aes)`` and ``hctr2(aes)`` resolve to (the kernel's
6.0-6.18 priority formula), the official vectors, the NEON sections of each
glue (the kernel's rules), random keys, lengths, pieces and scatterlist
layouts against an independent implementation (tests/hctr2_ref.py, with
``cryptography``'s AES), and the self-test manager at level full.
"""

import json
import os
import pathlib
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from arm64_emulation import arm64_env, require_emulation, run_python
from drawn_bytes import exactly
from hctr2_ref import hctr2 as ref_hctr2, polyval as ref_polyval, xctr as ref_xctr
from sglayout import layouts

pytestmark = pytest.mark.emulation

NO_CE_CPU = "cortex-a53,neon=off,vfp=off"      # HWCAP: fp asimd crc32 cpuid (no aes, no pmull)
CPU_MODELS = ("max", "cortex-a53")
HCTR2_CE = "hctr2_base(xctr-aes-ce,polyval-ce)"
TESTS_DIR = str(pathlib.Path(__file__).resolve().parents[2])

PROBE = r'''
import json
import crypto_api as capi
from crypto_api.testmgr.vectors import load_json
from emulated_cases import skcipher_sections, vector_failures

out = {"load": {k: getattr(v, "errno", 0) for k, v in capi.load_all().items()
                if k in ("polyval_ce", "aes_ce_blk", "aes_ce_cipher")}}
out["resolve"] = {}
for name, alloc in (("polyval", capi.crypto_alloc_shash), ("xctr(aes)", capi.crypto_alloc_skcipher),
                    ("hctr2(aes)", capi.crypto_alloc_skcipher)):
    with alloc(name) as t:
        out["resolve"][name] = [t.driver_name, t.alg.cra_priority]
recs = {}
for block in capi.proc_crypto().strip().split("\n\n"):
    rec = dict((k.strip(), v.strip()) for k, v in (l.split(":", 1) for l in block.splitlines()))
    recs[rec["driver"]] = rec
out["proc"] = recs
out["loaded"] = sorted(capi.loaded_modules())


def trace(fn):
    with capi.fpu_trace() as tr:
        fn()
    assert all(s.closed for s in tr.sections)
    return [[s.unit, s.nbytes] for s in tr.sections]


if "polyval-ce" in recs:
    bad = []
    pv = capi.crypto_alloc_shash("polyval-ce")
    for v in load_json("polyval.json")["vectors"]:
        pv.setkey(bytes.fromhex(v["key"]))
        if pv.digest(bytes.fromhex(v["message"])).hex() != v["digest"]:
            bad.append(v["id"])
    out["polyval_vectors"] = bad
    pv.setkey(bytes(range(16)))
    d = pv.desc()
    d.init()
    out["pv_update_5"] = trace(lambda: d.update(bytes(5)))
    out["pv_update_4200"] = trace(lambda: d.update(bytes(4200)))   # completes 11, 4096 + 80, buffers 13
    out["pv_final_partial"] = trace(d.final)
    out["pv_digest_32"] = trace(lambda: pv.digest(bytes(32)))
    with capi.simd_disabled():
        out["pv_nosimd"] = trace(lambda: pv.digest(bytes(10000)))

if "xctr-aes-ce" in recs:
    x = capi.crypto_alloc_skcipher("xctr-aes-ce")
    out["xctr_vectors"] = vector_failures(x, "aes-xctr.json")
    out["x_setkey"] = trace(lambda: x.setkey(bytes(32)))

    out["x_steps"] = {"short_first_entry": skcipher_sections(x, [(0, 10), (5, 30)]),
                      "two_pages_and_a_tail": skcipher_sections(x, [(0, 5000), (3, 3)])}
    with capi.simd_disabled():
        out["x_nosimd"] = skcipher_sections(x, [(0, 100)])

out["hctr2_vectors"] = vector_failures(capi.crypto_alloc_skcipher("hctr2(aes)"), "aes-hctr2.json", "kernel_iv")
print(json.dumps(out))
'''


def _env(cpu, extra=None):
    # the child imports tests/sglayout.py; no empty PYTHONPATH entry (see test_chacha20poly1305_neon)
    return arm64_env(cpu, dict({"PYTHONPATH": os.pathsep.join(
        [TESTS_DIR] + [p for p in [os.environ.get("PYTHONPATH")] if p])}, **(extra or {})))


@pytest.fixture(scope="module", params=CPU_MODELS + (NO_CE_CPU,))
def probe(request):
    require_emulation()
    r = run_python(PROBE, env=_env(request.param))
    return request.param, json.loads(r.stdout.strip().splitlines()[-1])


def test_registration_and_proc_records(probe):
    cpu, out = probe
    proc = out["proc"]
    if cpu == NO_CE_CPU:
        # module_cpu_feature_match(PMULL) / (AES): ENODEV, nothing registered
        assert out["load"]["polyval_ce"] == 19 and out["load"]["aes_ce_blk"] == 19
        assert "polyval-ce" not in proc and "xctr-aes-ce" not in proc
        return
    assert out["load"] == {"polyval_ce": 0, "aes_ce_blk": 0, "aes_ce_cipher": 0}
    pv, x = proc["polyval-ce"], proc["xctr-aes-ce"]
    assert (pv["name"], pv["priority"], pv["module"], pv["type"], pv["blocksize"], pv["digestsize"]) == \
        ("polyval", "200", "polyval_ce", "shash", "16", "16")
    assert (x["name"], x["priority"], x["module"], x["type"], x["blocksize"], x["ivsize"], x["chunksize"],
            x["min keysize"], x["max keysize"], x["internal"]) == \
        ("xctr(aes)", "300", "aes_ce_blk", "skcipher", "1", "16", "16", "16", "32", "no")
    assert pv["selftest"] == x["selftest"] == "passed"
    # aes-ce-blk uses aes-ce's exported key expansion: loading it loads aes_ce_cipher
    assert "aes_ce_cipher" in out["loaded"]


def test_resolution_follows_the_kernel_priority_formula(probe):
    cpu, out = probe
    res = out["resolve"]
    if cpu == NO_CE_CPU:
        assert res["polyval"] == ["polyval-generic", 100]
        # aes-neon-blk's xctr-aes-neon (200) answers before any template instance
        # (tests/arch/arm64/test_xctr_neon.py)
        assert res["xctr(aes)"] == ["xctr-aes-neon", 200]
        # (2·200 + 4·100 + 200) // 7
        assert res["hctr2(aes)"] == ["hctr2_base(xctr-aes-neon,polyval-generic)", 142]
    else:
        assert res["polyval"] == ["polyval-ce", 200]
        assert res["xctr(aes)"] == ["xctr-aes-ce", 300]
        # crypto/hctr2.c 6.0-6.18: (2·300 + 4·200 + 250) // 7
        assert res["hctr2(aes)"] == [HCTR2_CE, 235]
        assert out["proc"][HCTR2_CE]["selftest"] == "passed"


def test_official_vectors(probe):
    cpu, out = probe
    assert out["hctr2_vectors"] == []
    if cpu != NO_CE_CPU:
        assert out["polyval_vectors"] == [] and out["xctr_vectors"] == []


def test_polyval_sections(probe):
    """The kernel's glue: a completed buffered block is one multiply in a
    section of its own, whole blocks go in sections of at most 4 KiB, a
    trailing partial block is only buffered, final multiplies a partial last
    block in one more section; no section without usable SIMD."""
    cpu, out = probe
    if cpu == NO_CE_CPU:
        return
    assert out["pv_update_5"] == []
    assert out["pv_update_4200"] == [["neon", 16], ["neon", 4096], ["neon", 80]]
    assert out["pv_final_partial"] == [["neon", 16]]
    assert out["pv_digest_32"] == [["neon", 32]]
    assert out["pv_nosimd"] == []


def test_xctr_sections(probe):
    """One NEON section per walk step, a step shorter than the rest rounded
    down to whole blocks; the kernel's mode glue has no SIMD fallback, so the
    sections are there without usable SIMD too; setkey is aes-ce's."""
    cpu, out = probe
    if cpu == NO_CE_CPU:
        return
    assert out["x_setkey"] == [["neon", 0]]
    steps = out["x_steps"]
    assert steps["short_first_entry"] == [["neon", 16], ["neon", 24]]     # the walk bounces 10 + 6
    assert steps["two_pages_and_a_tail"] == [["neon", 4096], ["neon", 896], ["neon", 11]]
    assert out["x_nosimd"] == [["neon", 100]]


CASES = r'''
import json, sys
import crypto_api as capi
from emulated_cases import skcipher_case, split_digest

capi.load_all()
pv, pv_generic = capi.crypto_alloc_shash("polyval-ce"), capi.crypto_alloc_shash("polyval-generic")
tfms = {"xctr": capi.crypto_alloc_skcipher("xctr-aes-ce"), "hctr2": capi.crypto_alloc_skcipher("hctr2(aes)")}
generic = {"xctr": capi.crypto_alloc_skcipher("xctr(aes-generic)"),
           "hctr2": capi.crypto_alloc_skcipher("hctr2_base(xctr(aes-generic),polyval-generic)")}
res = []
for c in json.loads(sys.stdin.read()):
    key, iv, data = (bytes.fromhex(c[k]) for k in ("key", "iv", "data"))
    if c["alg"] == "polyval":
        pv_generic.setkey(key)
        res.append([0, split_digest(pv, {"key": c["key"], "inp": c["data"], "cuts": c["cuts"]}),
                    pv_generic.digest(data).hex(), True, True])
        continue
    res.append(skcipher_case(tfms[c["alg"]], generic[c["alg"]], c))
print(json.dumps([tfms["hctr2"].driver_name, res]))
'''

_LENGTHS = st.one_of(st.integers(0, 600), st.integers(4000, 4400), st.integers(8180, 8200))


@st.composite
def cases(draw):
    """One random case of each driver, with its expected result."""
    key = draw(st.sampled_from([16, 24, 32]).flatmap(exactly))
    n = draw(_LENGTHS)
    data = draw(exactly(n))
    pkey = draw(exactly(16))
    cuts = sorted(draw(st.lists(st.integers(0, n), max_size=4)))
    out = [{"alg": "polyval", "key": pkey.hex(), "iv": "", "data": data.hex(), "cuts": cuts,
            "want": ref_polyval(pkey, data + bytes(-n % 16)).hex()}]
    iv = draw(exactly(16))
    out.append({"alg": "xctr", "key": key.hex(), "iv": iv.hex(), "data": data.hex(), "encrypt": True,
                "want": ref_xctr(key, iv, data).hex(),
                "src": draw(layouts(n)), "dst": draw(layouts(n))})
    if n >= 16:
        tweak = draw(exactly(32))
        encrypt = draw(st.booleans())
        out.append({"alg": "hctr2", "key": key.hex(), "iv": tweak.hex(), "data": data.hex(),
                    "encrypt": encrypt, "want": ref_hctr2(key, tweak, data, encrypt).hex(),
                    "src": draw(layouts(n)), "dst": draw(layouts(n))})
    return out


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(batch=st.lists(cases(), min_size=3, max_size=6))
def test_random_inputs_pieces_and_layouts_match_the_reference(batch):
    """polyval-ce over random pieces, xctr-aes-ce and hctr2(aes) over random
    scatterlist layouts (misaligned entries, page crossings, partial blocks):
    the bytes of tests/hctr2_ref.py, which the generic drivers give too in
    the same emulated process; nothing outside dst's entries written, src
    and the IV untouched."""
    require_emulation()
    flat = [c for group in batch for c in group]
    r = subprocess.run([sys.executable, "-c", CASES], input=json.dumps(flat), env=_env("max"),
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    driver, got = json.loads(r.stdout.strip().splitlines()[-1])
    assert driver == HCTR2_CE
    for c, (rc, result, generic, around_ok, src_ok) in zip(flat, got):
        assert (c["alg"], rc, result, generic, around_ok, src_ok) == \
            (c["alg"], 0, c["want"], c["want"], True, True)


SELFTEST = r'''
import json
import crypto_api as capi
from crypto_api import testmgr

capi.load_all()
testmgr.set_level("full")
print(json.dumps({drv: testmgr.alg_test(drv, name) for drv, name in
                  (("polyval-ce", "polyval"), ("xctr-aes-ce", "xctr(aes)"), (HCTR2, "hctr2(aes)"))}))
'''


@pytest.mark.parametrize("cpu", CPU_MODELS)
def test_full_selftests(cpu):
    """The self-test manager at level full (vectors under random
    configurations, nosimd included, and fuzzing against the generic
    drivers) passes for both drivers and the composed hctr2 instance."""
    require_emulation()
    r = run_python(SELFTEST.replace("HCTR2", repr(HCTR2_CE)), cpu=cpu)
    assert json.loads(r.stdout.strip().splitlines()[-1]) == {"polyval-ce": 0, "xctr-aes-ce": 0, HCTR2_CE: 0}


def test_the_cores_need_their_features():
    """The PMULL and AES-CE cores are refused (ENODEV, naming the feature) on a
    CPU model without the crypto extensions."""
    require_emulation()
    from crypto_api.errors import CryptoError
    from crypto_api.machine import backend
    for core, feature in (("polyval_ce", "pmull"), ("aes_ce_xctr", "aes")):
        with pytest.raises(CryptoError, match=f"lacks '{feature}'") as e:
            backend.load("arm64", core, cpu=NO_CE_CPU)
        assert e.value.errno == 19
