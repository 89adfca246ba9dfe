"""The tools use the public API, or an internal interface their package names.

Every tools/*.py is parsed with ``ast``; every ``import``/``from ... import``
(module level or inside a function) of a crypto_api module, and every
attribute taken from such a module (``capi.registry.snapshot``, through
``import crypto_api as capi``), must be one of:

* a public name of ``crypto_api`` (``crypto_api.__all__``, dunders such as
  ``__version__``) or of its public module ``testmgr`` (its ``__all__``);
* the tools' own modules (``crypto_api.tools.*``, ``from . import ...``);
* a name of :data:`crypto_api.tools.INTERNAL_INTERFACES`, the one table of
  the internals the tools may use, each entry saying why.

So a tool reaching into a driver (``crypto_api.algs.*``, ``crypto_api.arch.*``)
or a core internal fails here unless that table documents it.  The table is
kept honest too: each entry gives a reason, each name it lists exists in its
module and is used by some tool.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
from functools import lru_cache
from pathlib import Path
from typing import Dict, List, NamedTuple, Optional, Set

import pytest

import crypto_api as capi
from crypto_api.tools import INTERNAL_INTERFACES

TOOLS_DIR = Path(__file__).resolve().parents[2] / "tools"
PACKAGE = "crypto_api.tools"


class Ref(NamedTuple):
    """One use of crypto_api: ``module`` itself (``name`` None) or ``module.name``."""
    module: str
    name: Optional[str]
    line: int


@lru_cache(maxsize=None)
def is_module(dotted: str) -> bool:
    if not dotted.startswith("crypto_api"):
        return False
    try:
        return importlib.util.find_spec(dotted) is not None
    except (ImportError, ValueError, AttributeError):
        return False


def _absolute(importer: str, level: int, module: Optional[str]) -> str:
    if level == 0:
        return module or ""
    base = importer.split(".")[:-level]            # importer is a plain module of its package
    return ".".join(base + ([module] if module else []))


class _Refs(ast.NodeVisitor):
    def __init__(self, importer: str) -> None:
        self.importer = importer
        self.modules: Dict[str, str] = {}          # local name -> crypto_api module it is bound to
        self.refs: List[Ref] = []

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.name.split(".")[0] != "crypto_api":
                continue
            self.refs.append(Ref(alias.name, None, node.lineno))
            if alias.asname:
                self.modules[alias.asname] = alias.name
            else:
                self.modules["crypto_api"] = "crypto_api"

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = _absolute(self.importer, node.level, node.module)
        if base.split(".")[0] != "crypto_api":
            return
        for alias in node.names:
            sub = f"{base}.{alias.name}"
            if sub in INTERNAL_INTERFACES or is_module(sub):
                self.refs.append(Ref(sub, None, node.lineno))
                self.modules[alias.asname or alias.name] = sub
            else:
                self.refs.append(Ref(base, alias.name, node.lineno))

    def visit_Attribute(self, node: ast.Attribute) -> None:
        chain, base = [], node
        while isinstance(base, ast.Attribute):
            chain.append(base.attr)
            base = base.value
        if not (isinstance(base, ast.Name) and base.id in self.modules):
            self.generic_visit(node)
            return
        module = self.modules[base.id]
        for attr in reversed(chain):
            sub = f"{module}.{attr}"
            if sub in INTERNAL_INTERFACES or is_module(sub):
                module = sub
                self.refs.append(Ref(sub, None, node.lineno))
            else:
                self.refs.append(Ref(module, attr, node.lineno))
                break


def crypto_refs(source: str, importer: str) -> List[Ref]:
    visitor = _Refs(importer)
    tree = ast.parse(source)
    for node in ast.walk(tree):                    # bindings first: an import may follow its use
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            visitor.visit(node)
    visitor.refs.clear()
    visitor.visit(tree)
    return visitor.refs


@lru_cache(maxsize=None)
def public_names(module: str) -> Set[str]:
    """``__all__`` of ``module``, else its names without a leading underscore."""
    mod = importlib.import_module(module)
    names = getattr(mod, "__all__", None)
    return set(names) if names is not None else {n for n in vars(mod) if not n.startswith("_")}


PUBLIC_MODULES = {f"crypto_api.{n}" for n in capi.__all__
                  if is_module(f"crypto_api.{n}")}             # testmgr


def refusal(ref: Ref) -> Optional[str]:
    """None where ``ref`` is allowed, else why not."""
    module, name = ref.module, ref.name
    if module == PACKAGE or module.startswith(PACKAGE + "."):
        return None
    if module == "crypto_api":
        if name is None or name in capi.__all__ or (name.startswith("__") and name.endswith("__")):
            return None
        return f"crypto_api.{name} is not a public name (crypto_api.__all__)"
    if module in PUBLIC_MODULES:
        if name is None or name in public_names(module):
            return None
        return f"{module}.{name} is not in {module}.__all__"
    entry = INTERNAL_INTERFACES.get(module)
    if entry is None:
        return f"{module} is neither public nor in crypto_api.tools.INTERNAL_INTERFACES"
    allowed = entry[1]
    if name is None or name in allowed or ("*" in allowed and name in public_names(module)):
        return None
    return f"{module}.{name} is not among the names INTERNAL_INTERFACES allows from {module}: {allowed}"


def tool_files() -> List[Path]:
    files = sorted(TOOLS_DIR.glob("*.py"))
    assert len(files) > 20 and TOOLS_DIR / "disk.py" in files
    return files


def all_refs() -> Dict[Path, List[Ref]]:
    return {f: crypto_refs(f.read_text(encoding="utf-8"), f"{PACKAGE}.{f.stem}") for f in tool_files()}


# ---------------------------------------------------------------- the checker itself

def _refusals(source: str) -> List[str]:
    return [f"{r.line}: {why}" for r in crypto_refs(source, f"{PACKAGE}.planted")
            for why in [refusal(r)] if why]


def test_public_names_and_documented_interfaces_pass():
    source = ("import crypto_api as capi\n"
              "from crypto_api.errors import EINVAL, CryptoError\n"
              "from crypto_api import testmgr, VolumeCipher\n"
              "from .speed_targets import pattern\n"
              "from . import speed_run\n"
              "def f():\n"
              "    from crypto_api.arch.x86.cpufeature import boot_cpu_has\n"
              "    capi.crypto_alloc_skcipher('xts(aes)').free()\n"
              "    capi.registry.snapshot()\n"
              "    testmgr.alg_test('x', 'y', 0, 0)\n"
              "    return capi.__version__\n")
    assert _refusals(source) == []


def test_drivers_and_core_internals_are_refused():
    source = ("import crypto_api as capi\n"
              "from crypto_api.algs.aes_generic import aes_encrypt\n"
              "def f():\n"
              "    from crypto_api.arch.x86 import aria_glue, chacha_glue\n"
              "    aria_glue.ecb_crypt(None, None, True)\n"
              "    capi.registry.lock\n"
              "    capi.ivgen.plain64_iv(7)\n"
              "    import crypto_api.walk\n"
              "    from crypto_api.testmgr import runners\n"
              "    from ..modules import _available\n")
    got = _refusals(source)
    assert [g.split(":")[0] for g in got] == ["2", "4", "5", "6", "7", "8", "9", "10"], got
    assert "crypto_api.algs.aes_generic is neither public" in got[0]
    assert "crypto_api.arch.x86.chacha_glue is neither public" in got[1]
    assert "crypto_api.arch.x86.aria_glue.ecb_crypt is not among" in got[2]
    assert "crypto_api.registry.lock is not among" in got[3]
    assert "crypto_api.ivgen is not a public name" in got[4]
    assert "crypto_api.modules._available is not among" in got[7]


# ---------------------------------------------------------------- the real tools

def test_every_tool_import_is_public_or_documented():
    bad = [f"tools/{f.name}:{r.line}: {why}" for f, refs in all_refs().items()
           for r in refs for why in [refusal(r)] if why]
    assert bad == [], "\n".join(bad)


def test_the_tools_reach_no_driver_but_through_the_table():
    reached = {r.module for refs in all_refs().values() for r in refs
               if r.module.startswith(("crypto_api.algs", "crypto_api.arch"))}
    assert reached and reached <= set(INTERNAL_INTERFACES), reached - set(INTERNAL_INTERFACES)


@pytest.mark.parametrize("module", sorted(INTERNAL_INTERFACES))
def test_each_table_entry_says_why_exists_and_is_used(module):
    why, names = INTERNAL_INTERFACES[module]
    assert len(why.split()) >= 3 and names, f"{module}: no reason or no names"
    uses = [r for refs in all_refs().values() for r in refs if r.module == module]
    assert uses, f"{module}: no tool uses it any more; drop it from INTERNAL_INTERFACES"
    if names == ("*",):
        return
    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin, module
    tree = ast.parse(Path(spec.origin).read_text(encoding="utf-8"))
    defined = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            defined.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            defined |= {t.id for t in targets if isinstance(t, ast.Name)}
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            defined |= {(a.asname or a.name).split(".")[0] for a in node.names}
    used = {r.name for r in uses}
    for name in names:
        assert name in defined, f"{module} defines no {name}"
        assert name in used, f"{module}.{name}: no tool uses it any more; drop it from INTERNAL_INTERFACES"
