"""What a wheel build runs, checked without building one: setup.py's
``build_py`` declares every directory of package data as a package (no
setuptools warning, every file copied), and the helpers' prebuild
(crypto_api/machine/prebuild.py, which setup.py runs by path on the build
tree) runs in an interpreter with nothing but the standard library, as in
pip's isolated build environment, with the cross compilers hidden and with
them present; the helpers it stores are the ones the package looks up."""

import os
import shutil
import subprocess
import sys

import pytest

from crypto_api.machine import emulated_machines, helper_build
from source_files import ROOT, copy_sources, source_files

DATA_DIRS = {"algs/include": "crypto_api/algs/include",
             "crypto_api/testmgr/vectors": "crypto_api/testmgr/vectors"}


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    assert r.returncode == 0, f"{' '.join(map(str, cmd))} failed ({r.returncode}):\n{r.stdout}\n{r.stderr}"
    return r


@pytest.fixture(scope="module")
def build_lib(tmp_path_factory):
    """The package as ``setup.py build_py`` lays it out for a wheel, and its log."""
    src = copy_sources(tmp_path_factory.mktemp("src") / "crypto_api")
    out = tmp_path_factory.mktemp("lib")
    r = run([sys.executable, "setup.py", "build_py", "--build-lib", str(out)], cwd=src)
    return out, r.stdout + r.stderr


@pytest.fixture(scope="module")
def bare_python(tmp_path_factory):
    """A venv's python with no package installed (not even pip): it cannot import attrs."""
    venv = tmp_path_factory.mktemp("bare") / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    python = str(venv / "bin" / "python")
    r = subprocess.run([python, "-c", "import attrs"], capture_output=True, text=True)
    assert r.returncode != 0 and "No module named 'attrs'" in r.stderr
    return python


def test_package_data_directories_are_declared_and_copied(build_lib):
    out, log = build_lib
    assert "absent from the `packages` configuration" not in log, log
    for src_dir, pkg_dir in DATA_DIRS.items():
        files = [f for f in source_files() if f.startswith(src_dir + "/")]
        assert len(files) >= 5, src_dir
        missing = [f for f in files if not (out / pkg_dir / f[len(src_dir) + 1:]).is_file()]
        assert missing == [], missing


def _prebuild(python, build_lib, tmp_path, path):
    out, _log = build_lib
    dest = tmp_path / "prebuilt"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "CRYPTO_API_", "VIRTUAL_ENV"))}
    env.update(PATH=path, CRYPTO_API_CACHE=str(tmp_path / "cache"))
    r = run([python, str(out / "crypto_api" / "machine" / "prebuild.py"), str(dest)], env=env, cwd=tmp_path)
    return sorted(os.listdir(dest)) if dest.exists() else [], r.stderr


def test_prebuild_without_cross_compilers_needs_only_the_standard_library(bare_python, build_lib, tmp_path):
    empty = tmp_path / "bin"
    empty.mkdir()
    built, log = _prebuild(bare_python, build_lib, tmp_path, str(empty))
    assert built == []
    for m in emulated_machines():
        assert f"prebuild: {m.name}: {m.toolchain.cc} not found" in log, log


def test_prebuild_with_cross_compilers_needs_only_the_standard_library(bare_python, build_lib, tmp_path):
    present = [m.name for m in emulated_machines() if shutil.which(m.toolchain.cc)]
    if not present:
        if os.environ.get("CRYPTO_API_REQUIRE_EMULATION") == "1":
            pytest.fail("emulation required but no cross compiler is installed")
        pytest.skip("no cross compiler here")
    built, log = _prebuild(bare_python, build_lib, tmp_path, os.environ["PATH"])
    # the names the installed package looks up (source keys of this source tree)
    assert built == sorted(helper_build._prebuilt_name(arch)[0] + ".gz" for arch in present), log
