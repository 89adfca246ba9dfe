"""The import graph: no cycle in the whole tree, and the core imports no driver or tool.

The core (``crypto_api/`` and ``crypto_api/testmgr/``) is layered like the
kernel's crypto/ framework: the registry announces events on a notifier chain
and the crypto manager (algboss) subscribes the self-test and the template
probe to it; module loading is a hook the loader sets; each type's /proc show
and grab helper live with its frontend.  This test parses every core module
with ``ast``, collects every import (module level, inside functions and
classes, ``from . import x``, ``from .x import y``, ``import crypto_api.x``)
and checks that the graph they form is acyclic.  The same check runs over
the whole tree as it installs (pyproject.toml's package-dir: algs/, arch/,
dmcrypt/, tools/ beside crypto_api/): no circle anywhere, lazy imports
included.  The one import the checker does not see is the core's PEP 562
re-export (``crypto_api._LAZY``, read by its module ``__getattr__``), which
tests/dmcrypt/test_package.py checks loads nothing at ``import crypto_api``.

Rules for an edge A -> B: ``from P import n`` goes to ``P.n`` when that is a
module of the package, else to ``P`` itself; ``import P.Q`` goes to ``P.Q``;
a package that is an ancestor of A is not an edge when only its submodules
are named (Python initialises it before A anyway), but importing a name from
it (``from .. import x`` where x is not a module) is.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Dict, List, Optional, Set

import pytest

PACKAGE = "crypto_api"
ROOT = Path(__file__).resolve().parents[2]
CORE_DIR = ROOT / PACKAGE                                   # the source tree, not an install
# The drivers, the dm-crypt package and the tools install as crypto_api.algs/
# arch/dmcrypt/tools: they may import the core freely; the core must never
# import them.
OUTSIDE_CORE = ("crypto_api.algs", "crypto_api.arch", "crypto_api.dmcrypt", "crypto_api.tools")


def core_modules(root: Path = CORE_DIR) -> Dict[str, Path]:
    """Dotted module name -> file, for crypto_api/*.py and its sub-packages there."""
    found: Dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join([PACKAGE, *parts])] = path
    return found


def package_dirs(pyproject: Path = ROOT / "pyproject.toml") -> Dict[str, Path]:
    """``[tool.setuptools.package-dir]``: dotted package -> its folder in the tree,
    and each sub-folder of one that is a package (``crypto_api.arch.<dir>``:
    setup.py packages every ``arch/<dir>`` with an ``__init__.py``)."""
    text = pyproject.read_text(encoding="utf-8")
    section = text.split("[tool.setuptools.package-dir]", 1)[1].split("\n[", 1)[0]
    found = {m.group(1): ROOT / m.group(2)
             for m in re.finditer(r'^\s*"([\w.]+)"\s*=\s*"([^"]+)"', section, re.M)}
    assert found, "no package-dir table in pyproject.toml"
    for package, folder in list(found.items()):
        for init in sorted(folder.glob("*/**/__init__.py")):
            sub = init.parent.relative_to(folder)
            found.setdefault(".".join([package, *sub.parts]), init.parent)
    return found


def tree_modules() -> Dict[str, Path]:
    """Every module that installs under crypto_api: the core, and each
    package-dir folder's ``*.py`` under its dotted name."""
    found = core_modules()
    for package, folder in package_dirs().items():
        for path in sorted(folder.glob("*.py")):
            found[package if path.stem == "__init__" else f"{package}.{path.stem}"] = path
    return found


def _is_package(name: str, modules: Dict[str, Path]) -> bool:
    path = modules.get(name)
    return path is not None and path.name == "__init__.py"


def _resolve(importer: str, level: int, module: Optional[str], modules: Dict[str, Path]) -> str:
    """The absolute name a relative ``from`` import refers to."""
    if level == 0:
        return module or ""
    base = importer.split(".")
    if not _is_package(importer, modules):
        base = base[:-1]                      # a plain module: "." is its package
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def imports_of(importer: str, source: str, modules: Dict[str, Path]) -> Set[str]:
    """Every crypto_api.* name ``importer`` imports, anywhere in its text."""
    targets: Set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                targets.add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(importer, node.level, node.module, modules)
            names_a_module_only = True
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                if sub in modules or sub.startswith(OUTSIDE_CORE):
                    targets.add(sub)
                else:
                    names_a_module_only = False
            if not names_a_module_only:
                targets.add(base)            # a name defined by the package's own code
    for t in list(targets):                  # packages on the way run their __init__ first,
        parts = t.split(".")                 # unless they are the importer's own ancestors
        for i in range(1, len(parts)):
            prefix = ".".join(parts[:i])
            if not importer.startswith(prefix + ".") and prefix != importer:
                targets.add(prefix)
    return {t for t in targets if t == PACKAGE or t.startswith(PACKAGE + ".")}


def import_graph(modules: Optional[Dict[str, Path]] = None) -> Dict[str, Set[str]]:
    modules = core_modules() if modules is None else modules
    return {name: imports_of(name, path.read_text(encoding="utf-8"), modules) - {name}
            for name, path in modules.items()}


def find_cycle(graph: Dict[str, Set[str]]) -> Optional[List[str]]:
    """One cycle as [a, b, ..., a], or None; iterative depth-first search."""
    WHITE, GREY, BLACK = 0, 1, 2
    colour = {n: WHITE for n in graph}
    for start in sorted(graph):
        if colour[start] != WHITE:
            continue
        path = [start]
        stack = [iter(sorted(graph[start] & graph.keys()))]
        colour[start] = GREY
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                colour[path.pop()] = BLACK
                stack.pop()
            elif colour[nxt] == GREY:
                return path[path.index(nxt):] + [nxt]
            elif colour[nxt] == WHITE:
                colour[nxt] = GREY
                path.append(nxt)
                stack.append(iter(sorted(graph[nxt] & graph.keys())))
    return None


def all_cycles(graph: Dict[str, Set[str]]) -> List[List[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    on_stack: Set[str] = set()
    stack: List[str] = []
    out: List[List[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root] & graph.keys())))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, it = work[-1]
            child = next(it, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = []
                    while True:
                        n = stack.pop()
                        on_stack.discard(n)
                        comp.append(n)
                        if n == node:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
            elif child not in index:
                index[child] = low[child] = counter
                counter += 1
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph[child] & graph.keys()))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return out


# ---------------------------------------------------------------- the checker itself

def _fake_package(tmp_path: Path, files: Dict[str, str]) -> Dict[str, Path]:
    for rel, text in files.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return core_modules(tmp_path)


def test_checker_sees_imports_inside_functions_and_every_form(tmp_path):
    mods = _fake_package(tmp_path, {
        "__init__.py": "from . import a\n",
        "a.py": "def f():\n    from .b import thing\n",
        "b.py": "class C:\n    def m(self):\n        import crypto_api.sub.c\n",
        "sub/__init__.py": "",
        "sub/c.py": "def g():\n    from .. import a\n",
        "sub/d.py": "from .. import a as _a, CONSTANT\n",
    })
    graph = import_graph(mods)
    assert graph["crypto_api.a"] == {"crypto_api.b"}
    assert graph["crypto_api.b"] == {"crypto_api.sub", "crypto_api.sub.c"}
    assert graph["crypto_api.sub.c"] == {"crypto_api.a"}
    # a name that is not a module comes from the package's __init__: an edge to it
    assert graph["crypto_api.sub.d"] == {"crypto_api.a", "crypto_api"}
    assert find_cycle(graph) == ["crypto_api.a", "crypto_api.b", "crypto_api.sub.c", "crypto_api.a"]
    assert graph["crypto_api.sub"] == set()
    assert all_cycles(graph) == [["crypto_api.a", "crypto_api.b", "crypto_api.sub.c"]]


def test_checker_counts_a_sibling_package_init_but_not_an_ancestor(tmp_path):
    mods = _fake_package(tmp_path, {
        "__init__.py": "from . import reg, mgr\n",
        "reg.py": "from .mgr import level\n",          # runs mgr/__init__ first: an edge
        "mgr/__init__.py": "def t():\n    from ..reg import x\n",
        "mgr/level.py": "from . import other\n",         # its own package: no edge
        "mgr/other.py": "",
    })
    graph = import_graph(mods)
    assert graph["crypto_api.reg"] == {"crypto_api.mgr", "crypto_api.mgr.level"}
    assert graph["crypto_api.mgr.level"] == {"crypto_api.mgr.other"}
    assert find_cycle(graph) == ["crypto_api.mgr", "crypto_api.reg", "crypto_api.mgr"]


def test_checker_passes_a_layered_package(tmp_path):
    mods = _fake_package(tmp_path, {
        "__init__.py": "from . import low, high\nfrom .high import api\n",
        "low.py": "hook = None\n",
        "high.py": "from . import low\ndef api():\n    from .low import hook\n",
    })
    graph = import_graph(mods)
    assert find_cycle(graph) is None and all_cycles(graph) == []


# ---------------------------------------------------------------- the real core

def test_the_core_has_no_import_cycle():
    graph = import_graph()
    assert "crypto_api.registry" in graph and "crypto_api.testmgr" in graph
    cycles = all_cycles(graph)
    cycle = find_cycle(graph)
    assert cycle is None, ("import cycle in crypto_api: " + " -> ".join(cycle)
                           + "\nstrongly connected groups: " + "; ".join(", ".join(c) for c in cycles))


def test_the_core_imports_no_driver_or_tool():
    bad = sorted((src, dst) for src, dsts in import_graph().items() for dst in dsts
                 if dst.startswith(OUTSIDE_CORE))
    assert not bad, f"core modules import drivers/tools: {bad}"


@pytest.mark.parametrize("low", ["crypto_api.registry", "crypto_api.notifier", "crypto_api.template"])
def test_low_layers_import_no_frontend_manager_or_loader(low):
    """The layering the notifier buys: the registry, the notifier chain and the
    template machinery reach neither the frontends, nor the self-test manager,
    nor the module loader, even through other modules."""
    graph = import_graph()
    seen, todo = set(), [low]
    while todo:
        n = todo.pop()
        for m in graph.get(n, ()):
            if m not in seen:
                seen.add(m)
                todo.append(m)
    above = {"crypto_api", "crypto_api.skcipher", "crypto_api.shash", "crypto_api.cipher",
             "crypto_api.testmgr", "crypto_api.modules", "crypto_api.algboss", "crypto_api.proc"}
    assert not seen & above, f"{low} reaches {sorted(seen & above)}"


# ---------------------------------------------------------------- the whole tree

def test_the_tree_is_every_installed_folder():
    dirs = package_dirs()
    assert {"crypto_api.algs", "crypto_api.arch.x86", "crypto_api.dmcrypt", "crypto_api.tools"} <= dirs.keys()
    mods = tree_modules()
    for package, folder in dirs.items():
        assert (folder / "__init__.py").is_file() and package in mods, package
    assert {"crypto_api.tools.speed_targets", "crypto_api.dmcrypt.sector",
            "crypto_api.algs.sector_batch", "crypto_api.registry"} <= mods.keys()
    assert not any(str(p).startswith(str(ROOT / "tests")) for p in mods.values())


def test_the_whole_tree_has_no_import_cycle():
    graph = import_graph(tree_modules())
    assert graph["crypto_api.algs.sector_batch"] >= {"crypto_api.dmcrypt.sector_batch", "crypto_api"}
    cycles = all_cycles(graph)
    assert cycles == [], "import circles: " + "; ".join(" <-> ".join(c) for c in cycles)


def test_a_circle_through_a_lazy_import_in_the_tools_is_found(tmp_path):
    """The shape speed_aria/speed_targets had: a module-level import one way,
    one inside a function the other way."""
    mods = _fake_package(tmp_path, {
        "__init__.py": "",
        "ui/__init__.py": "",
        "ui/targets.py": "def resolve():\n    from .aria import Pin\n",
        "ui/aria.py": "from .targets import Target\n",
    })
    assert all_cycles(import_graph(mods)) == [["crypto_api.ui.aria", "crypto_api.ui.targets"]]
