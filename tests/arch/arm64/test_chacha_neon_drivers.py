"""chacha20-neon, xchacha20-neon, xchacha12-neon (v5.0) on an emulated arm64
machine: registration, official vectors, the full self-test manager under two
CPU models, the NEON sections of the reference's worked trace, the fallback
rules and the CLI.  Each test boots a fresh interpreter as arm64."""

import json
import os
import sys

import pytest
from arm64_emulation import (CHACHA_NEON_TRACE, CHACHA_NEON_VECTORS, arm64_env, disk_image_via,
                             list_records, planted_selftest, run_cli, run_python)

pytestmark = pytest.mark.emulation
DRIVERS = ("chacha20-neon", "xchacha20-neon", "xchacha12-neon")


@pytest.mark.parametrize("cpu", ["max", "cortex-a53"])
def test_boot_registers_the_neon_drivers_and_the_generic_ones(cpu):
    r = run_cli("--arch", "arm64", "--cpu", cpu, "list")
    assert r.returncode == 0, r.stderr
    recs = list_records(r.stdout)
    for d in DRIVERS:
        rec = recs[d]
        assert (rec["module"], rec["priority"], rec["walksize"], rec["chunksize"], rec["selftest"]) == \
            ("chacha_neon", "300", "320", "64", "passed")
        assert rec["ivsize"] == ("16" if d.startswith("chacha") else "32")
        gen = recs[d.replace("-neon", "-generic")]          # pulled in by chacha_neon (v5.0)
        assert (gen["module"], gen["priority"], gen["walksize"]) == ("chacha_generic", "100", "64")
    assert not any(d.endswith("-simd") or "aesni" in d or "avx" in d or "sse2" in d for d in recs)


def test_options_after_the_command_boot_the_machine():
    r = run_cli("list", "--table", "--arch", "arm64", "--cpu", "cortex-a53",
                env={k: v for k, v in os.environ.items() if k != "CRYPTO_API_ARCH"})
    assert r.returncode == 0, r.stderr
    assert "xchacha12-neon" in r.stdout and "chacha_neon" in r.stdout


_VECTORS = CHACHA_NEON_VECTORS + "print(n)\n"


def test_official_vectors():
    assert int(run_python(_VECTORS).stdout) >= 10


@pytest.mark.parametrize("cpu", ["max", "cortex-a53"])
def test_full_self_tests(cpu):
    """Vectors, random configurations (nosimd ones included) and fuzzing against the generic driver."""
    r = run_cli("--arch", "arm64", "--cpu", cpu, "selftest", "--full", "--iterations", "60", *DRIVERS)
    assert r.returncode == 0, r.stdout + r.stderr
    for d in DRIVERS:
        assert f"alg: self-tests for {d}" in r.stdout and "passed" in r.stdout
    assert "3 drivers: 3 passed, 0 failed" in r.stdout




def test_trace_matches_the_worked_example_and_the_fallback_rules():
    out = json.loads(run_python(CHACHA_NEON_TRACE).stdout)
    assert all(v["ok"] for v in out.values()), out
    # v5.0's worked example: HChaCha's own section, then one NEON section per walk step:
    # 3840 of the first page, a 320-byte bounce step over the boundary, the final 4032
    assert out["x12_8192"]["sections"] == [["neon", 0], ["neon", 3840], ["neon", 320], ["neon", 4032]]
    assert out["c20_8192"]["sections"] == [["neon", 3840], ["neon", 320], ["neon", 4032]]
    assert out["x20_100"]["sections"] == [["neon", 0], ["neon", 100]]
    # 64 bytes or less, SIMD disabled for test, or a nested user: generic, no section
    assert out["x12_64"]["sections"] == []
    assert out["x12_nosimd"]["sections"] == []
    assert out["x12_nested"]["sections"] == [["neon", 0]]      # only the caller's own section


def test_speed_labels_the_neon_driver_emulated():
    r = run_cli("--arch", "arm64", "speed", "--driver", "chacha20-neon", "--driver", "chacha20-generic",
                "--sizes", "4K", "--no-slope", "--repeat", "1", "--time-budget", "2")
    assert r.returncode == 0, r.stderr
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith("chacha20-")]
    assert any(ln.startswith("chacha20-neon:") and "emulated" in ln for ln in lines), lines
    assert any(ln.startswith("chacha20-generic:") and "emulated" not in ln for ln in lines), lines


def test_without_qemu_the_arm64_modules_register_nothing_and_say_why():
    env = arm64_env(extra={"PATH": os.path.dirname(sys.executable)})
    env.pop("CRYPTO_API_REQUIRE_EMULATION", None)      # qemu is hidden on purpose: warned, not refused
    r = run_cli("boot", "--quiet-proc", env=env)
    assert "warning: arm64 emulation unavailable: missing " in r.stderr, r.stderr
    assert "qemu-aarch64 (Debian package qemu-user)" in r.stderr
    assert "modprobe chacha_neon: not loaded" in r.stdout
    assert "qemu-aarch64 (Debian package qemu-user)" in r.stdout
    assert "xchacha12-generic" in r.stdout            # the generic drivers still serve


def test_enc_on_arm64_gives_the_hosts_bytes(tmp_path):
    key, pt = tmp_path / "key", tmp_path / "pt"
    key.write_bytes(bytes(range(32)))
    pt.write_bytes(bytes((i * 31) & 0xFF for i in range(50000)))
    iv = "07" * 32
    outs = []
    for machine, driver in ((["--arch", "arm64", "--cpu", "cortex-a53"], "xchacha12-neon"),
                            ([], "xchacha12-generic")):
        out = tmp_path / f"ct-{driver}"
        env = {k: v for k, v in os.environ.items() if k not in ("CRYPTO_API_ARCH", "CRYPTO_API_CPU")}
        r = run_cli(*machine, "enc", "-c", driver, "--keyfile", str(key), "--iv", iv,
                    "-i", str(pt), "-o", str(out), env=env)
        assert r.returncode == 0, r.stderr
        outs.append(out.read_bytes())
    assert outs[0] == outs[1] and outs[0] != pt.read_bytes()


_ADIANTUM = r"""
import json
import crypto_api as capi
from crypto_api.testmgr.vectors import suite
t = capi.crypto_alloc_skcipher("adiantum(xchacha12,aes)")
g = capi.crypto_alloc_skcipher("adiantum(xchacha12-generic,aes-generic,nhpoly1305-generic)")
for v in suite("adiantum(xchacha12,aes)"):
    t.setkey(v.key)
    assert t.encrypt(v.ptext, v.iv) == v.ctext and t.decrypt(v.ctext, v.iv) == v.ptext, v.id
key = bytes(range(32)); t.setkey(key); g.setkey(key)
sector, tweak = bytes((i * 5) & 0xFF for i in range(4096)), bytes(range(32))
with capi.fpu_trace() as tr:
    ct = t.encrypt(sector, tweak)
print(json.dumps({"driver": t.driver_name, "priority": t.alg.cra_priority,
                  "same": ct == g.encrypt(sector, tweak),
                  "sections": [[s.unit, s.nbytes] for s in tr.sections]}))
"""


def test_adiantum_on_arm64_streams_with_the_neon_driver():
    out = json.loads(run_python(_ADIANTUM, cpu="cortex-a53").stdout)
    # until arm64 AES and NH drivers register: (4*300 + 2*100 + 100) // 7
    assert out["driver"].startswith("adiantum(xchacha12-neon,")
    if out["driver"] == "adiantum(xchacha12-neon,aes-generic,nhpoly1305-generic)":
        assert out["priority"] == 214
    assert out["same"]
    # the stream's HChaCha section and its one walk step over the 4096-byte bulk (arm64
    # NH and AES drivers, once registered, add NEON sections of their own)
    assert ["neon", 4096] in out["sections"] and ["neon", 0] in out["sections"]
    assert {u for u, _ in out["sections"]} == {"neon"}


@pytest.mark.parametrize("rounding, verdict", [("0", "unknown"), ("1", "passed")])
def test_self_tests_catch_a_neon_glue_that_skips_the_stride(rounding, verdict):
    module = os.path.join(os.path.dirname(__file__), "data", "planted_neon_stride.py")
    env = arm64_env(extra={"PLANTED_ROUND": rounding})
    assert planted_selftest(env, module, "xchacha12-planted-neon") == verdict


def test_disk_on_arm64_gives_the_hosts_image(tmp_path):
    key = tmp_path / "key"
    key.write_bytes(bytes(range(32)))
    plain = bytes((i * 17) & 0xFF for i in range(16 * 4096))
    images = []
    for machine in (["--arch", "arm64", "--cpu", "cortex-a53"], []):
        img = tmp_path / f"img{len(images)}"
        img.write_bytes(plain)
        images.append(disk_image_via(machine, str(img), str(key)))
    assert images[0] == images[1] != plain
