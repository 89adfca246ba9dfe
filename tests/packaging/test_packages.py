"""setup.py's package list holds every Python package of the tree.

A package that the list missed would be left out of the wheel and fail only
when an installed copy imports it (crypto_api.kernels did, once).
"""

from __future__ import annotations

import os
import runpy
from pathlib import Path

import setuptools

ROOT = Path(__file__).resolve().parents[2]
#: where each installed package's directory lives (pyproject.toml's package-dir)
HOMES = {"crypto_api": "crypto_api", "crypto_api.algs": "algs", "crypto_api.arch": "arch",
         "crypto_api.tools": "tools", "crypto_api.dmcrypt": "dmcrypt"}


def _setup_packages(monkeypatch):
    seen = {}
    monkeypatch.setattr(setuptools, "setup", lambda **kw: seen.update(kw))
    monkeypatch.chdir(ROOT)
    runpy.run_path(str(ROOT / "setup.py"), run_name="setup_for_test")
    return set(seen["packages"])


def _tree_packages():
    found = set()
    for package, home in HOMES.items():
        for path, dirs, files in os.walk(ROOT / home):
            dirs[:] = [d for d in dirs if not d.startswith((".", "__pycache__"))]
            if "__init__.py" in files:
                rel = Path(path).relative_to(ROOT / home)
                found.add(".".join((package, *rel.parts)))
    return found


def test_every_package_of_the_tree_is_packaged(monkeypatch):
    packages = _setup_packages(monkeypatch)
    missing = _tree_packages() - packages
    assert not missing, f"packages the wheel would leave out: {sorted(missing)}"
    assert {"crypto_api.kernels", "crypto_api.testmgr", "crypto_api.arch.x86"} <= packages


def test_the_data_only_packages_are_packaged(monkeypatch):
    packages = _setup_packages(monkeypatch)
    assert {"crypto_api.testmgr.vectors", "crypto_api.algs.include"} <= packages
