"""Each arch owns its arch: what a machine is lives in ``arch/<dir>/``, nowhere in the core.

Three properties, checked on the source tree:

* The core (every ``crypto_api/**/*.py``) names no machine in its code: no
  identifier and no string literal other than a docstring holds a word of a
  registered machine's vocabulary (its name and aliases, its package's
  directory, its SIMD units and their begin/end functions, its compiler and
  qemu binary, its CPU models).  The words come from the machines' own
  descriptors (crypto_api.machine.known), so a fifth machine's are checked
  as soon as it registers.  Comments and docstrings may name machines (as
  examples, or the kernel file a module mirrors).  :data:`ALLOWED` lists the
  exceptions, each with its reason; it is empty: nothing in the core needs a
  machine's name, not even the host's (x86_64 is found as any host is, by
  ``platform.machine()`` and the machines' names and aliases).
* No machine's package imports another machine's package (arm and ppc64le
  used to import arm64's glue); what two machines share lives in
  ``arch/common/`` (crypto_api.arch.common), which is no machine's.
* No machine's cores build a C file of another machine's directory, nor
  include one with ``-I`` (arm's used to build arm64's nh_neon.c).
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path
from typing import Dict, Iterator, List, Set, Tuple

import pytest

from crypto_api.machine import emulated_machines, machines
from crypto_api.machine.core import arch_cores, arch_dir

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "crypto_api"

#: Words of a machine's vocabulary that are everyday words of the core too:
#: "max" is qemu's every-feature CPU model of many targets, and Python's max().
COMMON_WORDS = {"max"}

#: (file relative to the root, word) -> why the core may say it there.  None are needed.
ALLOWED: Dict[Tuple[str, str], str] = {}


def vocabulary() -> Dict[str, str]:
    """word (lower case) -> the machine whose descriptor says it."""
    words: Dict[str, str] = {}
    for spec in machines().values():
        said = [spec.name, *spec.aliases, spec.package.rsplit(".", 1)[-1], spec.default_cpu, *spec.cpu_models]
        for unit in spec.simd_units:
            said += [unit.name, unit.begin, unit.end]
        if spec.toolchain is not None:
            said += [spec.toolchain.cc, spec.toolchain.qemu]
        for w in said:
            if w and w.lower() not in COMMON_WORDS:
                words.setdefault(w.lower(), spec.name)
    return words


def _docstring_nodes(tree: ast.AST) -> Set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                out.add(id(body[0].value))
    return out


def code_words(source: str) -> Iterator[Tuple[int, str]]:
    """(line, text) of every identifier and every string literal but docstrings."""
    tree = ast.parse(source)
    docs = _docstring_nodes(tree)
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            yield line, node.value
        elif isinstance(node, ast.Name):
            yield line, node.id
        elif isinstance(node, ast.Attribute):
            yield line, node.attr
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield line, node.name
        elif isinstance(node, ast.arg):
            yield line, node.arg
        elif isinstance(node, ast.keyword) and node.arg:
            yield line, node.arg
        elif isinstance(node, ast.alias):
            yield line, node.name
            if node.asname:
                yield line, node.asname
        elif isinstance(node, (ast.ImportFrom,)) and node.module:
            yield line, node.module


def mentions(text: str, words: Dict[str, str]) -> List[str]:
    """The vocabulary words ``text`` holds as whole words (``_``, ``-``, ``.`` separate words)."""
    low = text.lower()
    return [w for w in words if re.search(rf"(?<![a-z0-9]){re.escape(w)}(?![a-z0-9])", low)]


def machine_mentions(path: Path, words: Dict[str, str]) -> List[str]:
    rel = path.relative_to(ROOT).as_posix()
    found = []
    for line, text in code_words(path.read_text(encoding="utf-8")):
        for w in mentions(text, words):
            if (rel, w) not in ALLOWED:
                found.append(f"{rel}:{line}: {text!r} names {words[w]} ({w!r})")
    return found


def test_the_vocabulary_is_the_machines_own():
    words = vocabulary()
    for w in ("x86_64", "amd64", "x86", "arm64", "aarch64", "arm", "armv7l", "ppc64le", "ppc64el", "neon",
              "kernel_neon_begin", "vsx", "enable_kernel_vsx", "qemu-aarch64", "powerpc64le-linux-gnu-gcc",
              "cortex-a7", "power9"):
        assert w in words, w
    assert "max" not in words


def test_the_scan_finds_a_machine_named_in_code_and_not_in_docstrings():
    words = vocabulary()
    src = ('"""Mirrors arch/arm64/kernel/fpsimd.c (a docstring may say arm64)."""\n'
           '# a comment may say ppc64le\n'
           'ARCHES = ("x86_64", "riscv64")\n'
           'def _softirq_blocks_simd():\n'
           '    """On arm, no NEON in a softirq."""\n'
           '    return current_machine().arch == "arm"\n'
           'from .fpu import kernel_neon_begin\n'
           'unit = "fpu"; armor = "disarm"\n')
    found = {(line, w) for line, text in code_words(src) for w in mentions(text, words)}
    assert found == {(3, "x86_64"), (3, "x86"), (6, "arm"), (7, "kernel_neon_begin"), (7, "neon")}


def test_the_core_names_no_machine():
    words = vocabulary()
    files = sorted(CORE.rglob("*.py"))
    assert len(files) > 40
    found = [m for f in files for m in machine_mentions(f, words)]
    assert found == [], "the core names machines (their knowledge belongs in arch/<dir>/machine.py):\n" + \
        "\n".join(found)


def test_every_allowed_mention_is_still_there():
    words = vocabulary()
    for (rel, w), why in ALLOWED.items():
        assert why and w in words
        assert any(w in mentions(text, words) for _line, text in code_words((ROOT / rel).read_text())), rel


def _machine_dirs() -> Dict[str, Path]:
    """package -> its directory, for every registered machine."""
    return {spec.package: Path(arch_dir(name)) for name, spec in machines().items()}


def _imports(path: Path, package: str) -> Iterator[Tuple[int, str]]:
    """(line, absolute module) of every import in ``path`` (a module of ``package``)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield node.lineno, a.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
            yield node.lineno, base
            for a in node.names:
                yield node.lineno, f"{base}.{a.name}"


def test_no_machine_imports_another_machines_package():
    dirs = _machine_dirs()
    assert {"crypto_api.arch.arm64", "crypto_api.arch.arm", "crypto_api.arch.ppc64le",
            "crypto_api.arch.x86"} <= set(dirs)
    found = []
    for package, d in dirs.items():
        others = [p for p in dirs if p != package]
        for path in sorted(d.glob("*.py")):
            for line, mod in _imports(path, package):
                hit = [p for p in others if mod == p or mod.startswith(p + ".")]
                if hit:
                    found.append(f"{path.relative_to(ROOT)}:{line}: imports {mod}")
    assert found == [], "\n".join(found)


def test_the_import_scan_sees_an_import_of_arm64(tmp_path):
    src = tmp_path / "glue.py"
    src.write_text("from crypto_api.arch.arm64 import neon_glue\nfrom ..arm64.cores_misc import NH\n")
    mods = [m for _l, m in _imports(src, "crypto_api.arch.arm")]
    assert "crypto_api.arch.arm64.neon_glue" in mods and "crypto_api.arch.arm64.cores_misc" in mods


@pytest.mark.parametrize("arch", [m.name for m in emulated_machines()])
def test_no_machine_builds_another_machines_c(arch):
    own = Path(arch_dir(arch)).resolve()
    others = [d.resolve() for d in _machine_dirs().values() if d.resolve() != own]
    cores = arch_cores(arch)
    assert cores
    for core in cores.values():
        paths = [(own / s).resolve() for s in core.sources]
        paths += [Path(f[2:]).resolve() for f in core.cflags if f.startswith("-I")]
        for p in paths:
            assert p.exists(), (core.name, p)
            bad = [o for o in others if p == o or o in p.parents]
            assert not bad, f"{arch} core {core.name} builds {p}, of another machine's directory"


def test_the_common_package_is_no_machine():
    common = ROOT / "arch" / "common"
    assert (common / "__init__.py").is_file() and not (common / "machine.py").exists()
    assert "crypto_api.arch.common" not in _machine_dirs()
    assert os.path.isfile(common / "nh_neon.c")
