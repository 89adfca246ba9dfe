"""The README's install commands, run literally as a new user runs them.

In a copy of the project's source files (tests/source_files.py: no venv, no
build output, no compiled module, no ``.git``), bash runs
:data:`FROM_A_CHECKOUT`: a fresh venv with nothing installed, ``pip install .``
with pip's default build isolation (the build environment holds the build
requirements, not the run-time dependencies), then ``crypto-api --version``
and ``crypto-api selftest``.  Then :data:`FROM_THE_SDIST` in another copy:
``python -m build --sdist`` (the dev venv's python, which has ``build``) and
the sdist installed into another fresh venv.  Only pip's download cache is
shared with this machine.  Each test compiles every C extension and the
emulated machines' helpers once (a few minutes together).

The installed package is checked too: the C headers and the self-test
vectors are in it, and, where a cross compiler is present, the prebuilt
helper the package looks up.  Where pip reaches no package index (for
setuptools, cffi, attrs, tqdm) the tests are skipped, saying so.
"""

import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
import tarfile
from glob import glob

import pytest

from crypto_api.machine import emulated_machines, helper_build
from source_files import ROOT, copy_sources, source_files

#: the README's "Installing" commands, from a checkout (run by bash with set -e)
FROM_A_CHECKOUT = """\
python3 -m venv venv && . venv/bin/activate
pip install .
crypto-api --version
crypto-api selftest
"""

#: the same from the sdist: built in the checkout, installed into a fresh venv
FROM_THE_SDIST = """\
python -m build --sdist
python3 -m venv venv && . venv/bin/activate
pip install dist/crypto_api-*.tar.gz
crypto-api --version
crypto-api selftest
"""

#: data files that must reach the installed package: (source directory, package directory)
DATA_DIRS = (("algs/include", "crypto_api/algs/include"),
             ("crypto_api/testmgr/vectors", "crypto_api/testmgr/vectors"))

NO_INDEX = re.compile(r"No matching distribution found for (setuptools|wheel|cffi|attrs|tqdm)\b")
DEV_BIN = os.path.dirname(sys.executable)


def user_env(dev_python_first: bool):
    """The caller's environment as a new user's shell has it: no active venv, no
    PYTHONPATH or crypto_api settings, no pip option that turns build isolation
    off; the dev venv's bin on PATH only where ``python -m build`` needs it."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTHON", "CRYPTO_API_", "VIRTUAL_ENV"))
           and k not in ("PIP_NO_BUILD_ISOLATION", "PIP_NO_DEPS", "PIP_USER", "PIP_TARGET", "PIP_PREFIX")}
    path = [p for p in env.get("PATH", "").split(os.pathsep)
            if p and os.path.realpath(p) != os.path.realpath(DEV_BIN)]
    env["PATH"] = os.pathsep.join(([DEV_BIN] if dev_python_first else []) + path)
    return env


def run_script(script: str, cwd, env):
    r = subprocess.run(["bash", "-e", "-c", script], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode and NO_INDEX.search(r.stdout):
        pytest.skip(f"pip reaches no package index here: {NO_INDEX.search(r.stdout).group(0)}")
    assert r.returncode == 0, f"bash -e -c {script!r} in {cwd} failed ({r.returncode}):\n{r.stdout[-6000:]}"
    return r.stdout


def check_the_install(out: str, venv) -> None:
    """The command's output and what it installed into ``venv``."""
    assert "Installing build dependencies" in out, out[-3000:]        # pip's default isolation
    version = importlib.metadata.version("crypto_api")
    assert re.search(rf"^crypto-api {re.escape(version)}$", out, re.M), out[-3000:]
    summary = out.strip().splitlines()[-1]
    m = re.fullmatch(r"(\d+) drivers: (\d+) passed, 0 failed, \d+ without tests .*", summary)
    assert m and int(m.group(2)) >= 20, out[-3000:]
    (site,) = glob(os.path.join(venv, "lib", "python*", "site-packages"))
    pkg = os.path.join(site, "crypto_api")
    assert os.path.isfile(os.path.join(pkg, "__init__.py"))
    assert not os.path.exists(os.path.join(site, "__editable__.crypto_api-" + version + ".pth"))
    for src_dir, pkg_dir in DATA_DIRS:
        files = [f[len(src_dir) + 1:] for f in source_files() if f.startswith(src_dir + "/")]
        assert files, src_dir
        assert sorted(os.listdir(os.path.join(site, pkg_dir))) == sorted(files), pkg_dir
    present = [m.name for m in emulated_machines() if shutil.which(m.toolchain.cc)]
    prebuilt = os.path.join(pkg, "machine", "prebuilt")
    found = sorted(os.listdir(prebuilt)) if os.path.isdir(prebuilt) else []
    # built in the isolated build environment, under the keys the package looks up
    assert found == sorted(helper_build._prebuilt_name(arch)[0] + ".gz" for arch in present)


def test_install_from_a_checkout(tmp_path):
    checkout = copy_sources(tmp_path / "crypto_api", ROOT)
    out = run_script(FROM_A_CHECKOUT, checkout, user_env(dev_python_first=False))
    check_the_install(out, checkout / "venv")


def test_install_from_the_sdist(tmp_path):
    checkout = copy_sources(tmp_path / "crypto_api", ROOT)
    out = run_script(FROM_THE_SDIST, checkout, user_env(dev_python_first=True))
    (sdist,) = glob(str(checkout / "dist" / "crypto_api-*.tar.gz"))
    with tarfile.open(sdist) as t:
        names = {n.split("/", 1)[1] for n in t.getnames() if "/" in n}
    for src_dir, _pkg_dir in DATA_DIRS:
        wanted = [f for f in source_files() if f.startswith(src_dir + "/")]
        assert sorted(set(wanted) - names) == [], src_dir
    check_the_install(out, checkout / "venv")
