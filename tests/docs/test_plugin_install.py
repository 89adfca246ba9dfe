"""The plug-in example installs as the documentation says: a plain ``pip install``.

The pip commands that README.md, docs/*.md and the example's own README give
are checked to be exactly ``pip install examples/xchacha12_mine`` (no build
flags), the example's build needs only setuptools and cffi, and it depends on
crypto_api by the distribution name crypto_api is published under.  Then the
commands of docs/drivers.md (its ``tested-by=`` block names the test below)
are run literally, by bash, in a fresh virtual environment that holds nothing
but crypto_api (this checkout, registered as an editable install): pip builds
the example in an isolated environment and the installed driver passes its
self-tests.  That part needs a package index (for setuptools and cffi); where
pip can reach none it is skipped, saying so.
"""

import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from default_kernel import default_env

tomllib = pytest.importorskip("tomllib")     # Python 3.11+

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "xchacha12_mine"
COMMAND = "pip install examples/xchacha12_mine"
SELFTEST = "python -m crypto_api selftest xchacha12"


def _name(requirement: str) -> str:
    """The normalised project name of a requirement string (PEP 503)."""
    return re.sub(r"[-_.]+", "-", re.match(r"[A-Za-z0-9._-]+", requirement).group(0)).lower()


def _pip_install_lines(text: str):
    return [line.strip().lstrip("$ ").strip() for line in text.splitlines()
            if re.match(r"\s*(\$ )?pip install .*xchacha12_mine", line)]


def test_the_docs_give_the_plain_command():
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    found = []
    for page in pages + [EXAMPLE / "README.md"]:
        lines = _pip_install_lines(page.read_text(encoding="utf-8"))
        assert set(lines) <= {COMMAND}, f"{page.relative_to(ROOT)}: {lines}"
        found += lines
    assert COMMAND in _pip_install_lines((EXAMPLE / "README.md").read_text(encoding="utf-8"))
    assert len(found) > 1, "the documentation gives the command too"


def test_the_build_needs_only_setuptools_and_cffi_and_the_run_needs_crypto_api():
    example = tomllib.loads((EXAMPLE / "pyproject.toml").read_text(encoding="utf-8"))
    main = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert {_name(r) for r in example["build-system"]["requires"]} == {"setuptools", "cffi"}
    runtime = {_name(r) for r in example["project"]["dependencies"]}
    assert _name(main["project"]["name"]) in runtime and "cffi" in runtime


def _editable_crypto_api(site: Path) -> None:
    """Register this checkout in ``site`` as pip's editable install does (no rebuild)."""
    dist = importlib.metadata.distribution("crypto_api")
    files = [str(f) for f in dist.files or []]
    hooks = [f for f in files if f.startswith("__editable__") and f.endswith((".pth", ".py"))]
    if not hooks:
        pytest.skip("crypto_api is not installed in editable mode here (make test installs it so)")
    source = Path(dist.locate_file(""))
    for f in hooks:
        shutil.copy(source / f, site / f)
    info = next(f.split("/")[0] for f in files if f.split("/")[0].endswith(".dist-info"))
    shutil.copytree(source / info, site / info)


def test_a_plain_pip_install_in_a_fresh_venv_works(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    py = venv / "bin" / "python"
    site = Path(subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    _editable_crypto_api(site)
    work = tmp_path / "repo"
    shutil.copytree(EXAMPLE, work / "examples" / "xchacha12_mine",
                    ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__", "*.so"))
    # the reader's shell: the default kernel, not the suite's pin
    env = default_env(PATH=f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}", VIRTUAL_ENV=str(venv))
    p = subprocess.run(["bash", "-c", COMMAND], cwd=work, env=env, capture_output=True, text=True,
                       timeout=600)
    if p.returncode and re.search(r"No matching distribution found for (setuptools|cffi|attrs|tqdm)"
                                  r"|Failed to establish a new connection", p.stdout + p.stderr):
        pytest.skip("no package index reachable for the build requirements")
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    r = subprocess.run(["bash", "-c", SELFTEST], cwd=tmp_path, env=env, capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "alg: self-tests for xchacha12-mine (xchacha12) passed" in r.stdout
    assert re.search(r"^xchacha12-mine +xchacha12 +passed", r.stdout, re.M), r.stdout
