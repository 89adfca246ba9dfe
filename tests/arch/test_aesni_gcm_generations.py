"""The AES-NI GCM generations (arch/x86/aesni_gcm_generations.py): each
driver pair on its own core, in the form and under the names each kernel
version had.

Checked: every generation this CPU runs against the kernel's GCM and RFC
4106 vectors, the self-test manager at the full level (fuzzing against the
generic gcm_base) and cryptography's AESGCM over random keys, lengths, AD
and tags, each on the request and the one-call path; each driver's core
(its context's form code); per version, in a fresh process: the names,
priorities, flags and internal twins (v5.0's ``__driver-*``, 5.4-6.15's
``__<driver>`` under the SIMD wrapper, 6.16+'s synchronous drivers with no
twin), the first answer for ``gcm(aes)`` on CPUs missing AVX-512, VAES or
AVX, and 6.16+'s synchronous run where SIMD is unusable (no cryptd).
"""
import hashlib
import json
import os
import subprocess
import sys

import pytest
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from hypothesis import HealthCheck, given, settings, strategies as st

import crypto_api as capi
from crypto_api.arch.x86.cpufeature import boot_cpu_has
from crypto_api.testmgr.vectors import load_json
from aead_selftests import full_selftests
from aead_vectors import check_vector
from drawn_bytes import exactly

pytestmark = pytest.mark.skipif(not (boot_cpu_has("aes") and boot_cpu_has("pclmulqdq")),
                                reason="CPU lacks AES-NI or PCLMULQDQ")

GCM, ESP = "gcm(aes)", "rfc4106(gcm(aes))"
PREFIX = {GCM: "generic-gcm", ESP: "rfc4106-gcm"}
#: generation -> (priority, the core form it runs, the CPU features its registration checks)
GENERATIONS = {
    "aesni": (400, "aesni", ()),
    "aesni-avx": (500, "aesni", ("avx",)),
    "vaes-avx2": (600, "vaes-avx2", ("vaes", "vpclmulqdq", "avx2")),
    "vaes-avx10_256": (700, "avx10_256", ("vaes", "vpclmulqdq", "avx512bw", "avx512vl", "bmi2")),
    "vaes-avx10_512": (800, "avx512", ("vaes", "vpclmulqdq", "avx512bw", "avx512vl", "bmi2")),
}
HERE = [g for g, (_, _, needs) in GENERATIONS.items() if all(boot_cpu_has(f) for f in needs)]
DRIVERS = [(name, f"{PREFIX[name]}-{g}") for g in HERE for name in (GCM, ESP)]
GCM_VECTORS = load_json("aes-gcm.json")["vectors"]
ESP_VECTORS = load_json("aes-gcm-rfc4106.json")["vectors"]


@pytest.fixture(scope="module")
def tfms():
    capi.load_all()
    out = {driver: capi.crypto_alloc_aead(driver) for _, driver in DRIVERS}
    yield out
    for t in out.values():
        t.free()


def core_of(tfm):
    """The core form the driver's context runs (through cryptd to the internal tfm)."""
    from crypto_api.arch.x86 import aesni_gcm_glue
    from crypto_api.cryptd import cryptd_child
    inner = cryptd_child(tfm.ctx.cryptd) if hasattr(tfm.ctx, "cryptd") else tfm
    return aesni_gcm_glue.ISA_NAMES[inner.ctx.k.isa]


@pytest.mark.parametrize("name, driver", DRIVERS, ids=[d for _, d in DRIVERS])
def test_names_priorities_and_core(tfms, name, driver):
    g = driver[len(PREFIX[name]) + 1:]
    prio, core, _ = GENERATIONS[g]
    if g == "vaes-avx10_512" and boot_cpu_has("prefer_ymm"):
        prio = 1                                # this host discourages 512-bit vectors
    tfm = tfms[driver]
    tfm.setkey(bytes(20 if name == ESP else 16))
    assert (tfm.alg.cra_name, tfm.alg.cra_priority, tfm.ivsize, tfm.maxauthsize) == \
        (name, prio, 8 if name == ESP else 12, 16)
    assert core_of(tfm) == core
    with capi.crypto_alloc_aead("__" + driver, capi.CRYPTO_ALG_INTERNAL, capi.CRYPTO_ALG_INTERNAL) as inner:
        assert (inner.alg.cra_name, inner.alg.cra_priority) == ("__" + name, prio)


@pytest.mark.parametrize("driver", [d for _, d in DRIVERS])
def test_vectors_both_ways(tfms, driver):
    vecs = ESP_VECTORS if driver.startswith("rfc4106") else GCM_VECTORS
    for vec in vecs:
        check_vector(tfms[driver], vec)


@pytest.mark.parametrize("name, driver", DRIVERS, ids=[d for _, d in DRIVERS])
def test_selftest_manager_full(selftest_level, caplog, name, driver):
    full_selftests(selftest_level, caplog, {name: driver}, 13)


@pytest.mark.parametrize("g", HERE)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(klen=st.sampled_from([16, 24, 32]), data=st.data(), ad=st.binary(max_size=300),
       n=st.sampled_from([0, 1, 15, 16, 17, 255, 256, 511, 512, 513, 1024, 4095, 4096, 4097, 20000]),
       tag=st.sampled_from([8, 12, 16]), seq=st.sampled_from([8, 12]))
def test_matches_cryptography(tfms, g, klen, data, ad, n, tag, seq):
    key, nonce = data.draw(exactly(klen)), data.draw(exactly(12))
    pt = hashlib.shake_256(data.draw(exactly(32))).digest(n)    # a drawn seed, expanded
    ref = AESGCM(key).encrypt(nonce, pt, ad)[:n + tag]
    t = tfms[f"generic-gcm-{g}"]
    t.setkey(key)
    t.setauthsize(tag)
    assert t.encrypt(pt, nonce, ad) == ref
    assert t.decrypt(ref, nonce, ad) == pt
    buf = bytearray(ad + pt + bytes(tag))                   # the request path, in place
    sg = capi.sg_init_one(buf)
    req = capi.aead_request_alloc(t)
    capi.aead_request_set_crypt(req, sg, sg, n, bytearray(nonce))
    capi.aead_request_set_ad(req, len(ad))
    assert capi.crypto_aead_encrypt(req) == 0 and bytes(buf[len(ad):]) == ref
    e = tfms[f"rfc4106-gcm-{g}"]                             # salt = the nonce's first 4 bytes
    e.setkey(key + nonce[:4])
    e.setauthsize(tag)
    spi = data.draw(exactly(seq))
    eref = AESGCM(key).encrypt(nonce, pt, spi)[:n + tag]
    assert e.encrypt(pt, nonce[4:], spi + nonce[4:]) == eref
    assert e.decrypt(eref, nonce[4:], spi + nonce[4:]) == pt
    t.setauthsize(16)
    e.setauthsize(16)


PROBE = r"""
import json, sys, crypto_api as capi
from crypto_api import registry
capi.boot(kernel=sys.argv[1])
capi.load_all()
out = {"drivers": {a.cra_driver_name: [a.cra_name, a.cra_priority, a.cra_flags]
                   for a in registry.snapshot()
                   if not a.is_larval and a.instance is None and a.cra_module == "aesni_intel"
                   and "gcm" in a.cra_name}}
with capi.crypto_alloc_aead("gcm(aes)") as t:
    out["first"] = t.driver_name
    if sys.argv[2] == "nosimd":
        t.setkey(bytes(16))
        buf = bytearray(32)
        sg = capi.sg_init_one(buf)
        req = capi.aead_request_alloc(t)
        capi.aead_request_set_crypt(req, sg, sg, 16, bytearray(12))
        capi.aead_request_set_ad(req, 0)
        with capi.simd_disabled(), capi.fpu_trace() as tr:
            out["rc"] = capi.crypto_aead_encrypt(req)
        out["sections"] = len(tr.sections)
        out["ct"] = bytes(buf).hex()
print(json.dumps(out))
"""


def probe(version, mask="", nosimd=False):
    """One boot of ``version`` in a child, on this CPU less the features in ``mask``
    and less prefer_ymm (the 512-bit drivers at their own priority whatever the
    host; ZMM_PROBE below pretends the other case)."""
    mask = ",".join(filter(None, (mask, "prefer_ymm")))
    env = dict(os.environ, CRYPTO_API_SELFTESTS="off", CRYPTO_API_CPU_MASK=mask)
    env.pop("CRYPTO_API_KERNEL", None)
    out = subprocess.run([sys.executable, "-c", PROBE, version, "nosimd" if nosimd else "-"], env=env,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def public(names):
    """{driver: priority} for both AEADs of each (generation, priority) in ``names``."""
    return {f"{p}-{g}": prio for g, prio in names for p in PREFIX.values()}


#: version -> (form, the public drivers a CPU with every feature gets)
VERSIONS = {
    "5.0": ("v5.0", public([("aesni", 400)])),
    "5.10": ("simd", public([("aesni", 400)])),
    "6.12": ("simd", public([("aesni", 400), ("aesni-avx", 500), ("vaes-avx10_256", 700),
                             ("vaes-avx10_512", 800)])),
    "6.18": ("direct", public([("aesni", 400), ("aesni-avx", 500), ("vaes-avx10_256", 700),
                               ("vaes-avx10_512", 800)])),
    "6.19": ("direct", public([("aesni", 400), ("aesni-avx", 500), ("vaes-avx2", 600),
                               ("vaes-avx512", 800)])),
}


@pytest.mark.parametrize("version", list(VERSIONS))
def test_names_and_forms_per_version(version):
    if len(HERE) < len(GENERATIONS):
        pytest.skip("the CPU lacks some generation's features")
    form, want = VERSIONS[version]
    got = probe(version)["drivers"]
    pub = {d: v for d, v in got.items() if not v[2] & capi.CRYPTO_ALG_INTERNAL}
    assert {d: v[1] for d, v in pub.items()} == want
    for d, (name, prio, flags) in pub.items():
        assert name == (GCM if d.startswith("generic") else ESP)
        assert bool(flags & capi.CRYPTO_ALG_ASYNC) == (form != "direct"), d
    internal = {d: (v[0], v[1]) for d, v in got.items() if v[2] & capi.CRYPTO_ALG_INTERNAL}
    if form == "v5.0":
        assert internal == {"__driver-generic-gcm-aes-aesni": ("__generic-gcm-aes-aesni", 0),
                            "__driver-gcm-aes-aesni": ("__gcm-aes-aesni", 0)}
    elif form == "simd":
        assert internal == {"__" + d: ("__" + got[d][0], p) for d, p in want.items()}
    else:
        assert internal == {}


@pytest.mark.parametrize("version, mask, first", [
    ("6.12", "", "generic-gcm-vaes-avx10_512"), ("6.12", "avx512bw", "generic-gcm-aesni-avx"),
    ("6.19", "", "generic-gcm-vaes-avx512"), ("6.19", "avx512bw", "generic-gcm-vaes-avx2"),
    ("6.19", "vaes", "generic-gcm-aesni-avx"), ("6.19", "avx,avx2", "generic-gcm-aesni"),
    ("6.19", "pclmulqdq", None)])
def test_first_answer_by_cpu(version, mask, first):
    if len(HERE) < len(GENERATIONS):
        pytest.skip("the CPU lacks some generation's features")
    got = probe(version, mask)["first"]
    if first is None:
        assert got.startswith("gcm_base(")                  # no AES-NI GCM: the template answers
    else:
        assert got == first


@pytest.mark.parametrize("version, sync", [("6.12", False), ("6.18", True)])
def test_no_simd(version, sync):
    """6.16+: registered directly, the request runs at once in the caller's
    context (one FPU section); before, the SIMD wrapper queues it to cryptd."""
    r = probe(version, nosimd=True)
    ref = AESGCM(bytes(16)).encrypt(bytes(12), bytes(16), b"").hex()
    if sync:
        assert (r["rc"], r["sections"], r["ct"]) == (0, 1, ref)
    else:
        assert r["rc"] == -115 and r["sections"] == 0       # -EINPROGRESS: queued to cryptd


ZMM_PROBE = r"""
import json, sys, crypto_api as capi
from crypto_api import registry
from crypto_api.arch.x86.cpufeature import forced_features
capi.boot(kernel=sys.argv[1])
with forced_features("prefer_ymm"):         # a CPU that downclocks with 512-bit vectors
    capi.load_all()
prio = {a.cra_driver_name: a.cra_priority for a in registry.snapshot()
        if not a.is_larval and a.instance is None and a.cra_module == "aesni_intel"}
first = {}
for name in ("gcm(aes)", "xts(aes)"):
    with capi.crypto_alloc_aead(name) if name == "gcm(aes)" else capi.crypto_alloc_skcipher(name) as t:
        first[name] = t.driver_name
print(json.dumps({"prio": prio, "first": first}))
"""


@pytest.mark.parametrize("version, wide, wide_xts, first_gcm, first_xts", [
    ("6.12", "vaes-avx10_512", "vaes-avx10_512", "generic-gcm-vaes-avx10_256", "xts-aes-vaes-avx10_256"),
    ("6.18", "vaes-avx10_512", "vaes-avx512", "generic-gcm-vaes-avx10_256", "xts-aes-vaes-avx2"),
    ("6.19", "vaes-avx512", "vaes-avx512", "generic-gcm-vaes-avx2", "xts-aes-vaes-avx2")])
def test_512_bit_drivers_at_priority_1_where_discouraged(version, wide, wide_xts, first_gcm, first_xts):
    """The followed version keeps the glue's priority 1 for the 512-bit drivers
    (the kernel-version table's 'or 1'), so the next generation answers."""
    if len(HERE) < len(GENERATIONS):
        pytest.skip("the CPU lacks some generation's features")
    env = dict(os.environ, CRYPTO_API_SELFTESTS="off")
    env.pop("CRYPTO_API_KERNEL", None)
    out = subprocess.run([sys.executable, "-c", ZMM_PROBE, version], env=env, capture_output=True, text=True,
                         check=True)
    r = json.loads(out.stdout.strip().splitlines()[-1])
    ctr = [f"ctr-aes-{wide_xts}"] if version != "6.12" else []     # the VAES CTR drivers: 6.15+
    for d in [f"{p}-{wide}" for p in PREFIX.values()] + [f"xts-aes-{wide_xts}"] + ctr:
        assert r["prio"][d] == 1, d
    assert r["first"] == {"gcm(aes)": first_gcm, "xts(aes)": first_xts}
