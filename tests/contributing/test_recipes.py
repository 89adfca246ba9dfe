"""docs/contributing.md's recipes, followed on a copy of the project.

The copy: this source tree (its tests included) copied with shutil, no git
needed, leaving out .venv, build/, dist/, built extensions and caches.  Every
block of the page with ``file=`` is applied to it in page order (the
conventions: tests/recipe_blocks.py).  Two steps the page gives in words are
done here as a reader would: the ``Total:`` line of
crypto_api/testmgr/vectors/README.md raised by each new vector file's count.

The venv: ``python -m venv --without-pip``, plus one ``.pth`` line naming this
interpreter's site-packages, so cffi, setuptools, attrs, tqdm, pytest and
hypothesis are there and nothing is downloaded.  Python does not process the
``.pth`` files of a directory added that way, so this checkout's editable
install (a finder that a ``.pth`` file there activates) stays inactive, and the
copy's own metadata comes first on ``sys.path``: its entry points are the ones
found.  ``pip`` in the venv's bin runs this interpreter's pip for the venv's
python (``pip --python``).  The helpers of the emulated machines are cached in
a directory of the copy's own (``CRYPTO_API_CACHE``).

The build: the page's install command, once for the module (a fixture): it
compiles every C extension, about 70 s of the two to three minutes this file
takes on a 2-core machine.

The checks: each ```sh block of the page names its test here (``tested-by=``).
That test asserts that the block's lines are its own lines below (the same
text), then runs them in the copy with the venv's bin first on PATH.  Each
```python ``requires=`` block runs in a fresh interpreter of the venv.  Last, a
wrong digest planted in crc32c.json and a wrong ciphertext in aes-ofb.json must
make the self-tests of every crc32c driver (host, arm64, x86emu) and of
ofb(aes) fail.

Skips: the crc32c-sse42 checks need SSE4.2; the arm64 ones qemu-user and the
aarch64 cross compiler; the x86emu ones an x86-64 host with qemu-x86_64 and
x86_64-linux-gnu-gcc with a static libc.  Under CRYPTO_API_REQUIRE_EMULATION=1
the missing tools fail the test instead.

Not checked here: the steps the page leaves to the reader (help text,
docstrings, README, .ci/run, a new machine's own tests).  The page's
``python requires=`` blocks name the test here that runs them
(``tested-by=``), so the docs runner leaves them to it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Dict, List, Optional

import pytest

import recipe_blocks
from arm64_emulation import REQUIRE_VAR, require_emulation
from crypto_api.arch.x86.cpufeature import boot_cpu_has
from crypto_api.machine import host_arch
from crypto_api.machine.helper_build import missing_tools

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "contributing.md"
THIS = "tests/contributing/test_recipes.py"
IGNORE = shutil.ignore_patterns(".venv", "build", "dist", "*.so", "*.o", "*.egg-info", "__pycache__",
                                ".pytest_cache", ".hypothesis", ".git")

#: The command lines of each ```sh block of the page, by the test that runs them.
COMMANDS: Dict[str, tuple] = {
    "test_the_vector_sets_are_listed": (
        "python -m pytest tests/test_readme_vectors.py -q",
    ),
    "test_the_build_installs_the_recipes": (
        "pip install --no-build-isolation -e .",
    ),
    "test_the_x86_driver_is_chosen_and_passes": (
        "crypto-api selftest crc32c",
        "python -m pytest tests/algs/test_crc32c.py -q",
        'python -m pytest tests/algs/test_build_flags.py -q -k "crc32c or every_module or every_c_file"',
    ),
    "test_the_arm64_driver_is_chosen_and_passes": (
        "crypto-api selftest --arch arm64 crc32c",
    ),
    "test_the_template_is_instantiated_and_passes": (
        "crypto-api selftest 'ofb(aes)'",
    ),
    "test_the_machine_boots_and_its_driver_passes": (
        "crypto-api selftest --arch x86emu crc32c",
    ),
    "test_running_part_of_the_suite": (
        'python -m pytest tests/algs/test_crc32c.py::test_vectors -q -k "not generic"',
        "CRYPTO_API_CPU_MASK=sse4_2 python -m pytest tests/algs/test_crc32c.py -q",
        'CRYPTO_API_REQUIRE_EMULATION=1 python -m pytest tests/arch/arm64/test_backend.py -q -k "buffers or features"',
        "crypto-api selftest --full --iterations 20 --seed 1 crc32c",
    ),
}


def page_blocks() -> List[recipe_blocks.Block]:
    return recipe_blocks.blocks(PAGE.read_text(encoding="utf-8"))


def sh_block(test: str) -> List[str]:
    """The command lines of the page's ```sh block run by ``test``."""
    found = [b for b in page_blocks() if b.lang == "sh" and b.options.get("tested-by") == f"{THIS}::{test}"]
    assert len(found) == 1, f"{len(found)} ```sh blocks of the page name {test}"
    return recipe_blocks.commands(found[0])


def python_block(requires: str) -> str:
    found = [b for b in page_blocks() if b.lang == "python" and b.options.get("requires") == requires]
    assert len(found) == 1, f"{len(found)} ```python blocks of the page require {requires}"
    return found[0].text


# --------------------------------------------------------------------------
# The page itself (no build)

def test_every_sh_block_is_run_by_a_test_here_with_the_same_lines():
    runs = {}
    for b in page_blocks():
        if b.lang == "sh":
            target = b.options.get("tested-by", "")
            assert target.startswith(THIS + "::"), f"{b}: not tested by {THIS}"
            name = target.split("::", 1)[1]
            assert name in COMMANDS and name in globals(), f"{b}: no test {name} here"
            runs[name] = recipe_blocks.commands(b)
    assert runs == {name: list(lines) for name, lines in COMMANDS.items()}


def test_no_python_block_of_the_page_runs_in_this_checkout():
    """Every ```python block is a file to write or a check of something the
    recipes add (``requires=``), which this checkout does not have."""
    for b in page_blocks():
        if b.lang == "python":
            assert b.path or b.options.get("requires"), f"{b}: neither file= nor requires="


def test_a_new_machine_is_its_directory_and_one_line():
    """The machine recipe (section 4) writes the machine's directory and, outside
    it, only pyproject.toml: one line for the machine's descriptor and one per
    driver (the copy's build and checks below show that this is enough)."""
    text = PAGE.read_text(encoding="utf-8")
    first = text.count("\n", 0, text.index("\n## 4. ")) + 1
    last = text.count("\n", 0, text.index("\n## 5. ")) + 1
    blocks = [b for b in page_blocks() if b.path and first <= b.line <= last]
    assert {"arch/x86emu/__init__.py", "arch/x86emu/machine.py"} <= {b.path for b in blocks}
    outside = [b for b in blocks if not b.path.startswith("arch/x86emu/")]
    assert [b.path for b in outside] == ["pyproject.toml"] * len(outside)
    lines = {b.options.get("append-to"): [line for line in b.text.splitlines() if line.strip()] for b in outside}
    assert len(lines) == len(outside)
    assert lines.pop('[project.entry-points."crypto_api.machines"]') == [
        'x86emu = "crypto_api.arch.x86emu.machine:MACHINE"']
    assert list(lines) == ['[project.entry-points."crypto_api.modules"]']
    for line in lines['[project.entry-points."crypto_api.modules"]']:     # the machine's drivers only
        assert line.split("=", 1)[1].strip().strip('"').startswith("crypto_api.arch.x86emu."), line


# --------------------------------------------------------------------------
# The copy, built once

class Copy:
    def __init__(self, root: Path, venv: Path, env: Dict[str, str]) -> None:
        self.root = root
        self.venv = venv
        self.env = env
        self.python = venv / "bin" / "python"

    def sh(self, line: str, check: bool = True) -> subprocess.CompletedProcess:
        """One command line of the page, run by bash in the copy's root."""
        r = subprocess.run(["bash", "-c", line], cwd=self.root, env=self.env, capture_output=True, text=True)
        if check:
            assert r.returncode == 0, f"{line}: exit {r.returncode}\n{r.stdout[-4000:]}\n{r.stderr[-4000:]}"
        return r

    def run_block(self, test: str) -> List[subprocess.CompletedProcess]:
        lines = sh_block(test)
        assert lines == list(COMMANDS[test]), "the page's block and this test's lines differ"
        return [self.sh(line) for line in lines]

    def check(self, requires: str, cwd: Path) -> None:
        """The page's ```python requires=... block, in a fresh interpreter of the venv."""
        r = subprocess.run([str(self.python), "-c", python_block(requires)], cwd=cwd, env=self.env,
                           capture_output=True, text=True)
        assert r.returncode == 0, f"the check requiring {requires} failed:\n{r.stdout}\n{r.stderr}"


def _apply_the_page(root: Path) -> None:
    new_vectors: List[int] = []
    for b in page_blocks():
        if not b.path:
            continue
        recipe_blocks.apply(b, root)
        if re.fullmatch(r"crypto_api/testmgr/vectors/[^/]+\.json", b.path) and len(b.options) == 1:
            new_vectors.append(json.loads(b.text)["count"])
    # the steps the page gives in words
    readme = root / "crypto_api" / "testmgr" / "vectors" / "README.md"
    text, n = re.subn(r"Total: ([\d,]+) vectors in (\d+) files",
                      lambda m: (f"Total: {int(m.group(1).replace(',', '')) + sum(new_vectors):,} vectors "
                                 f"in {int(m.group(2)) + len(new_vectors)} files"),
                      readme.read_text(encoding="utf-8"))
    assert n == 1, "vectors/README.md has no Total line as the page says"
    readme.write_text(text, encoding="utf-8")


def _venv(path: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(path)], check=True)
    py = path / "bin" / "python"
    site = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    Path(site, "_recipes_dev_site.pth").write_text("".join(p + "\n" for p in sorted(ours)))
    pip = path / "bin" / "pip"
    pip.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m pip --python "{py}" "$@"\n')
    pip.chmod(0o755)
    return path


@pytest.fixture(scope="module")
def copy(tmp_path_factory) -> Copy:
    base = tmp_path_factory.mktemp("recipes")
    root = base / "project"
    shutil.copytree(ROOT, root, ignore=IGNORE)
    _apply_the_page(root)
    venv = _venv(base / "venv")
    # a reader's shell: the default kernel, not the suite's pin (tests/conftest.py)
    env = {k: v for k, v in os.environ.items()
           if k not in ("CRYPTO_API_ARCH", "CRYPTO_API_CPU", "CRYPTO_API_KERNEL", "PYTHONPATH", "VIRTUAL_ENV",
                        "PYTHONHOME")}
    env.update(PATH=str(venv / "bin") + os.pathsep + os.environ.get("PATH", ""),
               CRYPTO_API_CACHE=str(base / "cache"), PIP_DISABLE_PIP_VERSION_CHECK="1")
    c = Copy(root, venv, env)
    c.run_block("test_the_build_installs_the_recipes")
    return c


def selftest_rows(stdout: str) -> List[tuple]:
    """(driver, alg, result) of each row of ``crypto-api selftest``'s table, in order."""
    lines = stdout.splitlines()
    head = next(i for i, line in enumerate(lines) if line.split()[:3] == ["driver", "alg", "result"])
    rows = []
    for line in lines[head + 1:]:
        if not line.strip() or re.match(r"\d+ drivers: ", line):
            break
        rows.append(tuple(line.split()[:3]))
    return rows


def x86emu_missing(tmp_path: Path) -> Optional[str]:
    """Why this host cannot build and run the x86emu helper, or None."""
    cc, qemu = shutil.which("x86_64-linux-gnu-gcc"), shutil.which("qemu-x86_64")
    if host_arch() != "x86_64":
        return f"the host is {host_arch()}; the recipe's toolchain is the native x86-64 gcc"
    if cc is None or qemu is None:
        return "missing " + ", ".join(t for t, p in (("x86_64-linux-gnu-gcc", cc), ("qemu-x86_64", qemu))
                                      if p is None)
    (tmp_path / "t.c").write_text("int main(void) { return 0; }\n")
    r = subprocess.run([cc, "-static", "-o", str(tmp_path / "t"), str(tmp_path / "t.c")],
                       capture_output=True, text=True)
    if r.returncode:
        return f"{cc} cannot link statically (libc6-dev): {r.stderr.strip()[-300:]}"
    return None


def require_x86emu(tmp_path: Path) -> None:
    """Skip, or fail under CRYPTO_API_REQUIRE_EMULATION=1, unless x86emu can run here."""
    why = x86emu_missing(tmp_path)
    if why is None:
        return
    if os.environ.get(REQUIRE_VAR) == "1":
        pytest.fail(f"x86emu emulation unavailable: {why} ({REQUIRE_VAR}=1 requires it)")
    pytest.skip(f"x86emu emulation unavailable: {why}")


def host_drivers() -> List[str]:
    """The crc32c drivers of this host, highest priority first."""
    return (["crc32c-sse42"] if boot_cpu_has("sse4_2") else []) + ["crc32c-generic"]


# --------------------------------------------------------------------------
# The recipes, in the page's order

def test_the_build_installs_the_recipes(copy):
    """The fixture ran the install line; the copy's metadata lists the new modules."""
    probe = ("from importlib import metadata; print(' '.join(sorted(ep.name for ep in "
             "metadata.entry_points(group='crypto_api.modules'))))")
    names = subprocess.run([str(copy.python), "-c", probe], env=copy.env, cwd=copy.root.parent,
                           capture_output=True, text=True, check=True).stdout.split()
    for module in ("crc32c_generic", "crc32c_sse42", "crc32c_arm64", "ofb", "crc32c_x86emu"):
        assert module in names
    where = subprocess.run([str(copy.python), "-c", "import crypto_api; print(crypto_api.__file__)"],
                           env=copy.env, cwd=copy.root.parent, capture_output=True, text=True, check=True)
    assert Path(where.stdout.strip()).is_relative_to(copy.root), (where.stdout, copy.root)


def test_the_vector_sets_are_listed(copy):
    out = copy.run_block("test_the_vector_sets_are_listed")[0].stdout
    assert re.search(r"\b3 passed\b", out), out


def test_the_x86_driver_is_chosen_and_passes(copy, tmp_path):
    selftest, own, flags = copy.run_block("test_the_x86_driver_is_chosen_and_passes")
    assert selftest_rows(selftest.stdout) == [(d, "crc32c", "passed") for d in host_drivers()]
    want = r"\b14 passed\b" if boot_cpu_has("sse4_2") else r"\b7 passed, 7 skipped\b"
    assert re.search(want, own.stdout), own.stdout
    assert re.search(r"\b\d+ passed\b", flags.stdout) and "failed" not in flags.stdout, flags.stdout
    if boot_cpu_has("sse4_2"):
        copy.check("crc32c-sse42", tmp_path)


def test_the_arm64_driver_is_chosen_and_passes(copy, tmp_path):
    require_emulation("arm64")
    (selftest,) = copy.run_block("test_the_arm64_driver_is_chosen_and_passes")
    assert selftest_rows(selftest.stdout) == [("crc32c-arm64", "crc32c", "passed"),
                                              ("crc32c-generic", "crc32c", "passed")]
    copy.check("crc32c-arm64", tmp_path)


def test_the_template_is_instantiated_and_passes(copy, tmp_path):
    (selftest,) = copy.run_block("test_the_template_is_instantiated_and_passes")
    rows = selftest_rows(selftest.stdout)
    assert len(rows) == 1 and rows[0][1:] == ("ofb(aes)", "passed"), rows
    assert re.fullmatch(r"ofb\(aes-\w+\)", rows[0][0]), rows
    copy.check("ofb(aes)", tmp_path)


def test_the_machine_boots_and_its_driver_passes(copy, tmp_path):
    require_x86emu(tmp_path)
    (selftest,) = copy.run_block("test_the_machine_boots_and_its_driver_passes")
    assert selftest_rows(selftest.stdout) == [("crc32c-x86emu", "crc32c", "passed"),
                                              ("crc32c-generic", "crc32c", "passed")]
    copy.check("crc32c-x86emu", tmp_path)


def test_running_part_of_the_suite(copy):
    require_emulation("arm64")
    one, masked, emulated, full = copy.run_block("test_running_part_of_the_suite")
    sse42 = "6 passed" if boot_cpu_has("sse4_2") else "6 skipped"
    assert re.search(rf"\b{sse42}, 6 deselected\b", one.stdout), one.stdout
    assert re.search(r"\b7 passed, 7 skipped\b", masked.stdout), masked.stdout
    assert re.search(r"\b2 passed\b", emulated.stdout), emulated.stdout
    assert "level full, 20 fuzz iterations, seed 1" in full.stdout
    assert selftest_rows(full.stdout) == [(d, "crc32c", "passed") for d in host_drivers()]


def _plant(path: Path, field: str) -> str:
    """Change the last hex digit of ``field`` in the file's first vector; returns the old text."""
    old = path.read_text(encoding="utf-8")
    data = json.loads(old)
    value = data["vectors"][0][field]
    data["vectors"][0][field] = value[:-1] + "0123456789abcdef"[(int(value[-1], 16) + 1) % 16]
    path.write_text(json.dumps(data), encoding="utf-8")
    return old


def test_a_planted_wrong_vector_fails_the_self_tests(copy, tmp_path):
    """The same self-tests fail once a vector is wrong: the checks above can fail.
    (The machines whose tools are missing here are left out; their own tests say so.)"""
    vectors = copy.root / "crypto_api" / "testmgr" / "vectors"
    runs = {"crypto-api selftest crc32c": [(d, "crc32c", "FAILED") for d in host_drivers()]}
    if not missing_tools("arm64"):
        runs["crypto-api selftest --arch arm64 crc32c"] = [("crc32c-arm64", "crc32c", "FAILED"),
                                                           ("crc32c-generic", "crc32c", "FAILED")]
    if x86emu_missing(tmp_path) is None:
        runs["crypto-api selftest --arch x86emu crc32c"] = [("crc32c-x86emu", "crc32c", "FAILED"),
                                                            ("crc32c-generic", "crc32c", "FAILED")]
    crc = _plant(vectors / "crc32c.json", "digest")
    ofb = _plant(vectors / "aes-ofb.json", "ciphertext")
    try:
        for line, want in runs.items():
            r = copy.sh(line, check=False)
            assert r.returncode == 1 and selftest_rows(r.stdout) == want, f"{line}:\n{r.stdout}\n{r.stderr}"
        r = copy.sh("crypto-api selftest 'ofb(aes)'", check=False)
        rows = selftest_rows(r.stdout)
        assert r.returncode == 1 and len(rows) == 1 and rows[0][1:] == ("ofb(aes)", "FAILED"), r.stdout
    finally:
        (vectors / "crc32c.json").write_text(crc, encoding="utf-8")
        (vectors / "aes-ofb.json").write_text(ofb, encoding="utf-8")
