"""The project's source files, without git: what ``git ls-files --cached
--others`` lists under the ``.gitignore`` files, found by walking the tree.

Tests that copy, build or scan "the repository" use :func:`source_files` (or
:func:`copy_sources`), so the suite runs the same from a checkout and from a
``git archive`` export, which has no ``.git`` (and maybe no git).  A file is
a source file when no ``.gitignore`` of its directory or above ignores it or
a directory it lies in; the rules are git's (gitignore(5)): the last
matching pattern wins, ``!`` re-includes, a trailing ``/`` matches
directories only, a pattern with a ``/`` before its end is anchored to the
``.gitignore``'s directory, ``*``/``?``/``[...]`` stop at ``/`` and ``**``
spans directories.  A file inside an ignored directory stays ignored.
Personal ignore lists (``.git/info/exclude``, ``core.excludesFile``) are
not the project's and are not read.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from typing import List, Pattern, Tuple

ROOT = Path(__file__).resolve().parents[1]

#: one rule: (regex over the path relative to its .gitignore's directory, negated, directories only)
Rule = Tuple[Pattern[str], bool, bool]


def _class_end(pattern: str, i: int) -> int:
    """The index of the ``]`` closing the bracket expression at ``i`` (a ``]``
    right after ``[`` or ``[!`` is a member), or -1 when it is not closed."""
    j = i + 1
    if pattern[j:j + 1] in ("!", "^"):
        j += 1
    if pattern[j:j + 1] == "]":
        j += 1
    return pattern.find("]", j)


def _glob_regex(pattern: str) -> str:
    out, i, n = [], 0, len(pattern)
    while i < n:
        c = pattern[i]
        if pattern.startswith("**/", i) and (i == 0 or pattern[i - 1] == "/"):
            out.append("(?:.*/)?")                   # leading or inner **/: zero or more directories
            i += 3
        elif pattern.startswith("**", i) and i + 2 == n and (i == 0 or pattern[i - 1] == "/"):
            out.append(".*")                         # trailing /**: everything inside
            i += 2
        elif c == "*":
            out.append("[^/]*")
            i += 1
        elif c == "?":
            out.append("[^/]")
            i += 1
        elif c == "[" and _class_end(pattern, i) > 0:
            j = _class_end(pattern, i)
            body = pattern[i + 1:j]
            if body[:1] in ("!", "^"):
                body = "^/" + body[1:]                # a negated class does not match / either
            out.append("[" + body + "]")            # a backslash escapes in both syntaxes
            i = j + 1
        elif c == "\\" and i + 1 < n:
            out.append(re.escape(pattern[i + 1]))
            i += 2
        else:
            out.append(re.escape(c))
            i += 1
    return "".join(out)


def parse_gitignore(text: str) -> List[Rule]:
    """The rules of one ``.gitignore`` file, in order."""
    rules: List[Rule] = []
    for line in text.splitlines():
        line = re.sub(r"(?<!\\)\s+$", "", line)      # trailing blanks, unless escaped
        if not line or line.startswith("#"):
            continue
        negated = line.startswith("!")
        if negated:
            line = line[1:]
        dir_only = line.endswith("/")
        line = line.rstrip("/")
        if not line:
            continue
        anchored = "/" in line
        line = line.lstrip("/")
        regex = _glob_regex(line)
        if not anchored:
            regex = "(?:.*/)?" + regex              # a bare name matches at any depth
        rules.append((re.compile(regex + r"\Z", re.S), negated, dir_only))
    return rules


def _ignored(scopes: List[Tuple[str, List[Rule]]], rel: str, is_dir: bool) -> bool:
    """Whether the path ``rel`` (relative to the root) is ignored by the rules
    of the ``.gitignore`` files in ``scopes`` (their directory, root first)."""
    verdict = False
    for base, rules in scopes:                       # deeper files decide over shallower ones
        sub = rel[len(base) + 1:] if base else rel
        for regex, negated, dir_only in rules:
            if dir_only and not is_dir:
                continue
            if regex.match(sub):
                verdict = not negated
    return verdict


def source_files(root: os.PathLike = ROOT) -> List[str]:
    """The files of the tree at ``root`` that the ``.gitignore`` files do not
    ignore, as sorted ``/``-separated paths relative to it; ``.git`` excluded."""
    root = os.fspath(root)
    found: List[str] = []

    def walk(rel_dir: str, inherited: List[Tuple[str, List[Rule]]]) -> None:
        here = os.path.join(root, rel_dir) if rel_dir else root
        own = os.path.join(here, ".gitignore")
        chain = inherited
        if os.path.isfile(own):
            with open(own, encoding="utf-8", errors="replace") as f:
                chain = inherited + [(rel_dir, parse_gitignore(f.read()))]
        for entry in sorted(os.scandir(here), key=lambda e: e.name):
            if entry.name == ".git":
                continue
            rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
            is_dir = entry.is_dir(follow_symlinks=False)
            if _ignored(chain, rel, is_dir):
                continue
            if is_dir:
                walk(rel, chain)
            else:
                found.append(rel)

    walk("", [])
    return sorted(found)


def copy_sources(dst: os.PathLike, root: os.PathLike = ROOT) -> Path:
    """Copy the source files of ``root`` into the new directory ``dst`` (no
    virtual environment, build output or compiled module comes along); ``dst``."""
    dst = Path(dst)
    for rel in source_files(root):
        target = dst / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(os.path.join(root, rel), target, follow_symlinks=False)
    dst.mkdir(parents=True, exist_ok=True)
    return dst
