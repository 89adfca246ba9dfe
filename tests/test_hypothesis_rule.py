"""The tests' own rule: inside a hypothesis ``@given`` test, random data comes from
strategies, never from ``os.urandom``, ``random`` or ``secrets`` (a failure could
not be shrunk or replayed from hypothesis's database).

Every test module is parsed; each function decorated with ``given`` is searched
for a use of those sources, by module attribute or by a name imported from them.
"""

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
#: module -> attributes that are random sources (None: every attribute)
SOURCES = {"os": {"urandom", "getrandom"}, "random": None, "secrets": None}


def _is_given(fn) -> bool:
    for d in fn.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if name == "given":
            return True
    return False


def _imported_sources(tree) -> set:
    """Names bound by ``from os import urandom`` / ``from random import ...`` in the module."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in SOURCES:
            allowed = SOURCES[node.module]
            names |= {a.asname or a.name for a in node.names if allowed is None or a.name in allowed}
    return names


def violations(source: str, filename: str = "<test>") -> list:
    tree = ast.parse(source, filename)
    bare = _imported_sources(tree)
    found = []
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or not _is_given(fn):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.value.id in SOURCES:
                allowed = SOURCES[node.value.id]
                if allowed is None or node.attr in allowed:
                    found.append(f"{filename}:{node.lineno}: {fn.name} uses {node.value.id}.{node.attr}")
            elif isinstance(node, ast.Name) and node.id in bare:
                found.append(f"{filename}:{node.lineno}: {fn.name} uses {node.id}")
    return found


def test_the_checker_sees_each_kind_of_use():
    src = (
        "import os, random\nfrom secrets import token_bytes as tb\n"
        "@given(st.integers())\ndef t1(n): os.urandom(n)\n"
        "@settings()\n@given(n=st.integers())\ndef t2(n): random.Random(n)\n"
        "@hypothesis.given(st.integers())\ndef t3(n): tb(n)\n"
        "def plain(): os.urandom(3)\n"
        "@given(st.integers())\ndef fine(n): os.path.join('a')\n")
    assert [v.split(": ", 1)[1] for v in violations(src)] == [
        "t1 uses os.urandom", "t2 uses random.Random", "t3 uses tb"]


def test_no_given_test_draws_from_os_urandom_random_or_secrets():
    found = []
    for path in sorted(TESTS.rglob("*.py")):
        found += violations(path.read_text(encoding="utf-8"), str(path.relative_to(TESTS)))
    assert found == []
