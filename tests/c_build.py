"""The project's C build as the tests see it: algs/build_common.py (the
extensions' flags, the host cores and their builders) imported, and small C harnesses
built with those flags and run (tests/arch/test_build_isa.py and
tests/algs/test_wipes.py scan the stack with theirs)."""

from __future__ import annotations

import importlib
import pathlib
import shutil
import subprocess
import sys
from typing import Iterable

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
CC = shutil.which("gcc")


def build_common():
    """algs/build_common.py, imported as algs/build_cores.py imports it."""
    sys.path.insert(0, str(ROOT / "algs"))
    try:
        return importlib.import_module("build_common")
    finally:
        sys.path.remove(str(ROOT / "algs"))


def build_harness(exe: pathlib.Path, sources: Iterable[str], include_dirs: Iterable[str]) -> pathlib.Path:
    """Compile ``sources`` (paths from the project root) into ``exe`` with the
    extensions' CFLAGS; skips where gcc is missing, fails on a build error."""
    if CC is None:
        pytest.skip("gcc is not installed")
    cmd = [CC, *build_common().CFLAGS, *["-I" + str(ROOT / d) for d in include_dirs],
           *[str(ROOT / s) for s in sources], "-o", str(exe)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return exe


def run_residue(exe: pathlib.Path, what: str, length: int) -> int:
    """What a stack-residue harness counts for ``what`` over ``length`` bytes
    (exit 77: the CPU lacks what it needs, a skip)."""
    r = subprocess.run([str(exe), what, str(length)], capture_output=True, text=True)
    if r.returncode == 77:
        pytest.skip(f"the CPU lacks {what}")
    assert r.returncode == 0, r.stderr
    return int(r.stdout)
