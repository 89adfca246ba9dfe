"""ghash-neon (arch/arm64/ghash_ce_glue.py over the ghash_neon core: GHASH
from 8-bit polynomial multiplies, vmull_p8) on an emulated arm64 machine,
each probe a fresh interpreter booted as arm64.

The CPU without PMULL is qemu's ``cortex-a53,neon=off,vfp=off``: qemu-user
still reports (and runs) ASIMD there but none of the Crypto Extensions, so
the 64-bit PMULL of ghash-ce would be an illegal instruction while the 8-bit
one is plain ASIMD.

Checked: what module ghash_ce registers on that CPU (ghash-neon alone, 150,
and ``ghash`` and ``gcm(aes)`` resolving to it) and on one with PMULL (the
composite registry keeps v5.0's ghash-neon beside ghash-ce); the version
table's priority (100 in 5.4) and rule (none beside PMULL from 5.9 on); the
NEON sections (none for an update that completes no block, one per 64 KiB
of an update, one for a final with a partial block, none without usable
SIMD); agreement with the host's ghash-generic over random keys, lengths
and update splits; the self-test manager at level full (the testmgr ghash
vectors, fuzzing against ghash-generic).
"""

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import crypto_api as capi
from arm64_emulation import list_records, run_cases, run_cli, run_json
from drawn_bytes import exactly

pytestmark = pytest.mark.emulation

NO_PMULL_CPU = "cortex-a53,neon=off,vfp=off"      # HWCAP: fp asimd crc32 cpuid, no aes/pmull
KEY = bytes(range(100, 116))

PROBE = r'''
import json
import crypto_api as capi
from emulated_cases import trace
from crypto_api import machine

out = {"load": getattr(capi.load_all().get("ghash_ce"), "errno", 0),
       "features": [f for f in ("asimd", "pmull") if machine.current_machine().has(f)],
       "proc": capi.proc_crypto()}
out["ghash"] = capi.crypto_alloc_shash("ghash").driver_name
out["gcm"] = capi.crypto_alloc_aead("gcm(aes)").driver_name


if "ghash-neon" in out["proc"]:
    g = capi.crypto_alloc_shash("ghash-neon")
    g.setkey(bytes(range(100, 116)))
    d = g.desc()
    d.init()
    out["upd_5"] = trace(lambda: d.update(bytes(5)))[1]              # no block completed
    out["upd_40"] = trace(lambda: d.update(bytes(40)))[1]            # 45 bytes: one section
    out["upd_big"] = trace(lambda: d.update(bytes(140000)))[1]       # 64 KiB sections
    out["final"] = trace(lambda: d.final().hex())                    # pending bytes: a section
    d.init()
    d.update(bytes(32))
    out["final_whole"] = trace(lambda: d.final().hex())[1]          # nothing pending: none
    with capi.simd_disabled():
        out["nosimd"] = trace(lambda: g.digest(bytes(1000)).hex())
    out["digest_1000"] = g.digest(bytes(1000)).hex()
print(json.dumps(out))
'''


def _probe(cpu, kernel=None, selftests="fast"):
    from arm64_emulation import require_emulation
    require_emulation()
    extra = {"CRYPTO_API_SELFTESTS": selftests}
    if kernel:
        extra["CRYPTO_API_KERNEL"] = kernel
    out = run_json(PROBE, cpu, extra)
    recs = list_records(out["proc"])
    out["proc"] = {d: recs.get(d) for d in ("ghash-neon", "ghash-ce", "gcm-aes-ce", "rfc4106-gcm-aes-ce")}
    return out


@pytest.fixture(scope="module")
def no_pmull():
    return _probe(NO_PMULL_CPU)


def _generic(data, key=KEY):
    g = capi.crypto_alloc_shash("ghash-generic")
    g.setkey(key)
    return g.digest(data).hex()


def test_alone_without_pmull(no_pmull):
    out = no_pmull
    assert out["features"] == ["asimd"] and out["load"] == 0
    rec = out["proc"]["ghash-neon"]
    assert (rec["name"], rec["module"], rec["priority"], rec["type"], rec["blocksize"], rec["digestsize"],
            rec["selftest"]) == ("ghash", "ghash_ce", "150", "shash", "16", "16", "passed")
    assert out["proc"]["ghash-ce"] is None and out["proc"]["gcm-aes-ce"] is None
    assert out["proc"]["rfc4106-gcm-aes-ce"] is None
    assert out["ghash"] == "ghash-neon"
    # gcm's ctr(aes): aes-neon-blk's ctr-aes-neon, loaded by its alias before a template instance is made
    assert out["gcm"] == "gcm_base(ctr-aes-neon,ghash-neon)"


def test_beside_ghash_ce_with_pmull_in_the_composite_registry():
    out = _probe("max", selftests="off")
    assert out["features"] == ["asimd", "pmull"]
    assert out["proc"]["ghash-neon"]["priority"] == "150" and out["proc"]["ghash-ce"]["priority"] == "200"
    assert out["ghash"] == "ghash-ce"
    assert out["digest_1000"] == _generic(bytes(1000))


@pytest.mark.parametrize("kernel, cpu, priority", [
    ("5.4", "max", "100"),             # v5.0-5.5: beside ghash-ce, priority 100
    ("6.1", "max", None),              # 5.9+: the module registers the AEADs only
    ("6.1", NO_PMULL_CPU, "150"),
])
def test_per_kernel_version(kernel, cpu, priority):
    out = _probe(cpu, kernel, selftests="off")
    rec = out["proc"]["ghash-neon"]
    assert (rec and rec["priority"]) == priority
    if priority is None:
        assert out["ghash"] == "ghash-generic"


def test_neon_sections(no_pmull):
    out = no_pmull
    assert out["upd_5"] == [] and out["upd_40"] == [["neon", 40]]
    assert out["upd_big"] == [["neon", 65536], ["neon", 65536], ["neon", 140000 - 2 * 65536]]
    assert out["final"] == [_generic(bytes(140045)), [["neon", 16]]]
    assert out["final_whole"] == []
    assert out["nosimd"] == [_generic(bytes(1000)), []]


CASES = r'''
import json, sys
import crypto_api as capi
from emulated_cases import split_digest

capi.request_module("crypto-ghash")     # no device-table match without PMULL: loaded by its alias
g = capi.crypto_alloc_shash("ghash-neon")
print(json.dumps([split_digest(g, c) for c in json.loads(sys.stdin.read())]))
'''


@st.composite
def ghash_cases(draw):
    key = draw(exactly(16))
    data = draw(st.one_of(st.integers(0, 80), st.integers(250, 700)).flatmap(exactly))
    cuts = sorted(draw(st.lists(st.integers(0, len(data)), max_size=4)))
    return {"key": key.hex(), "inp": data.hex(), "cuts": cuts, "want": _generic(data, key)}


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(batch=st.lists(ghash_cases(), min_size=8, max_size=16))
def test_matches_ghash_generic(batch):
    """Random keys, lengths and update splits, on the CPU without PMULL:
    the host's ghash-generic."""
    from arm64_emulation import require_emulation
    require_emulation()
    got = run_cases(CASES, batch, NO_PMULL_CPU)
    assert got == [c["want"] for c in batch]


def test_full_self_tests():
    r = run_cli("--arch", "arm64", "--cpu", NO_PMULL_CPU, "selftest", "--full", "--iterations", "20",
                "ghash-neon")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "1 drivers: 1 passed, 0 failed" in r.stdout
