"""The Layout section of docs/layout.md names every directory of the project.

Its ```text block has one entry per line (a path at the start of the line,
continuation lines indented): every directory that holds a file of the
project must be named there, and every path named there must exist, so the
list cannot go stale when a directory comes or goes.  The tree is walked as
it is on disk (no git): build products, caches, virtual environments and
hidden directories other than .ci/ are skipped.
"""

import os
import re
from pathlib import Path

from doc_blocks import ROOT, parse

LAYOUT = ROOT / "docs" / "layout.md"
SKIP_DIRS = {"build", "dist", "__pycache__"}
SKIP_FILES = re.compile(r".*\.(so|o|pyc|pyd)$")


def skipped_dir(path: Path) -> bool:
    name = path.name
    return (name in SKIP_DIRS or name.endswith(".egg-info")
            or (name.startswith(".") and name != ".ci")
            or (path / "pyvenv.cfg").exists())            # a virtual environment, whatever its name


def project_dirs(root: Path = ROOT):
    """Relative paths (``"algs/include/"``) of the directories holding project files."""
    found = set()
    for dirpath, dirnames, filenames in os.walk(root):
        here = Path(dirpath)
        dirnames[:] = sorted(d for d in dirnames if not skipped_dir(here / d))
        if here != root and any(not SKIP_FILES.fullmatch(f) for f in filenames):
            found.add(here.relative_to(root).as_posix() + "/")
    return found


def layout_entries(text: str):
    """The paths the Layout section's text block names, in order."""
    section = text.split("\n## Layout\n", 1)[1].split("\n## ", 1)[0]
    block = next(b for b in parse(section) if b.lang == "text")
    return [line.split()[0] for line in block.code.splitlines() if line.strip() and not line[0].isspace()]


def test_every_project_directory_is_named():
    named = set(layout_entries(LAYOUT.read_text(encoding="utf-8")))
    missing = sorted(project_dirs() - named)
    assert missing == [], f"directories missing from the Layout section of docs/layout.md: {missing}"


def test_every_named_path_exists():
    entries = layout_entries(LAYOUT.read_text(encoding="utf-8"))
    assert len(entries) == len(set(entries)), "a path is named twice"
    gone = [e for e in entries if not (ROOT / e).is_dir() if e.endswith("/")]
    gone += [e for e in entries if not e.endswith("/") and not (ROOT / e).is_file()]
    assert gone == [], f"named in docs/layout.md but not in the tree: {gone}"


def test_the_walk_skips_what_is_not_the_projects(tmp_path):
    for d in ("pkg/sub", "pkg/__pycache__", "build/x", ".hidden", ".ci", "venv", "x.egg-info", "only_so"):
        (tmp_path / d).mkdir(parents=True)
    for f in ("pkg/a.py", "pkg/sub/b.c", "pkg/__pycache__/a.pyc", "build/x/c.c", ".hidden/d.py", ".ci/run",
              "venv/pyvenv.cfg", "x.egg-info/PKG-INFO", "only_so/_e.abi3.so", "top.toml"):
        (tmp_path / f).write_text("")
    assert project_dirs(tmp_path) == {"pkg/", "pkg/sub/", ".ci/"}


def test_entries_are_the_unindented_first_words():
    text = ("intro\n\n## Layout\n\n```text\nalgs/     generic\n            continued algs/x\n"
            "Makefile  make\n```\n\n## Tests\n```text\nnot/this\n```\n")
    assert layout_entries(text) == ["algs/", "Makefile"]
