"""The recipes of docs/contributing.md as data: their fenced blocks, and the
edits those blocks describe, applied to a copy of the project.

A block's info string says what it is (docs/contributing.md explains the same
to its reader):

* ```LANG file=PATH                    a new file with exactly this content;
* ```LANG file=PATH append-to=NAME     these lines added at the end of a list:
  Python: the list, tuple or dict literal bound to NAME at module level, or
  passed as the keyword argument NAME (setup.py's ``cffi_modules``);
  TOML: NAME is a table header ``[...]`` (the end of that table) or a key whose
  value is an array; Markdown: NAME is a heading's text (the end of the first
  table under it);
* ```LANG file=PATH sorted-into=NAME   Python: one element of the literal NAME,
  which is kept in strcmp order of each element's first string: it goes to its
  place in that order;
* ```LANG file=PATH before=NAME        Python: these lines go before the
  module-level statement that binds NAME (and the comment lines right above it);
* ```sh tested-by=TEST                 commands that TEST runs literally;
* ```python requires=DRIVER            a check to run where DRIVER exists.

An anchor that is missing or ambiguous, a new file that already exists, or an
edit that leaves the file unparsable is a :class:`RecipeError` naming the
block's line in the document.
"""

from __future__ import annotations

import ast
import json
import re
import sys
import textwrap
from pathlib import Path
from typing import Dict, List, Optional

if sys.version_info >= (3, 11):
    import tomllib
else:                                    # pragma: no cover
    tomllib = None

FENCE = re.compile(r"^```(\w+)([^\n]*)\n(.*?)^```\s*$", re.S | re.M)
EDIT_OPTIONS = ("append-to", "sorted-into", "before")


class RecipeError(Exception):
    """A block that cannot be applied as its info string says."""


class Block:
    """One fenced block: language, options (``key=value`` words of the info
    string), text and the line of the document where it starts."""

    def __init__(self, lang: str, options: Dict[str, str], text: str, line: int) -> None:
        self.lang = lang
        self.options = options
        self.text = text
        self.line = line

    @property
    def path(self) -> Optional[str]:
        return self.options.get("file")

    def __repr__(self) -> str:
        opts = " ".join(f"{k}={v}" for k, v in self.options.items())
        return f"<block line {self.line}: {self.lang} {opts}>"


def blocks(text: str) -> List[Block]:
    """Every fenced block with a language, in document order."""
    out = []
    for m in FENCE.finditer(text):
        options = dict(opt.split("=", 1) for opt in m.group(2).split() if "=" in opt)
        out.append(Block(m.group(1), options, m.group(3), text.count("\n", 0, m.start()) + 1))
    return out


def commands(block: Block) -> List[str]:
    """The command lines of a ```sh block (comments and blank lines dropped)."""
    return [line.strip() for line in block.text.splitlines()
            if line.strip() and not line.strip().startswith("#")]


# --------------------------------------------------------------------------
# Applying a block to a tree

def apply(block: Block, root: Path) -> None:
    """Write or edit ``root / block.path`` as the block's info string says."""
    target = root / block.path
    ops = [k for k in EDIT_OPTIONS if k in block.options]
    if len(ops) > 1:
        raise RecipeError(f"{block}: more than one of {', '.join(EDIT_OPTIONS)}")
    if not ops:
        if target.exists():
            raise RecipeError(f"{block}: {block.path} exists already (a new file was expected)")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(block.text, encoding="utf-8")
        _check_parses(target, block)
        return
    if not target.is_file():
        raise RecipeError(f"{block}: {block.path} does not exist")
    op, name = ops[0], block.options[ops[0]]
    source = target.read_text(encoding="utf-8")
    suffix = target.suffix
    try:
        if suffix == ".py":
            edited = {"append-to": py_append, "sorted-into": py_sorted_into,
                      "before": py_before}[op](source, name, block.text)
        elif suffix == ".toml" and op == "append-to":
            edited = toml_append(source, name, block.text)
        elif suffix == ".md" and op == "append-to":
            edited = md_append(source, name, block.text)
        else:
            raise RecipeError(f"{op} is not defined for {suffix} files")
    except RecipeError as e:
        raise RecipeError(f"{block}: {block.path}: {e}") from None
    target.write_text(edited, encoding="utf-8")
    _check_parses(target, block)


def _check_parses(path: Path, block: Block) -> None:
    text = path.read_text(encoding="utf-8")
    try:
        if path.suffix == ".py":
            ast.parse(text)
        elif path.suffix == ".json":
            json.loads(text)
        elif path.suffix == ".toml" and tomllib is not None:
            tomllib.loads(text)
    except (SyntaxError, ValueError) as e:
        raise RecipeError(f"{block}: {path.name} does not parse after the edit: {e}") from None


def _lines(text: str) -> List[str]:
    return textwrap.dedent(text).rstrip("\n").splitlines()


def _indent_of(line: str) -> str:
    return line[:len(line) - len(line.lstrip())]


def _offset(lines: List[str], lineno: int, col: int) -> int:
    """Character offset of (1-based line, 0-based column) in the joined text."""
    return sum(len(line) for line in lines[:lineno - 1]) + col


# Python ------------------------------------------------------------------

_LITERALS = (ast.List, ast.Tuple, ast.Dict)


def _literal(tree: ast.Module, name: str) -> ast.expr:
    """The literal bound to ``name`` at module level or passed as keyword ``name``."""
    found = []
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets):
            found.append(stmt.value)
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id == name:
            found.append(stmt.value)
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == name:
            found.append(node.value)
    found = [f for f in found if isinstance(f, _LITERALS)]
    if len(found) != 1:
        raise RecipeError(f"{len(found)} list, tuple or dict literals named {name!r} (one expected)")
    return found[0]


def _items(node: ast.expr) -> list:
    return node.values if isinstance(node, ast.Dict) else node.elts


def _item_start_line(node: ast.expr, i: int) -> int:
    if isinstance(node, ast.Dict) and node.keys[i] is not None:
        return node.keys[i].lineno
    return _items(node)[i].lineno


def py_append(source: str, name: str, text: str) -> str:
    """``text`` (one or more elements, one per line) added at the end of literal ``name``."""
    node = _literal(ast.parse(source), name)
    lines = source.splitlines(keepends=True)
    close_line, close_col = node.end_lineno, node.end_col_offset - 1     # the closing bracket
    close = _offset(lines, close_line, close_col)
    new = _lines(text)
    items = _items(node)
    last = _offset(lines, items[-1].end_lineno, items[-1].end_col_offset) if items else None
    if last is not None and not lines[close_line - 1][:close_col].strip():
        # the bracket stands on a line of its own: the new lines go before that line,
        # indented as the last item, which gets a comma if it has none
        indent = _indent_of(lines[_item_start_line(node, len(items) - 1) - 1])
        line_start = _offset(lines, close_line, 0)
        comma = "" if source[last:line_start].lstrip().startswith(",") else ","
        added = "".join(indent + line + "\n" if line.strip() else "\n" for line in new)
        return source[:last] + comma + source[last:line_start] + added + source[line_start:]
    # otherwise ", element" right before the closing bracket
    item = " ".join(line.strip() for line in new).rstrip(",")
    if last is None:
        insert = item
    elif source[last:close].strip().startswith(","):
        insert = ("" if source[last:close].endswith(" ") else " ") + item
    else:
        insert = ", " + item
    return source[:close] + insert + source[close:]


def _first_string(node: ast.expr) -> Optional[str]:
    args = node.args if isinstance(node, ast.Call) else getattr(node, "elts", [])
    for a in args:
        if isinstance(a, ast.Constant) and isinstance(a.value, str):
            return a.value
    return None


def py_sorted_into(source: str, name: str, text: str) -> str:
    """``text`` (one element) placed in literal ``name`` by strcmp order of first strings."""
    new = _lines(text)
    try:
        elem = ast.parse("\n".join(new).strip().rstrip(","), mode="eval").body
    except SyntaxError as e:
        raise RecipeError(f"the block is not one element: {e}") from None
    key = _first_string(elem)
    if key is None:
        raise RecipeError("the block's element has no string to sort by")
    node = _literal(ast.parse(source), name)
    items = _items(node)
    lines = source.splitlines(keepends=True)
    for item in items:
        other = _first_string(item)
        if other is not None and other.encode() > key.encode():
            indent = _indent_of(lines[item.lineno - 1])
            if lines[item.lineno - 1][:item.col_offset].strip():
                raise RecipeError(f"the element after {key!r} does not start its own line")
            added = "".join(indent + line.lstrip() + "\n" if i == 0 else indent + line + "\n"
                            for i, line in enumerate(new))
            return "".join(lines[:item.lineno - 1]) + added + "".join(lines[item.lineno - 1:])
    return py_append(source, name, text)


def py_before(source: str, name: str, text: str) -> str:
    """``text`` inserted before the module-level statement binding ``name``."""
    tree = ast.parse(source)
    found = []
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and stmt.name == name:
            found.append(stmt)
        elif isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets):
            found.append(stmt)
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id == name:
            found.append(stmt)
    if len(found) != 1:
        raise RecipeError(f"{len(found)} module-level statements bind {name!r} (one expected)")
    stmt = found[0]
    first = min([stmt.lineno] + [d.lineno for d in getattr(stmt, "decorator_list", [])])
    lines = source.splitlines(keepends=True)
    start = first - 1
    while start > 0 and lines[start - 1].lstrip().startswith("#"):
        start -= 1                      # the comment lines that describe the statement
    added = "\n".join(_lines(text)) + "\n\n\n"
    return "".join(lines[:start]) + added + "".join(lines[start:])


# TOML --------------------------------------------------------------------

def toml_append(source: str, name: str, text: str) -> str:
    """``text`` added at the end of table ``[...]`` or of the array of key ``name``."""
    lines = source.splitlines(keepends=True)
    new = _lines(text)
    if name.startswith("["):
        heads = [i for i, line in enumerate(lines) if line.strip() == name]
        if len(heads) != 1:
            raise RecipeError(f"{len(heads)} tables {name} (one expected)")
        end = next((i for i in range(heads[0] + 1, len(lines)) if lines[i].lstrip().startswith("[")
                    and not lines[i].lstrip().startswith("[[") and "=" not in lines[i].split("]")[0]),
                   len(lines))
        while end > heads[0] + 1 and not lines[end - 1].strip():
            end -= 1
        return "".join(lines[:end]) + "".join(line + "\n" for line in new) + "".join(lines[end:])
    keys = [i for i, line in enumerate(lines) if re.match(rf"\s*{re.escape(name)}\s*=\s*\[", line)]
    if len(keys) != 1:
        raise RecipeError(f"{len(keys)} arrays named {name!r} (one expected)")
    start = keys[0]
    close = next((i for i in range(start + 1, len(lines)) if lines[i].strip().startswith("]")), None)
    if close is None or "]" in lines[start].split("[", 1)[1]:
        raise RecipeError(f"the array {name!r} is not written one item per line")
    prev = close - 1
    indent = _indent_of(lines[prev]) if prev > start else "    "
    if prev > start and not lines[prev].rstrip().endswith(","):
        lines[prev] = lines[prev].rstrip("\n") + ",\n"
    added = "".join(indent + line.strip() + "\n" for line in new)
    return "".join(lines[:close]) + added + "".join(lines[close:])


# Markdown ----------------------------------------------------------------

def md_append(source: str, heading: str, text: str) -> str:
    """``text`` (table rows) added at the end of the first table under ``heading``."""
    lines = source.splitlines(keepends=True)
    heads = [i for i, line in enumerate(lines) if re.match(r"#+\s", line) and line.lstrip("#").strip() == heading]
    if len(heads) != 1:
        raise RecipeError(f"{len(heads)} headings {heading!r} (one expected)")
    i = heads[0] + 1
    while i < len(lines) and not lines[i].startswith("|"):
        if re.match(r"#+\s", lines[i]):
            raise RecipeError(f"no table under the heading {heading!r}")
        i += 1
    while i < len(lines) and lines[i].startswith("|"):
        i += 1
    if not any(line.startswith("|") for line in lines[heads[0]:i]):
        raise RecipeError(f"no table under the heading {heading!r}")
    return "".join(lines[:i]) + "".join(line + "\n" for line in _lines(text)) + "".join(lines[i:])
