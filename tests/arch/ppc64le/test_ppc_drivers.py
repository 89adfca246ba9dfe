"""The ppc64le drivers under emulated POWER8, POWER9 and POWER10: which
register on which model, what Adiantum resolves to (reference §5), the
official vectors and the full self-test manager for each registered driver,
and the POWER10 objects in a helper that still runs on POWER9."""

import pytest
from arm64_emulation import disk_image_via, list_records
from ppc64le_emulation import CPUS, ppc_cli, ppc_python

pytestmark = pytest.mark.emulation

P10 = ("chacha20-p10", "xchacha20-p10", "xchacha12-p10", "poly1305-p10")
SEED = ("chacha20-vsx-4way", "xchacha20-vsx-4way", "xchacha12-vsx-4way")


def drivers_on(cpu):
    return P10 + SEED + ("p8_aes",) if cpu == "power10" else SEED + ("p8_aes",)


@pytest.mark.parametrize("cpu", CPUS)
def test_registration_per_model(cpu):
    r = ppc_cli(cpu, "list")
    assert r.returncode == 0, r.stderr
    recs = list_records(r.stdout)
    aes = recs["p8_aes"]
    assert (aes["module"], aes["priority"], aes["type"], aes["selftest"]) == ("vmx_crypto", "1000", "cipher", "passed")
    for d in P10:
        assert (d in recs) == (cpu == "power10"), d
    if cpu == "power10":
        for d in P10[:3]:
            assert (recs[d]["module"], recs[d]["priority"], recs[d]["walksize"], recs[d]["selftest"]) == \
                ("chacha_p10_crypto", "300", "64", "passed")
        assert (recs["poly1305-p10"]["priority"], recs["poly1305-p10"]["blocksize"]) == ("300", "16")
    for d in SEED:
        assert (recs[d]["module"], recs[d]["priority"], recs[d]["selftest"]) == ("chacha_vsx_4way", "50", "passed")
    assert not any(d.endswith(("-neon", "-simd", "-ce")) or "aesni" in d for d in recs)


_RESOLVE = r"""
import crypto_api as capi
t = capi.crypto_alloc_skcipher("adiantum(xchacha12,aes)")
a = capi.crypto_alloc_cipher("aes")
print(t.alg.cra_driver_name, t.alg.cra_priority, hex(a.alg.cra_flags & 0x1ff))
"""


@pytest.mark.parametrize("cpu,driver,prio", [
    ("power8", "adiantum(xchacha12-generic,p8_aes,nhpoly1305-generic)", 228),
    ("power9", "adiantum(xchacha12-generic,p8_aes,nhpoly1305-generic)", 228),
    ("power10", "adiantum(xchacha12-p10,p8_aes,nhpoly1305-generic)", 342),
])
def test_adiantum_resolves_as_the_reference_table(cpu, driver, prio):
    name, p, flags = ppc_python(_RESOLVE, cpu).stdout.split()
    assert (name, int(p)) == (driver, prio)
    assert flags == "0x101"          # CIPHER | NEED_FALLBACK, and Adiantum still took it


_VECTORS = r"""
import sys
import crypto_api as capi
from crypto_api.testmgr.vectors import suite
n = 0
for drv in sys.argv[1:]:
    alg = drv.split("-")[0] if drv != "p8_aes" else "aes"
    if alg == "aes":
        t = capi.crypto_alloc_cipher(drv)
        for v in suite("ecb(aes)"):
            t.setkey(v.key)
            for i in range(0, len(v.ptext), 16):
                p, c = v.ptext[i:i + 16], v.ctext[i:i + 16]
                assert t.encrypt_one(p) == c and t.decrypt_one(c) == p, v.id
            n += 1
    elif alg == "poly1305":
        t = capi.crypto_alloc_shash(drv)
        for v in suite(alg):
            if v.digest_error:
                continue
            assert t.digest(v.plaintext) == v.digest
            n += 1
    else:
        t = capi.crypto_alloc_skcipher(drv)
        assert t.driver_name == drv
        for v in suite(alg):
            t.setkey(v.key)
            assert t.encrypt(v.ptext, v.iv) == v.ctext and t.decrypt(v.ctext, v.iv) == v.ptext, v.id
            n += 1
print(n)
"""


@pytest.mark.parametrize("cpu", CPUS)
def test_official_vectors(cpu):
    import subprocess
    import sys
    from ppc64le_emulation import ppc_env
    drivers = drivers_on(cpu)
    r = subprocess.run([sys.executable, "-c", _VECTORS, *drivers], env=ppc_env(cpu), capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert int(r.stdout) >= 3 * len(drivers)


@pytest.mark.parametrize("cpu", CPUS)
def test_full_self_tests(cpu):
    """Vectors, random configurations (nosimd included) and fuzzing against the generic drivers."""
    drivers = drivers_on(cpu)
    r = ppc_cli(cpu, "selftest", "--full", "--iterations", "40", *drivers)
    assert r.returncode == 0, r.stdout + r.stderr
    for d in drivers:
        assert f"alg: self-tests for {d} " in r.stdout
    assert f"{len(drivers)} drivers: {len(drivers)} passed, 0 failed" in r.stdout


_P10_ON_P9 = r"""
from crypto_api.errors import CryptoError
from crypto_api.machine import backend
aes = backend.load("ppc64le", "aes_p8")                     # same helper, POWER8 object
rk = bytearray(240)
assert aes.aes_p8_expandkey(bytes(range(16)), 16, rk) == 10
out = bytearray(16)
aes.aes_p8_encrypt(rk, 10, out, bytes.fromhex("00112233445566778899aabbccddeeff"))
assert out.hex() == "69c4e0d86a7b0430d8cdb78070b4c55a"   # FIPS-197 C.1
try:
    backend.load("ppc64le", "chacha_p10")
except CryptoError as e:
    assert e.errno == 19 and "arch_3_1" in str(e), e
else:
    raise AssertionError("the POWER10 core loaded on POWER9")
p10 = backend.load("ppc64le", "chacha_p10", check_feature=False)
try:
    p10.chacha_p10le_8x(bytearray(64), bytearray(512), bytes(512), 512, 20)
except CryptoError as e:
    assert e.errno == 19 and "illegal instruction" in str(e) and "power10" in str(e), e
else:
    raise AssertionError("POWER10 instructions ran on POWER9")
aes.aes_p8_encrypt(rk, 10, out, bytes(16))                    # restarted helper
print("ok")
"""


def test_power10_objects_leave_the_helper_usable_on_power9():
    assert ppc_python(_P10_ON_P9, "power9").stdout.strip() == "ok"


@pytest.mark.parametrize("cpu", ["power8", "power10"])
def test_disk_on_ppc64le_gives_the_hosts_image(tmp_path, cpu):
    key = tmp_path / "key"
    key.write_bytes(bytes(range(32)))
    plain = bytes((i * 29) & 0xFF for i in range(8 * 4096))
    images = []
    for machine in (["--arch", "ppc64le", "--cpu", cpu], []):
        img = tmp_path / f"img{len(images)}"
        img.write_bytes(plain)
        images.append(disk_image_via(machine, str(img), str(key)))
    assert images[0] == images[1] != plain
