"""sha512-ce and sha384-ce (arch/arm64/sha512_ce_glue.py) on an emulated
arm64 machine, each probe a fresh interpreter booted as arm64: registration,
/proc/crypto and resolution (ENODEV on a CPU model without HWCAP sha512, the
generic drivers answering); the NEON section of each update, final and
finup, none when SIMD is unusable; agreement with hashlib over random
lengths and update splits; the self-test manager at level full.
"""

import hashlib
import json
import os
import pathlib
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from arm64_emulation import arm64_env, run_cli, run_python
from drawn_bytes import exactly

pytestmark = pytest.mark.emulation

TESTS_DIR = str(pathlib.Path(__file__).resolve().parents[2])
NAMES = ("sha384", "sha512")

PROBE = r'''
import json
import crypto_api as capi

out = {"load": getattr(capi.load_all().get("sha512_ce"), "errno", 0)}
recs = {}
for block in capi.proc_crypto().strip().split("\n\n"):
    rec = dict((k.strip(), v.strip()) for k, v in (l.split(":", 1) for l in block.splitlines()))
    recs[rec["driver"]] = rec
out["proc"] = {d: recs.get(d) for d in ("sha384-ce", "sha512-ce")}
out["resolve"] = {n: capi.crypto_alloc_shash(n).driver_name for n in ("sha384", "sha512")}


def trace(fn):
    with capi.fpu_trace() as tr:
        res = fn()
    return [res.hex() if isinstance(res, bytes) else None, [[s.unit, s.nbytes] for s in tr.sections]]


if out["load"] == 0:
    t = capi.crypto_alloc_shash("sha512-ce")
    d = t.desc()
    d.init()
    out["update_5"] = trace(lambda: d.update(bytes(5)))
    out["update_200"] = trace(lambda: d.update(bytes(200)))
    out["final"] = trace(lambda: d.final())                  # 205 bytes: 77 pending, one pad block
    out["digest_112"] = trace(lambda: t.digest(bytes(112)))  # 112 pending: two pad blocks
    d.init()
    d.update(bytes(10))
    out["finup"] = trace(lambda: d.finup(bytes(20)))
    with capi.simd_disabled():
        out["nosimd"] = trace(lambda: t.digest(bytes(300)))
print(json.dumps(out))
'''


def _probe(cpu):
    from arm64_emulation import require_emulation
    require_emulation()
    return json.loads(run_python(PROBE, cpu=cpu).stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def probe():
    return _probe("max")


def test_registration_and_resolution(probe):
    assert probe["load"] == 0
    for name in NAMES:
        rec = probe["proc"][f"{name}-ce"]
        assert (rec["name"], rec["module"], rec["priority"], rec["type"], rec["blocksize"], rec["digestsize"],
                rec["selftest"]) == (name, "sha512_ce", "200", "shash", "128",
                                     "48" if name == "sha384" else "64", "passed")
    assert probe["resolve"] == {"sha384": "sha384-ce", "sha512": "sha512-ce"}


def test_without_the_sha512_feature_enodev_and_generic_answers():
    out = _probe("cortex-a53")          # ARMv8.0: AES/PMULL/SHA-2, no SHA-512
    assert out["load"] == 19
    assert out["proc"] == {"sha384-ce": None, "sha512-ce": None}
    assert out["resolve"] == {"sha384": "sha384-generic", "sha512": "sha512-generic"}


def test_neon_sections(probe):
    assert probe["update_5"] == [None, [["neon", 5]]]
    assert probe["update_200"] == [None, [["neon", 200]]]
    assert probe["final"] == [hashlib.sha512(bytes(205)).hexdigest(), [["neon", 128]]]
    assert probe["digest_112"] == [hashlib.sha512(bytes(112)).hexdigest(), [["neon", 112 + 256]]]
    assert probe["finup"] == [hashlib.sha512(bytes(30)).hexdigest(), [["neon", 20 + 128]]]
    assert probe["nosimd"] == [hashlib.sha512(bytes(300)).hexdigest(), []]


CASES = r'''
import json, sys
import crypto_api as capi

tfms = {n: capi.crypto_alloc_shash(n + "-ce") for n in ("sha384", "sha512")}
res = []
for c in json.loads(sys.stdin.read()):
    data = bytes.fromhex(c["data"])
    d = tfms[c["name"]].desc()
    d.init()
    pos = 0
    for n in c["cuts"]:
        d.update(data[pos:n])
        pos = n
    res.append([d.finup(data[pos:]).hex(), tfms[c["name"]].digest(data).hex()])
print(json.dumps(res))
'''


@st.composite
def cases(draw):
    data = draw(st.one_of(st.integers(0, 300), st.integers(1000, 1200)).flatmap(exactly))
    return {"name": draw(st.sampled_from(NAMES)), "data": data.hex(),
            "cuts": sorted(draw(st.lists(st.integers(0, len(data)), max_size=4)))}


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(batch=st.lists(cases(), min_size=6, max_size=12))
def test_matches_hashlib(batch):
    from arm64_emulation import require_emulation
    require_emulation()
    env = arm64_env("max", {"PYTHONPATH": os.pathsep.join(
        [TESTS_DIR] + [p for p in [os.environ.get("PYTHONPATH")] if p]), "CRYPTO_API_SELFTESTS": "off"})
    r = subprocess.run([sys.executable, "-c", CASES], input=json.dumps(batch), env=env, capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stderr
    for c, got in zip(batch, json.loads(r.stdout.strip().splitlines()[-1])):
        want = hashlib.new(c["name"], bytes.fromhex(c["data"])).hexdigest()
        assert got == [want, want]


def test_full_self_tests():
    """Vectors (nosimd configurations included), random configurations and
    fuzzing against the generic drivers."""
    r = run_cli("--arch", "arm64", "--cpu", "max", "selftest", "--full", "--iterations", "20",
                "sha384-ce", "sha512-ce")
    assert r.returncode == 0, r.stdout + r.stderr
    for name in NAMES:
        assert f"alg: self-tests for {name}-ce ({name}) passed" in r.stdout
    assert "2 drivers: 2 passed, 0 failed" in r.stdout
