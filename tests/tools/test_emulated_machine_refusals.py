"""An emulated machine that cannot run says so (crypto_api.machine.cpu_models, .emulation).

Real ``python -m crypto_api`` runs: a CPU model the installed qemu-user does
not know is refused by every command (EINVAL, one line naming qemu's models
and the option or variable it came from); with the emulator or the cross
compiler hidden (a PATH holding only the other tool, an empty helper cache)
or a compiler that fails, every command says on stderr what is missing and
its Debian packages, ``selftest`` fails unless ``--generic-only``, and
``CRYPTO_API_REQUIRE_EMULATION=1`` makes any command fail.
"""

import os
import re
import shutil
import subprocess
import sys

import pytest

from crypto_api.machine import helper_build
from crypto_api.machine.emulation import REQUIRE_VAR

from arm64_emulation import require_emulation
from kernel_names import driver, listing_lines, ours

ARCHES = ("arm64", "arm", "ppc64le")
#: the generic xchacha12 driver on arm64, by the followed kernel's name (6.18: xchacha12-lib)
XCHACHA12 = driver("xchacha12-generic", "arm64")


def _env(tmp_path, path=None, **extra):
    """The environment of a run: no machine or requirement inherited, an empty
    helper cache (no helper built earlier), and ``path`` as PATH if given."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("CRYPTO_API_ARCH", "CRYPTO_API_CPU", REQUIRE_VAR, "CRYPTO_API_SELFTESTS")}
    env["CRYPTO_API_CACHE"] = str(tmp_path / "cache")
    if path is not None:
        env["PATH"] = str(path)
    env.update(extra)
    return env


def _cli(env, *args):
    return subprocess.run([sys.executable, "-m", "crypto_api", *args], env=env,
                          capture_output=True, text=True)


def _qemu(arch):
    found = shutil.which(helper_build.toolchain_of(arch).qemu)
    if found is None:
        if os.environ.get(REQUIRE_VAR) == "1":
            pytest.fail(f"{helper_build.toolchain_of(arch).qemu} missing ({REQUIRE_VAR}=1 requires it)")
        pytest.skip(f"no {helper_build.toolchain_of(arch).qemu}")
    return found


def _only(tmp_path, *tools):
    """A directory to use as PATH holding only ``tools`` (name -> path)."""
    d = tmp_path / "bin"
    d.mkdir(exist_ok=True)
    for name, path in tools:
        os.symlink(path, d / name)
    return d


def _qemu_models(arch):
    """The model names ``qemu-* -cpu help`` prints, read here on their own."""
    out = subprocess.run([_qemu(arch), "-cpu", "help"], capture_output=True, text=True).stdout
    if arch == "ppc64le":
        return re.findall(r"^PowerPC\s+(\S+)", out, re.M)
    return re.findall(r"^\s+(\S+)\s*$", out, re.M)


def _leaves(driver):
    """The drivers a driver name is built of (``cbc(aes-generic)`` -> ``aes-generic``)."""
    return re.findall(r"([^(),]+)(?=[,)]|$)", driver)


# -- an unknown CPU model ---------------------------------------------------------

@pytest.mark.parametrize("command", ["list", "selftest", "boot"])
@pytest.mark.parametrize("arch", ARCHES)
def test_an_unknown_cpu_model_is_refused_naming_qemus_models(tmp_path, arch, command):
    models = _qemu_models(arch)
    assert "nosuchcpu" not in models
    r = _cli(_env(tmp_path), "--arch", arch, "--cpu", "nosuchcpu", command)
    assert r.returncode == 1 and r.stdout == "", (r.stdout, r.stderr)
    lines = r.stderr.splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith(f"crypto-api {command}: [Errno 22] EINVAL: machine {arch}: "
                               "unknown CPU model 'nosuchcpu' (--cpu nosuchcpu): "), lines[0]
    if len(models) <= 50:
        named = lines[0].split(" knows ", 1)[1].split(", ")
        assert named == list(dict.fromkeys(models)), named
    else:                       # qemu-ppc64le: the count, and the models of this machine's cores
        assert f"knows {len(set(models))} models" in lines[0]
        assert re.search(r"built for: .*\bpower9\b", lines[0]), lines[0]


def test_a_cpu_model_from_the_environment_is_named_as_the_variable(tmp_path):
    _qemu("arm64")
    r = _cli(_env(tmp_path, CRYPTO_API_ARCH="arm64", CRYPTO_API_CPU="pentium"), "list")
    assert r.returncode == 1
    assert "unknown CPU model 'pentium' (CRYPTO_API_CPU=pentium)" in r.stderr and "--cpu" not in r.stderr
    # the flag wins over the variable, and is named as the flag
    r = _cli(_env(tmp_path, CRYPTO_API_ARCH="arm64", CRYPTO_API_CPU="max"), "--cpu", "pentium", "list")
    assert r.returncode == 1
    assert "unknown CPU model 'pentium' (--cpu pentium)" in r.stderr and "CRYPTO_API_CPU" not in r.stderr


def test_an_architecture_is_named_as_given(tmp_path):
    r = _cli(_env(tmp_path), "--arch", "sparc", "list")
    assert r.returncode == 1 and "unknown architecture 'sparc' (--arch sparc;" in r.stderr, r.stderr
    r = _cli(_env(tmp_path, CRYPTO_API_ARCH="sparc"), "list")
    assert r.returncode == 1 and "unknown architecture 'sparc' (CRYPTO_API_ARCH=sparc;" in r.stderr, r.stderr


def test_a_cpu_model_on_the_x86_host_is_named_as_given(tmp_path):
    from crypto_api.machine import host_arch
    if host_arch() != "x86_64":
        pytest.skip("the x86_64 host's refusal")
    r = _cli(_env(tmp_path), "list", "--cpu", "cortex-a53")
    assert r.returncode == 1 and "(--cpu cortex-a53 is for emulated machines" in r.stderr, r.stderr


_PY_SELECT = r"""
import errno, os, sys
import crypto_api as capi
from crypto_api.machine import select_machine
try:
    m = select_machine(sys.argv[1], sys.argv[2])
except capi.CryptoError as e:
    print(errno.errorcode[e.errno], e.message)
else:
    print("booted", m.describe())
"""


@pytest.mark.parametrize("arch,known", [("arm64", "cortex-a53"), ("arm", "cortex-a15"), ("ppc64le", "power8")])
def test_the_python_api_refuses_an_unknown_cpu_model_with_einval(tmp_path, arch, known):
    _qemu(arch)
    env = _env(tmp_path)
    r = subprocess.run([sys.executable, "-c", _PY_SELECT, arch, "nosuchcpu"], env=env,
                       capture_output=True, text=True)
    assert r.stdout.startswith(f"EINVAL machine {arch}: unknown CPU model 'nosuchcpu' "
                               "(select_machine(cpu='nosuchcpu'))"), r.stdout + r.stderr
    r = subprocess.run([sys.executable, "-c", _PY_SELECT, arch, known], env=env, capture_output=True, text=True)
    assert r.stdout.strip() == f"booted {arch} (emulated, cpu {known})", r.stdout + r.stderr


def test_a_machine_chosen_in_the_environment_refuses_the_first_lookup(tmp_path):
    _qemu("arm64")
    code = ("import crypto_api as capi\n"
            "try:\n    capi.crypto_alloc_skcipher('xchacha12')\n"
            "except capi.CryptoError as e:\n    print(e.errno, e.message)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env=_env(tmp_path, CRYPTO_API_ARCH="arm64", CRYPTO_API_CPU="nosuchcpu"))
    assert r.stdout.startswith("22 machine arm64: unknown CPU model 'nosuchcpu' (CRYPTO_API_CPU=nosuchcpu)"), \
        r.stdout + r.stderr


# -- the machine's own drivers cannot run ---------------------------------------------

def _without_qemu(tmp_path, arch):
    """PATH with the cross compiler of ``arch`` only (no emulator)."""
    cc = helper_build.toolchain_of(arch).cc
    found = shutil.which(cc)
    return _only(tmp_path, *([(cc, found)] if found else []))


def _without_compiler(tmp_path, arch):
    """PATH with the emulator of ``arch`` only (no cross compiler)."""
    if helper_build.prebuilt_path(arch) is not None:
        pytest.skip(f"a prebuilt {arch} helper is installed: no compiler is needed")
    qemu = helper_build.toolchain_of(arch).qemu
    return _only(tmp_path, (qemu, _qemu(arch)))


@pytest.mark.parametrize("arch", ARCHES)
def test_without_qemu_selftest_fails_naming_the_package(tmp_path, arch):
    tc = helper_build.toolchain_of(arch)
    r = _cli(_env(tmp_path, _without_qemu(tmp_path, arch)), "--arch", arch, "selftest")
    assert r.returncode == 1 and r.stdout == "", (r.stdout, r.stderr)
    assert f"missing {tc.qemu} (Debian package qemu-user)" in r.stderr, r.stderr
    assert "--generic-only" in r.stderr and "Traceback" not in r.stderr


def test_without_qemu_list_and_boot_warn_and_serve_the_generic_drivers(tmp_path):
    env = _env(tmp_path, _without_qemu(tmp_path, "arm64"))
    warning = ("warning: arm64 emulation unavailable: missing qemu-aarch64 (Debian package qemu-user); "
               "the arm64 machine's own drivers cannot be registered, only the generic ones")
    r = _cli(env, "--arch", "arm64", "list", "--table")
    assert r.returncode == 0 and f"crypto-api list: {warning}" in r.stderr, r.stderr
    drivers = [ln.split()[2] for ln in listing_lines(r.stdout)[1:]]
    assert XCHACHA12 in drivers and not [d for d in drivers if d.endswith("-neon")], drivers
    r = _cli(env, "--arch", "arm64", "boot", "--quiet-proc")
    assert r.returncode == 0 and f"crypto-api boot: {warning}" in r.stderr, r.stderr
    assert "modprobe chacha_neon: not loaded" in r.stdout
    assert re.search(rf"^driver +: {XCHACHA12}$", r.stdout, re.M), r.stdout


@pytest.mark.parametrize("arch", ARCHES)
def test_without_the_cross_compiler_selftest_fails_naming_its_packages(tmp_path, arch):
    tc = helper_build.toolchain_of(arch)
    r = _cli(_env(tmp_path, _without_compiler(tmp_path, arch)), "--arch", arch, "selftest")
    assert r.returncode == 1 and r.stdout == "", (r.stdout, r.stderr)
    assert f"missing {tc.cc} (Debian packages {tc.packages})" in r.stderr, r.stderr
    assert not os.path.exists(tmp_path / "cache" / "helpers")      # nothing was built


def test_without_the_cross_compiler_list_warns_naming_its_packages(tmp_path):
    tc = helper_build.toolchain_of("arm64")
    r = _cli(_env(tmp_path, _without_compiler(tmp_path, "arm64")), "--arch", "arm64", "list", "--table")
    assert r.returncode == 0, r.stderr
    assert f"warning: arm64 emulation unavailable: missing {tc.cc} (Debian packages {tc.packages})" \
        in r.stderr, r.stderr
    drivers = [ln.split()[2] for ln in listing_lines(r.stdout)[1:]]
    assert XCHACHA12 in drivers and not [d for d in drivers if d.endswith("-neon")], drivers


def test_a_helper_that_does_not_build_is_named(tmp_path):
    """A cross compiler that fails: the build's error (its stderr) is what selftest reports."""
    tools = _only(tmp_path, ("qemu-aarch64", _qemu("arm64")))
    fake = tools / "aarch64-linux-gnu-gcc"
    fake.write_text("#!/bin/sh\necho 'planted compiler: refusing to build' >&2\nexit 1\n")
    fake.chmod(0o755)
    env = _env(tmp_path, tools)
    r = _cli(env, "--arch", "arm64", "selftest")
    assert r.returncode == 1 and r.stdout == ""
    assert "arm64 emulation unavailable: helper build: compiling the dispatcher failed" in r.stderr, r.stderr
    assert "planted compiler: refusing to build" in r.stderr
    r = _cli(env, "--arch", "arm64", "list")
    assert r.returncode == 0 and "warning: arm64 emulation unavailable: helper build" in r.stderr


def test_a_cpu_model_qemu_knows_but_cannot_start_the_helper_on_is_named(tmp_path):
    """qemu-ppc64le lists the big-endian-only 970; the little-endian helper does not start there."""
    require_emulation("ppc64le")
    assert "970" in _qemu_models("ppc64le")
    env = {k: v for k, v in _env(tmp_path).items() if k != "CRYPTO_API_CACHE"}   # reuse the built helper
    r = _cli(env, "--arch", "ppc64le", "--cpu", "970", "selftest")
    assert r.returncode == 1 and r.stdout == ""
    assert "ppc64le emulation unavailable: machine ppc64le: the helper did not start under qemu -cpu 970" \
        in r.stderr, r.stderr


# -- the ways out: --generic-only, and the CI's requirement -------------------------

def test_generic_only_tests_the_generic_drivers_alone_and_passes(tmp_path):
    r = _cli(_env(tmp_path, _without_qemu(tmp_path, "arm64")), "--arch", "arm64", "selftest", "--generic-only")
    assert r.returncode == 0, r.stderr
    assert "emulation" not in r.stderr               # nothing of the machine's is wanted
    summary = r.stdout.strip().splitlines()[-1]
    m = re.fullmatch(r"(\d+) drivers: (\d+) passed, 0 failed, 0 without tests "
                     r"\(level fast, generic drivers only; .*\)", summary)
    assert m and m.group(1) == m.group(2) and int(m.group(1)) >= 20, summary


def test_generic_only_loads_no_arch_module_even_where_the_machine_runs(tmp_path):
    require_emulation("arm64")
    env = {k: v for k, v in _env(tmp_path).items() if k != "CRYPTO_API_CACHE"}
    r = _cli(env, "--arch", "arm64", "selftest", "--generic-only")
    assert r.returncode == 0, r.stderr
    table = r.stdout.split("\n\n")[-1].splitlines()[1:-1]
    drivers = [ln.split()[0] for ln in table]
    # generic by this project's names (6.18 calls some of them *-lib; with no arch code the generic rows apply)
    assert drivers and all(ours(leaf, "*").endswith("-generic") for d in drivers for leaf in _leaves(d)), \
        drivers


def test_the_ci_requirement_makes_any_command_fail(tmp_path):
    env = _env(tmp_path, _without_qemu(tmp_path, "arm64"), **{REQUIRE_VAR: "1"})
    r = _cli(env, "--arch", "arm64", "list")
    assert r.returncode == 1 and r.stdout == ""
    assert "missing qemu-aarch64 (Debian package qemu-user)" in r.stderr
    assert f"({REQUIRE_VAR}=1 requires them)" in r.stderr, r.stderr
    r = _cli(env, "--arch", "arm64", "selftest", "--generic-only")     # runs no emulated code
    assert r.returncode == 0, r.stderr
