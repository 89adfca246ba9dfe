"""The fenced blocks of the documentation (README.md and docs/*.md) and how each
kind is checked: parsing, the console transcript format, the ``...`` matcher
and the child interpreter a Python example runs in.

The convention (tests/docs/test_examples.py runs it; docs/layout.md tells
contributors):

* ```python             runs in a fresh interpreter (its own process, a fresh
                         temporary directory as working directory); a block
                         with ``>>>`` prompts is a doctest, run by doctest in
                         that child (``...`` in an expected output: ELLIPSIS).
* ```python requires=DRIVER  skipped where DRIVER cannot be had, even with every
                         module loaded (the x86 SIMD drivers on another CPU).
* ```python emulates=ARCH[,ARCH]  needs qemu-user and that cross compiler:
                         skipped without them, failed instead under
                         CRYPTO_API_REQUIRE_EMULATION=1 (as in CI).
* ```python excerpt=PATH (also c, toml)  a quotation of a repository file: its
                         non-blank lines appear there, in order.
* ```python file=PATH (also c, toml)  content a reader is told to write to PATH;
                         not run here (the recipe's own test uses it); python
                         must compile, toml must parse.
* ```sh                  commands a reader runs: run by bash with ``set -e`` in
                         a fresh temporary directory, this interpreter's bin/
                         first on PATH, the repository root in
                         $CRYPTO_API_REPO; output is not compared.
* ```console             a transcript: each ``$ `` line is a command (a line
                         ending in ``\\`` continues on the next), run one after
                         another in one bash, in a fresh temporary directory
                         as for sh; the lines after a command are its expected
                         output (stdout and stderr together), where ``...``
                         stands for any text, across lines too; every command
                         must exit 0 (show a failure with ``; echo "exit status
                         $?"``).
* ```sh|console|python tested-by=T  not run here: T (one or more,
                         comma-separated: ``tests/<file>.py::<test>``, or a file
                         such as ``.ci/run``) runs those commands literally:
                         the test function must exist, and every command line
                         of the block must appear verbatim in one of the files
                         (a python block: the test reads the block from the
                         page and runs it, as the recipes' test does).
* ```sh cwd=repo / ```console cwd=repo  run in the repository root instead of a
                         temporary directory (read-only use: ``make run``).  A
                         ``make`` command there is skipped while make would
                         rebuild .venv first (a venv not made by make).
* ```text / ```console-output  output or file content shown to the reader;
                         never run.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Tuple

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"

#: every language a fence may carry, and the options each understands
#: (``append-to=``, ``sorted-into=`` and ``before=`` go with ``file=``: an edit
#: of an existing file in a recipe of docs/contributing.md, applied and checked by
#: tests/recipe_blocks.py, never run or parsed alone here)
EDITS = {"append-to", "sorted-into", "before"}
LANGUAGES: Dict[str, set] = {
    "python": {"requires", "emulates", "excerpt", "file", "tested-by"} | EDITS,
    "sh": {"requires", "emulates", "tested-by", "cwd"},
    "console": {"requires", "emulates", "tested-by", "cwd"},
    "text": set(),
    "console-output": set(),
    "toml": {"excerpt", "file"} | EDITS,
    "c": {"excerpt", "file"} | EDITS,
    "json": {"file"},
    "markdown": {"file"} | EDITS,
}

FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.S | re.M)


@dataclass
class Block:
    """One fenced block: its file (relative to the root), the line of its
    opening fence (1-based), language, options and body."""
    path: str
    line: int
    lang: str
    options: Dict[str, str]
    code: str
    bad_options: List[str] = field(default_factory=list)

    @property
    def id(self) -> str:
        kind = next((k for k in ("excerpt", "file", "tested-by") if k in self.options), self.lang)
        return f"{self.path}:{self.line}-{kind}"


def doc_files() -> List[Path]:
    """README.md and every page of docs/, in a stable order."""
    return [ROOT / "README.md"] + sorted(DOCS.glob("*.md"))


def parse(text: str, path: str = "<text>") -> List[Block]:
    """Every fenced block of a Markdown text (a fence with no language too)."""
    out = []
    for m in FENCE.finditer(text):
        words = m.group(1).split()
        lang = words[0] if words else ""
        options, bad = {}, []
        for word in words[1:]:
            key, eq, value = word.partition("=")
            if eq and value:
                options[key] = value
            else:
                bad.append(word)
        out.append(Block(path, text.count("\n", 0, m.start()) + 1, lang, options, m.group(2), bad))
    return out


def all_blocks() -> List[Block]:
    blocks = []
    for f in doc_files():
        blocks += parse(f.read_text(encoding="utf-8"), str(f.relative_to(ROOT)))
    return blocks


def is_excerpt(code: str, source: str) -> bool:
    """Every non-blank line of ``code`` is a line of ``source`` (right-stripped), in order."""
    lines = iter(line.rstrip() for line in source.splitlines())
    return all(any(want == have for have in lines)
               for want in (line.rstrip() for line in code.splitlines()) if want.strip())


# --- console transcripts ---------------------------------------------------

def transcript(code: str) -> List[Tuple[str, str]]:
    """``[(command, expected output)]`` of a console block.  A ``$ `` line
    starts a command; a command line ending in a backslash continues on the
    next line; the other lines, up to the next command, are its output."""
    steps: List[Tuple[str, List[str]]] = []
    lines = code.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("$ "):
            cmd = [line[2:]]
            while cmd[-1].endswith("\\") and i + 1 < len(lines):
                i += 1
                cmd.append(lines[i])
            steps.append(("\n".join(cmd), []))
        elif steps:
            steps[-1][1].append(line)
        elif line.strip():
            raise ValueError(f"output before the first command: {line!r}")
        i += 1
    return [(cmd, "\n".join(out)) for cmd, out in steps]


def command_lines(block: Block) -> List[str]:
    """The command lines of a sh or console block, as a reader types them
    (trailing ``  # comments`` and blank lines dropped)."""
    if block.lang == "console":
        raw = [line for cmd, _ in transcript(block.code) for line in cmd.splitlines()]
    else:
        raw = block.code.splitlines()
    out = []
    for line in raw:
        line = re.sub(r"\s+#\s.*$", "", line).strip()
        if line and not line.startswith("#"):
            out.append(line)
    return out


def screen_lines(s: str) -> List[str]:
    """The lines a terminal would show: a carriage return (a progress bar
    redrawing itself) starts its line over; trailing spaces dropped."""
    return [line.rstrip("\r").rsplit("\r", 1)[-1].rstrip() for line in s.split("\n")]


def matches(want: str, got: str) -> bool:
    """``got`` is ``want`` where each ``...`` stands for any text (newlines
    included), compared as a terminal shows it (:func:`screen_lines`); blank
    lines at either end do not count."""
    def norm(s: str) -> str:
        return "\n".join(screen_lines(s)).strip("\n")
    pattern = ".*?".join(re.escape(part) for part in norm(want).split("..."))
    return re.fullmatch(pattern, norm(got), re.S) is not None


def console_script(steps: List[Tuple[str, str]], marker: str) -> str:
    """A bash script that runs the commands one after another in one shell,
    stderr into stdout, and prints ``marker RC`` after each on its own line."""
    body = ["exec 2>&1"]
    for cmd, _ in steps:
        body.append(cmd)
        body.append(f"printf '\\n%s %d\\n' {marker} $?")
    return "\n".join(body) + "\n"


def split_output(out: str, marker: str) -> List[Tuple[str, int]]:
    """``[(output, exit status)]`` per command, from a console script's output."""
    parts = re.split(rf"\n?{re.escape(marker)} (\d+)\n", out)
    return [(parts[i], int(parts[i + 1])) for i in range(0, len(parts) - 1, 2)]


# --- python examples in a child ----------------------------------------------

#: run by ``python -c`` with argv ``[path, line, mode]`` and the block on stdin
CHILD = r"""
import doctest, sys
path, line, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
code = sys.stdin.read()
if mode == "doctest":
    test = doctest.DocTestParser().get_doctest(code, {"__name__": "__main__"}, path + " line " + str(line),
                                               path, line)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS, verbose=False)
    runner.run(test, out=sys.stderr.write)
    sys.exit(1 if runner.failures else 0)
exec(compile("\n" * line + code, path, "exec"), {"__name__": "__main__"})
"""


def child_command(block: Block) -> List[str]:
    mode = "doctest" if re.search(r"^>>> ", block.code, re.M) else "exec"
    return [sys.executable, "-c", CHILD, block.path, str(block.line), mode]


#: run by ``python -c`` with driver names as arguments: prints those that exist
#: once every module is loaded, as at boot
AVAILABLE = r"""
import sys
import crypto_api as capi
capi.load_all()
print("\n".join(d for d in sys.argv[1:] if capi.crypto_has_alg(d)))
"""
