"""The arm64 NH, Poly1305, AES and seed-design ChaCha drivers, booted as an
emulated arm64 machine (CRYPTO_API_ARCH=arm64) in a fresh interpreter per
CPU model: registration and /proc/crypto records, module dependencies,
which CPU models get aes-ce, Adiantum's resolution, the NEON sections each
glue opens, and the full self-test manager (vectors, random
configurations, fuzzing against the generic drivers)."""

import json

import pytest

from arm64_emulation import arm64_env, run_python

pytestmark = pytest.mark.emulation

CPU_MODELS = ("max", "cortex-a53")
NO_AES_CPU = "cortex-a53,neon=off,vfp=off"      # HWCAP 0x883: fp asimd crc32 cpuid
DRIVERS = {
    "nhpoly1305-neon": "nhpoly1305", "poly1305-neon": "poly1305", "aes-arm64": "aes", "aes-ce": "aes",
    "chacha20-neon-4way": "chacha20", "xchacha20-neon-4way": "xchacha20",
    "xchacha12-neon-4way": "xchacha12",
}

PROBE = r'''
import json
import crypto_api as capi

out = {}
out["load"] = {k: (v.errno if v else 0) for k, v in capi.load_all().items()}
records = {}
for block in capi.proc_crypto().strip().split("\n\n"):
    rec = dict((k.strip(), v.strip()) for k, v in (line.split(":", 1) for line in block.splitlines()))
    records[rec["driver"]] = rec
out["proc"] = records
out["aes"] = capi.crypto_alloc_cipher("aes").driver_name
adi = capi.crypto_alloc_skcipher("adiantum(xchacha12,aes)")
out["adiantum"] = [adi.driver_name, adi.alg.cra_priority]
adi.setkey(bytes(32))
from crypto_api.cinterface import Kind, entries, offers
out["adiantum_wide"] = entries(adi, Kind.WIDE) is not None
alloc = {"cipher": capi.crypto_alloc_cipher, "skcipher": capi.crypto_alloc_skcipher,
         "shash": capi.crypto_alloc_shash}
out["offers"] = {drv: [k.name for k in offers(alloc[rec["type"]](drv).alg)]
                 for drv, rec in records.items()
                 if drv.endswith(("-neon", "-neon-4way", "-arm64", "-ce")) and rec["type"] in alloc}


def trace(fn):
    with capi.fpu_trace() as tr:
        fn()
    return [[s.unit, s.nbytes] for s in tr.sections]


def nosimd_trace(fn):
    with capi.simd_disabled():
        return trace(fn)


nh = capi.crypto_alloc_shash("nhpoly1305-neon")
nh.setkey(bytes(range(256)) * 4 + bytes(64))
d = nh.desc()
d.init()
out["nh_update_8292"] = trace(lambda: d.update(bytes(8292)))
out["nh_update_63"] = trace(lambda: d.update(bytes(63)))
out["nh_nosimd"] = nosimd_trace(lambda: d.update(bytes(4096)))

poly = capi.crypto_alloc_shash("poly1305-neon")
d = poly.desc()
d.init()
out["poly_update_129"] = trace(lambda: d.update(bytes(129)))
out["poly_update_128"] = trace(lambda: d.update(bytes(128)))
out["poly_update_10000"] = trace(lambda: d.update(bytes(10000)))

if "aes-ce" in records:
    ce = capi.crypto_alloc_cipher("aes-ce")
    out["ce_setkey"] = trace(lambda: ce.setkey(bytes(32)))
    out["ce_block"] = trace(lambda: ce.encrypt_one(bytes(16)))
    out["ce_nosimd"] = nosimd_trace(lambda: ce.decrypt_one(bytes(16)))
    with capi.simd_disabled():
        out["ce_nosimd_result"] = ce.encrypt_one(bytes(16)).hex()
sc = capi.crypto_alloc_cipher("aes-arm64")
sc.setkey(bytes(32))
out["scalar_block"] = trace(lambda: sc.encrypt_one(bytes(16)))
out["scalar_result"] = sc.encrypt_one(bytes(16)).hex()

x4 = capi.crypto_alloc_skcipher("xchacha12-neon-4way")
x4.setkey(bytes(32))
out["x4_8192"] = trace(lambda: x4.encrypt(bytes(8192), bytes(32)))
out["x4_64"] = trace(lambda: x4.encrypt(bytes(64), bytes(32)))
print(json.dumps(out))
'''


@pytest.fixture(scope="module", params=CPU_MODELS + (NO_AES_CPU,))
def probe(request):
    from arm64_emulation import require_emulation
    require_emulation()
    r = run_python(PROBE, cpu=request.param)
    return request.param, json.loads(r.stdout.strip().splitlines()[-1])


def test_modules_load(probe):
    cpu, out = probe
    load = out["load"]
    for mod in ("nhpoly1305_neon", "poly1305_neon", "aes_arm64", "chacha_neon_4way"):
        assert load[mod] == 0, (cpu, mod, load)
    if cpu == NO_AES_CPU:
        assert load["aes_ce_cipher"] == 19             # ENODEV: module_cpu_feature_match(AES)
        assert "aes-ce" not in out["proc"]
    else:
        assert load["aes_ce_cipher"] == 0


def test_proc_records(probe):
    cpu, out = probe
    proc = out["proc"]
    want = {
        "nhpoly1305-neon": ("nhpoly1305", "200", "nhpoly1305_neon", "shash"),
        "poly1305-neon": ("poly1305", "200", "poly1305_neon", "shash"),
        "aes-arm64": ("aes", "200", "aes_arm64", "cipher"),
        "chacha20-neon-4way": ("chacha20", "200", "chacha_neon_4way", "skcipher"),
        "xchacha12-neon-4way": ("xchacha12", "200", "chacha_neon_4way", "skcipher"),
    }
    if cpu != NO_AES_CPU:
        want["aes-ce"] = ("aes", "250", "aes_ce_cipher", "cipher")
    for drv, (name, prio, module, type_) in want.items():
        rec = proc[drv]
        assert (rec["name"], rec["priority"], rec["module"], rec["type"]) == (name, prio, module, type_), rec
        assert rec["selftest"] == "passed"
    assert proc["nhpoly1305-neon"]["digestsize"] == "16" and proc["nhpoly1305-neon"]["blocksize"] == "0"
    assert proc["poly1305-neon"]["blocksize"] == "16"
    assert proc["xchacha12-neon-4way"]["walksize"] == "256"
    assert proc["xchacha12-neon-4way"]["ivsize"] == "32"
    # v5.0 dependencies: nhpoly1305_neon pulls in nhpoly1305, aes_ce_cipher aes_arm64
    assert "nhpoly1305-generic" in proc and "aes-arm64" in proc


def test_adiantum_resolution(probe):
    cpu, out = probe
    if cpu == NO_AES_CPU:
        assert out["aes"] == "aes-arm64"
        assert out["adiantum"] == ["adiantum(xchacha12-neon,aes-arm64,nhpoly1305-neon)", 257]
    else:
        assert out["aes"] == "aes-ce"
        assert out["adiantum"] == ["adiantum(xchacha12-neon,aes-ce,nhpoly1305-neon)", 264]


def test_the_arm64_drivers_offer_templates_no_c_entries(probe):
    # they are the generic descriptors with emulated request callbacks: the
    # generic C entries (BLOCK, NHPOLY1305, STREAM) must not come along, so
    # Adiantum over them composes through their request paths
    cpu, out = probe
    assert set(DRIVERS) - ({"aes-ce"} if cpu == NO_AES_CPU else set()) <= set(out["offers"])
    assert "nhpoly1305-neon" in out["offers"] and "xchacha12-neon" in out["offers"]
    assert all(kinds == [] for kinds in out["offers"].values()), out["offers"]
    assert out["adiantum_wide"] is False


def test_nhpoly1305_sections(probe):
    """A NEON section per 4 KiB page of an update; generic below 64 bytes
    and when SIMD is not usable."""
    _, out = probe
    assert out["nh_update_8292"] == [["neon", 4096], ["neon", 4096], ["neon", 100]]
    assert out["nh_update_63"] == [] and out["nh_nosimd"] == []


def test_poly1305_sections(probe):
    """NEON only above 128 bytes, then the whole update in one section."""
    _, out = probe
    assert out["poly_update_129"] == [["neon", 129]]
    assert out["poly_update_128"] == []
    assert out["poly_update_10000"] == [["neon", 10000]]


def test_aes_sections(probe):
    """aes-ce: key expansion in one section, one section per block, the
    scalar routine without SIMD (same result); aes-arm64 opens none."""
    cpu, out = probe
    assert out["scalar_block"] == []
    assert out["scalar_result"] == "dc95c078a2408989ad48a21492842087"   # AES-256, zero key and block
    if cpu == NO_AES_CPU:
        return
    assert out["ce_setkey"] == [["neon", 0]]
    assert out["ce_block"] == [["neon", 16]]
    assert out["ce_nosimd"] == []
    assert out["ce_nosimd_result"] == out["scalar_result"]


def test_seed_chacha_sections(probe):
    """One NEON section per walk step (two pages); 64 bytes: generic."""
    _, out = probe
    assert out["x4_8192"] == [["neon", 4096], ["neon", 4096]]
    assert out["x4_64"] == []


SELFTEST = r'''
import json, sys
import crypto_api as capi
from crypto_api import testmgr

capi.load_all()
testmgr.set_level("full")
res = {}
for drv, name in json.loads(sys.argv[1]).items():
    res[drv] = testmgr.alg_test(drv, name)
print(json.dumps(res))
'''


@pytest.mark.parametrize("cpu", CPU_MODELS)
def test_full_selftests(cpu):
    """Every driver passes the self-test manager at level full (vectors under
    random configurations, nosimd included, and fuzzing against the generic
    driver) on two CPU models."""
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-c", SELFTEST, json.dumps(DRIVERS)], env=arm64_env(cpu),
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout.strip().splitlines()[-1]) == {d: 0 for d in DRIVERS}


COLDPLUG = r'''
import crypto_api as capi
print(capi.crypto_alloc_cipher("aes").driver_name, sorted(capi.loaded_modules()))
'''


@pytest.mark.parametrize("cpu,driver", [("max", "aes-ce"), (NO_AES_CPU, "aes-arm64")])
def test_aes_ce_loads_by_cpu_feature_not_by_alias(cpu, driver):
    """aes_ce_cipher has no crypto- alias: the first lookup (boot) loads it
    because the CPU has the AES feature, and never where it lacks it."""
    from arm64_emulation import require_emulation
    require_emulation()
    line = run_python(COLDPLUG, cpu=cpu).stdout.strip().splitlines()[-1]
    got, loaded = line.split(" ", 1)
    assert got == driver
    assert ("'aes_ce_cipher'" in loaded) == (driver == "aes-ce")


def test_aes_ce_core_on_a_cpu_without_aes():
    """Loading refuses the core for lack of the feature; forced, its first
    AESE kills the helper (SIGILL): that call fails with ENODEV naming the
    +crypto instruction set, and the restarted helper serves the next one."""
    from arm64_emulation import require_emulation
    require_emulation()
    from crypto_api.errors import CryptoError
    from crypto_api.machine import backend
    with pytest.raises(CryptoError, match="lacks 'aes'") as e:
        backend.load("arm64", "aes_ce", cpu=NO_AES_CPU)
    assert e.value.errno == 19
    ce = backend.load("arm64", "aes_ce", cpu=NO_AES_CPU, check_feature=False)
    enc, dec = bytearray(240), bytearray(240)
    with pytest.raises(CryptoError, match=r"illegal instruction.*armv8-a\+crypto") as e:
        ce.aes_ce_expandkey(enc, dec, bytes(16), 16)
    assert e.value.errno == 19
    from crypto_api.algs._aes_generic import ffi, lib
    ctx = ffi.new("struct crypto_aes_ctx *")
    lib.aes_expandkey_generic(ctx, bytes(32), 32)
    out = bytearray(16)
    backend.load("arm64", "aes_arm64", cpu=NO_AES_CPU).aes_arm64_encrypt(ctx.key_enc, out, bytes(16), 14)
    assert out.hex() == "dc95c078a2408989ad48a21492842087"     # AES-256, zero key and block
