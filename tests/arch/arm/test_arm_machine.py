"""The emulated arm (32-bit ARMv7) machine: its v5.0 drivers (chacha20/xchacha20/
xchacha12-neon, nhpoly1305-neon, aes-arm) under qemu-arm with the Cortex-A7
(NEON, no crypto extensions), a Cortex-A15, and a Cortex-A15 without NEON;
what Adiantum resolves to on each (reference §2.9), the NEON sections of a
request (§2.3, §2.7) and a dm-crypt image written on the host.  Each test
boots a fresh interpreter as the arm machine."""

import json

import pytest
from arm64_emulation import CHACHA_NEON_VECTORS, arm64_env, host_env, list_records, run_cli, run_python

import crypto_api as capi
from crypto_api.machine import hwcap_features

pytestmark = pytest.mark.emulation
NEON_DRIVERS = ("chacha20-neon", "xchacha20-neon", "xchacha12-neon", "nhpoly1305-neon")
DRIVERS = NEON_DRIVERS + ("aes-arm",)
NO_NEON = "cortex-a15,neon=off"


def arm_env(cpu="cortex-a7", extra=None):
    return arm64_env(cpu, extra, arch="arm")


def test_hwcap_names_decode_the_arm_words():
    # a Cortex-A7's words as the reference lists them (§2.8): neon is bit 12, aes bit 0 of HWCAP2
    assert "neon" in hwcap_features("arm", 1 << 12) and "neon" not in hwcap_features("arm", 1 << 13)
    assert hwcap_features("arm", 0, 1) == ("aes",)
    assert hwcap_features("arm64", 1 << 12) == ("asimdrdm",)


@pytest.mark.parametrize("cpu", ["cortex-a7", "cortex-a15"])
def test_boot_registers_the_v5_drivers(cpu):
    r = run_cli("--arch", "arm", "--cpu", cpu, "list")
    assert r.returncode == 0, r.stderr
    recs = list_records(r.stdout)
    for d in ("chacha20-neon", "xchacha20-neon", "xchacha12-neon"):
        rec = recs[d]
        assert (rec["module"], rec["priority"], rec["walksize"], rec["chunksize"], rec["selftest"]) == \
            ("chacha_neon", "300", "256", "64", "passed")
        assert rec["ivsize"] == ("16" if d.startswith("chacha") else "32")
        assert recs[d.replace("-neon", "-generic")]["module"] == "chacha_generic"   # v5.0 pulls it in
    assert (recs["nhpoly1305-neon"]["module"], recs["nhpoly1305-neon"]["priority"]) == ("nhpoly1305_neon", "200")
    assert recs["nhpoly1305-generic"]["module"] == "nhpoly1305"
    assert (recs["aes-arm"]["module"], recs["aes-arm"]["priority"], recs["aes-arm"]["type"]) == \
        ("aes_arm", "200", "cipher")
    # no bare aes from aes-arm-bs / aes-ce (modes only), nothing of another machine
    assert not any(d in recs for d in ("aes-ce", "aes-arm-bs", "aes-arm64", "aes-aesni"))
    assert not any("simd" in d or "avx" in d for d in recs)


def test_cpu_without_neon_registers_only_aes_arm_and_says_why():
    r = run_python("""
import crypto_api as capi
from crypto_api.machine import current_machine
m = current_machine()
print(m.cpu, "neon" in m.features, "vfp" in m.features)
for mod in ("chacha_neon", "nhpoly1305_neon"):
    try:
        capi.insmod(mod)
    except capi.CryptoError as e:
        print(e.errno, str(e))
print(capi.crypto_alloc_cipher("aes").driver_name)
""", env=arm_env(NO_NEON))
    lines = r.stdout.splitlines()
    assert lines[0] == f"{NO_NEON} False True"
    assert lines[1].startswith("19 ") and "chacha_neon" in lines[1] and "NEON" in lines[1]
    assert lines[2].startswith("19 ") and "nhpoly1305_neon" in lines[2]
    assert lines[3] == "aes-arm"


_VECTORS = CHACHA_NEON_VECTORS + r"""
h = capi.crypto_alloc_shash("nhpoly1305")
assert h.driver_name == "nhpoly1305-neon"
for v in suite("nhpoly1305"):
    h.setkey(v.key)
    assert h.digest(v.plaintext) == v.digest, v.id
    n += 1
c = capi.crypto_alloc_cipher("aes")
assert c.driver_name == "aes-arm"
for v in suite("ecb(aes)"):                       # the cipher one block at a time
    c.setkey(v.key)
    blocks = range(0, len(v.ptext), 16)
    assert b"".join(c.encrypt_one(v.ptext[i:i + 16]) for i in blocks) == v.ctext, v.id
    assert b"".join(c.decrypt_one(v.ctext[i:i + 16]) for i in blocks) == v.ptext, v.id
    n += 1
with capi.crypto_alloc_skcipher("adiantum(xchacha12,aes)") as t:
    for v in suite("adiantum(xchacha12,aes)"):
        t.setkey(v.key)
        assert t.encrypt(v.ptext, v.iv) == v.ctext and t.decrypt(v.ctext, v.iv) == v.ptext, v.id
        n += 1
print(n)
"""


@pytest.mark.parametrize("cpu", ["cortex-a7", "cortex-a15"])
def test_official_vectors(cpu):
    assert int(run_python(_VECTORS, env=arm_env(cpu)).stdout) >= 20


@pytest.mark.parametrize("cpu", ["cortex-a7", "cortex-a15"])
def test_full_self_tests(cpu):
    """Vectors, random configurations (nosimd ones included) and fuzzing against the generic drivers."""
    r = run_cli("--arch", "arm", "--cpu", cpu, "selftest", "--full", "--iterations", "60", *DRIVERS)
    assert r.returncode == 0, r.stdout + r.stderr
    for d in DRIVERS:
        assert any(line.startswith(d + " ") and " passed " in line for line in r.stdout.splitlines()), d
    assert "5 drivers: 5 passed, 0 failed" in r.stdout


def test_full_self_test_of_aes_arm_without_neon():
    r = run_cli("--arch", "arm", "--cpu", NO_NEON, "selftest", "--full", "--iterations", "30", "aes-arm")
    assert r.returncode == 0 and "1 drivers: 1 passed" in r.stdout.replace("1 driver:", "1 drivers:"), \
        r.stdout + r.stderr


_ADIANTUM = r"""
import json
import crypto_api as capi
t = capi.crypto_alloc_skcipher("adiantum(xchacha12,aes)")
t.setkey(bytes(range(32)))
data = bytes((i * 7) & 0xFF for i in range(4096))
print(json.dumps([t.driver_name, t.alg.cra_priority, t.encrypt(data, bytes(32)).hex()]))
"""


@pytest.mark.parametrize("cpu, driver, prio", [
    ("cortex-a7", "adiantum(xchacha12-neon,aes-arm,nhpoly1305-neon)", 257),       # (1200+400+200)//7
    ("cortex-a15", "adiantum(xchacha12-neon,aes-arm,nhpoly1305-neon)", 257),
    (NO_NEON, "adiantum(xchacha12-generic,aes-arm,nhpoly1305-generic)", 114),     # (400+200+200)//7
])
def test_adiantum_resolves_as_the_reference_says_and_matches_the_host(cpu, driver, prio):
    name, got_prio, ct = json.loads(run_python(_ADIANTUM, env=arm_env(cpu)).stdout)
    assert (name, got_prio) == (driver, prio)
    host = capi.crypto_alloc_skcipher("adiantum(xchacha12,aes)")
    host.setkey(bytes(range(32)))
    assert bytes.fromhex(ct) == host.encrypt(bytes((i * 7) & 0xFF for i in range(4096)), bytes(32))


_TRACE = r"""
import json, mmap
import crypto_api as capi

def trace(driver, n, offset=0, ctx=None, ivsize=32):
    t = capi.crypto_alloc_skcipher(driver)
    g = capi.crypto_alloc_skcipher(driver.replace("-neon", "-generic"))
    key = bytes(range(32)); t.setkey(key); g.setkey(key)
    buf = mmap.mmap(-1, 3 * 4096)                       # page-aligned
    data = bytes((i * 13) & 0xFF for i in range(n))
    buf[offset:offset + n] = data
    req = capi.skcipher_request_alloc(t)
    sg = capi.sg_init_one(buf, offset, n)            # offset: in the page
    capi.skcipher_request_set_crypt(req, sg, sg, n, bytearray(range(ivsize)))
    with capi.fpu_trace() as tr:
        if ctx is None:
            capi.crypto_skcipher_encrypt(req)
        else:
            with getattr(capi, ctx)():
                capi.crypto_skcipher_encrypt(req)
    ok = bytes(buf[offset:offset + n]) == g.encrypt(data, bytes(range(ivsize)))
    return {"sections": [[s.unit, s.nbytes] for s in tr.sections], "ok": ok}

print(json.dumps({
    "x12_8000_at100": trace("xchacha12-neon", 8000, offset=100),
    "c20_8192": trace("chacha20-neon", 8192, ivsize=16),
    "x20_100": trace("xchacha20-neon", 100),
    "x12_64": trace("xchacha12-neon", 64),
    "x12_nosimd": trace("xchacha12-neon", 8192, ctx="simd_disabled"),
    "x12_softirq": trace("xchacha12-neon", 8192, ctx="softirq_context"),
}))
"""


def test_trace_of_a_request_follows_the_v5_arm_glue():
    out = json.loads(run_python(_TRACE, env=arm_env()).stdout)
    assert all(v["ok"] for v in out.values()), out
    # stride 256: the first page's 3996 bytes round down to 3840, a 256-byte bounce step
    # spans the boundary, the final step takes the remaining 3904; HChaCha's own section first
    assert out["x12_8000_at100"]["sections"] == [["neon", 0], ["neon", 3840], ["neon", 256], ["neon", 3904]]
    assert out["c20_8192"]["sections"] == [["neon", 4096], ["neon", 4096]]
    assert out["x20_100"]["sections"] == [["neon", 0], ["neon", 100]]
    # 64 bytes or less, SIMD disabled for test, or a softirq (arm v5.0: !in_interrupt()): generic
    assert out["x12_64"]["sections"] == []
    assert out["x12_nosimd"]["sections"] == []
    assert out["x12_softirq"]["sections"] == []


def test_kernel_neon_begin_in_a_softirq_is_a_bug_on_arm_only():
    code = r"""
import crypto_api as capi
with capi.softirq_context():
    print(capi.may_use_simd(), capi.crypto_simd_usable())
    try:
        capi.kernel_neon_begin()
        capi.kernel_neon_end()
        print("begin ok")
    except capi.FpuUsageError as e:
        print("bug:", e)
"""
    arm = run_python(code, env=arm_env()).stdout.splitlines()
    assert arm[0] == "False False" and arm[1].startswith("bug:") and "softirq" in arm[1]
    with capi.softirq_context():                     # this process: the x86_64 host
        assert capi.may_use_simd() and capi.crypto_simd_usable()


_CORE = r"""
import array, json, sys
from crypto_api.machine import backend
lib = backend.load("arm", "chacha_neon")
state = json.loads(sys.argv[1])
four = bytearray(256)
st = array.array("I", state)
lib.chacha_4block_xor_neon(st, four, bytes(256), 20)
ones = bytearray()
for i in range(4):
    s1 = array.array("I", state); s1[12] = (state[12] + i) & 0xFFFFFFFF
    one = bytearray(64)
    lib.chacha_block_xor_neon(s1, one, bytes(64), 20)
    ones += one
print(json.dumps([bytes(four).hex(), bytes(ones).hex(), list(st)]))
"""


def test_four_block_routine_matches_generic_chacha20_with_a_wrapping_32_bit_counter():
    state = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574] + list(range(1, 9)) + [0xFFFFFFFE, 7, 8, 9]
    r = run_python(_CORE.replace("sys.argv[1]", repr(json.dumps(state))), env=arm_env())
    four, ones, st = json.loads(r.stdout)
    assert st == state                                              # state untouched
    g = capi.crypto_alloc_skcipher("chacha20-generic")
    g.setkey(b"".join(w.to_bytes(4, "little") for w in state[4:12]))
    iv = b"".join(w.to_bytes(4, "little") for w in state[12:16])
    expect = g.encrypt(bytes(256), iv).hex()                        # counters ..FE, ..FF, 0, 1
    assert four == ones == expect


def test_disk_image_of_the_host_decrypts_identically_on_arm_and_arm64(tmp_path):
    key = tmp_path / "key"
    key.write_bytes(bytes(range(32)))
    plain = bytes((i * 17) & 0xFF for i in range(16 * 4096))
    base = host_env()
    opts = ("--cipher", "xchacha12,aes-adiantum-plain64", "--key-file", str(key), "--sector-size", "4096")
    host_img = tmp_path / "host.img"
    host_img.write_bytes(plain)
    r = run_cli("disk", *opts, "encrypt", str(host_img), env=base)
    assert r.returncode == 0, r.stderr
    written = host_img.read_bytes()
    assert written != plain
    for machine in (["--arch", "arm", "--cpu", "cortex-a7"], ["--arch", "arm", "--cpu", NO_NEON],
                    ["--arch", "arm64", "--cpu", "cortex-a53"]):
        if machine[1] == "arm64":
            from arm64_emulation import require_emulation
            require_emulation("arm64")
        img = tmp_path / f"{machine[1]}-{len(machine[3])}.img"
        img.write_bytes(written)
        r = run_cli(*machine, "disk", *opts, "decrypt", str(img), env=base)
        assert r.returncode == 0, r.stderr
        assert img.read_bytes() == plain, machine
