"""Every example of README.md and docs/*.md runs, as written, on its own.

Each fenced block is one test, checked by its kind (the convention is in
tests/doc_blocks.py, and for contributors in docs/layout.md): a ```python
block runs in a fresh interpreter (a doctest too, by doctest in that child),
a ```sh block in a fresh bash, a ```console transcript in one bash with each
command's output compared; excerpts are looked up in the file they quote;
``tested-by=`` blocks are looked up in the tests that run them.  Every run
starts in a fresh temporary directory, so a block that leans on an earlier
one (or on a module some other test loaded) fails.
"""

import functools
import os
import json
import re
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

import pytest

from default_kernel import default_env
from doc_blocks import (AVAILABLE, EDITS, LANGUAGES, ROOT, Block, all_blocks, child_command,
                        command_lines, console_script, is_excerpt, matches, parse, split_output,
                        transcript)

if sys.version_info >= (3, 11):
    import tomllib
else:                                    # pragma: no cover
    tomllib = None

BLOCKS = all_blocks()
RUN = ("python", "sh", "console", "toml", "c", "json", "markdown")


def _cases():
    return [pytest.param(b, id=b.id) for b in BLOCKS if b.lang in RUN]


#: what an outer ``make test`` passes down: a reader's shell has none of it (with
#: MAKELEVEL set, the block's ``make run`` prints "make[1]: Entering directory")
MAKE_VARIABLES = ("MAKEFLAGS", "MAKELEVEL", "MFLAGS", "MAKEOVERRIDES")


def env() -> dict:
    """The environment of a run: this interpreter's bin/ first, the repository in
    $CRYPTO_API_REPO, nothing of an outer make nor of the suite's kernel pin
    (a reader's shell runs the default kernel)."""
    bindir = str(Path(sys.executable).parent)
    out = {k: v for k, v in default_env().items() if k not in MAKE_VARIABLES}
    return dict(out, PATH=bindir + os.pathsep + os.environ.get("PATH", ""),
                CRYPTO_API_REPO=str(ROOT))


@functools.lru_cache(maxsize=None)
def available_drivers() -> frozenset:
    """Which drivers named by ``requires=`` this machine has, with every module
    loaded, under the default kernel or the composite registry (asked once per
    registry, of a child, so this process loads nothing): the CPU decides, not
    the kernel version, whose choice is the block's own (``--kernel``)."""
    wanted = sorted({b.options["requires"] for b in BLOCKS if "requires" in b.options})
    found = set()
    for kernel in ({}, {"CRYPTO_API_KERNEL": "composite"}):
        out = subprocess.run([sys.executable, "-c", AVAILABLE, *wanted], capture_output=True, text=True,
                             check=True, cwd=tempfile.gettempdir(), env=default_env(**kernel)).stdout
        found.update(out.split())
    return frozenset(found)


def check_preconditions(block: Block) -> None:
    """Skip (or fail, where emulation is required) what this machine cannot run."""
    if "emulates" in block.options:
        from arm64_emulation import require_emulation
        for arch in block.options["emulates"].split(","):
            require_emulation(arch)
    if "requires" in block.options and block.options["requires"] not in available_drivers():
        pytest.skip(f"{block.options['requires']} is not available on this machine")


def cwd_for(block: Block, tmp_path: Path) -> Path:
    if block.options.get("cwd") == "repo":
        if any(re.search(r"(^|\s)make\s", c) for c in command_lines(block)):
            stale = subprocess.run(["make", "-q", ".venv/.installed"], cwd=ROOT, capture_output=True)
            if stale.returncode != 0:
                pytest.skip("make would rebuild .venv first (this venv was not made by make; "
                            "make test runs this block)")
        return ROOT
    return tmp_path


def check_tested_by(block: Block) -> None:
    files = []
    for target in block.options["tested-by"].split(","):
        path, _, func = target.partition("::")
        f = ROOT / path
        if not f.is_file():
            pytest.fail(f"tested-by={target}: no file {path}")
        text = f.read_text(encoding="utf-8")
        if func:
            assert re.search(rf"^(async )?def {re.escape(func)}\(", text, re.M), \
                f"tested-by={target}: {path} has no {func}"
        files.append(text)
    if block.lang == "python":
        return              # the named test reads the block from the page and runs it (in a copy)
    for line in command_lines(block):
        assert any(line in text for text in files), \
            f"{block.path}:{block.line}: {line!r} is not in {block.options['tested-by']}"


def run_python(block: Block, cwd: Path) -> None:
    p = subprocess.run(child_command(block), input=block.code, capture_output=True, text=True,
                       cwd=cwd, env=env())
    assert p.returncode == 0, f"{block.id} failed (exit {p.returncode}):\n{p.stdout}\n{p.stderr}"


def run_sh(block: Block, cwd: Path, tmp_path: Path) -> None:
    script = tmp_path / ".block.sh"
    script.write_text("set -e\n" + block.code, encoding="utf-8")
    p = subprocess.run(["bash", str(script)], stdin=subprocess.DEVNULL, capture_output=True,
                       text=True, cwd=cwd, env=env())
    assert p.returncode == 0, f"{block.id} failed (exit {p.returncode}):\n{p.stdout}\n{p.stderr}"


def run_console(block: Block, cwd: Path, tmp_path: Path) -> None:
    steps = transcript(block.code)
    assert steps, f"{block.id}: a console block without a $ command"
    marker = "@@doc-" + uuid.uuid4().hex
    script = tmp_path / ".block.sh"
    script.write_text(console_script(steps, marker), encoding="utf-8")
    p = subprocess.run(["bash", str(script)], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, cwd=cwd, env=env())
    out = p.stdout.decode("utf-8", "replace")          # bytes: keep carriage returns as they came
    results = split_output(out, marker)
    for n, (cmd, want) in enumerate(steps):
        assert n < len(results), f"{block.id}: the shell stopped before $ {cmd}\n{out}"
        got, rc = results[n]
        assert rc == 0, f"{block.id}: $ {cmd}\nexited {rc}:\n{got}"
        assert matches(want, got), f"{block.id}: $ {cmd}\nexpected:\n{want}\ngot:\n{got}"


@pytest.mark.parametrize("block", _cases())
def test_doc_block(block, tmp_path):
    assert not block.bad_options, f"{block.id}: options must be key=value: {block.bad_options}"
    unknown = set(block.options) - LANGUAGES[block.lang]
    assert not unknown, f"{block.id}: {block.lang} blocks take no {sorted(unknown)}"
    if "excerpt" in block.options:
        source = (ROOT / block.options["excerpt"]).read_text(encoding="utf-8")
        assert is_excerpt(block.code, source), f"not an excerpt of {block.options['excerpt']}"
    whole = not EDITS & set(block.options)          # an edit is a fragment: checked where applied
    if block.lang == "toml" and tomllib is not None and whole:
        tomllib.loads(block.code)
    if block.lang == "python" and "file" in block.options and whole:
        compile(block.code, block.options["file"], "exec")
    if block.lang == "json" and whole:
        json.loads(block.code)
    if "excerpt" in block.options or "file" in block.options or block.lang in ("toml", "c", "json", "markdown"):
        return
    if "tested-by" in block.options:
        check_tested_by(block)
        return
    check_preconditions(block)
    cwd = cwd_for(block, tmp_path)
    if block.lang == "python":
        run_python(block, cwd)
    elif block.lang == "sh":
        run_sh(block, cwd, tmp_path)
    else:
        run_console(block, cwd, tmp_path)


def test_every_block_has_a_known_language():
    bad = [f"{b.path}:{b.line}: {b.lang or '(none)'}" for b in BLOCKS if b.lang not in LANGUAGES]
    assert bad == [], "fences need a language: " + ", ".join(sorted(LANGUAGES))


def test_the_docs_have_examples_of_each_kind():
    kinds = {(b.lang, next((k for k in ("excerpt", "tested-by") if k in b.options), "")) for b in BLOCKS}
    assert {("python", ""), ("python", "excerpt"), ("sh", "tested-by"), ("console", "")} <= kinds


# --- the runner's own parts --------------------------------------------------

def test_excerpt_check_is_strict():
    source = "a = 1\nb = 2\n\ndef f():\n    return a\n"
    assert is_excerpt("a = 1\ndef f():\n    return a\n", source)
    assert not is_excerpt("b = 2\na = 1\n", source)           # order matters
    assert not is_excerpt("a = 1\n    return b\n", source)    # every line must be there


def test_parse_reads_language_options_and_lines():
    text = "intro\n```python requires=x emulates=arm\nprint(1)\n```\n\n```\nbare\n```\n```sh oops\nls\n```\n"
    blocks = parse(text, "x.md")
    assert [(b.lang, b.options, b.line, b.code) for b in blocks] == [
        ("python", {"requires": "x", "emulates": "arm"}, 2, "print(1)\n"), ("", {}, 6, "bare\n"),
        ("sh", {}, 9, "ls\n")]
    assert blocks[2].bad_options == ["oops"]


def test_transcript_splits_commands_continuations_and_output():
    code = "$ echo a \\\n    b\na b\n$ true\n$ printf 'x\\n\\ny'\nx\n\ny\n"
    assert transcript(code) == [("echo a \\\n    b", "a b"), ("true", ""), ("printf 'x\\n\\ny'", "x\n\ny")]
    with pytest.raises(ValueError):
        transcript("stray output\n$ true\n")


def test_matches_takes_dots_as_any_text_and_nothing_else():
    assert matches("a\n...\nd", "a\nb\nc\nd")
    assert matches("driver: x-...", "driver: x-simd   ")
    assert matches("", "\n")
    assert matches("bar: 100%", "\rbar:   0%\rbar: 100%\n")          # a redrawn line: its last state
    assert not matches("a\nb", "a\nb\nc")                     # the whole output, not a prefix
    assert not matches("a.c", "abc")                          # a dot is a dot
    assert not matches("", "unexpected")


def test_command_lines_drop_comments_and_prompts():
    sh = Block("x.md", 1, "sh", {}, "make run    # boot\n# a comment\n\nmake test\n")
    con = Block("x.md", 1, "console", {}, "$ printf \"%064x\" 0 # zeros\n000\n")
    assert command_lines(sh) == ["make run", "make test"]
    assert command_lines(con) == ['printf "%064x" 0']


def test_console_runner_compares_output_and_exit_status(tmp_path):
    good = Block("x.md", 1, "console", {}, "$ echo hi\nhi\n$ false; echo \"exit status $?\"\nexit status 1\n")
    run_console(good, tmp_path, tmp_path)
    for code in ("$ echo hi\nho\n", "$ false\n", "$ echo a\na\n$ echo b\n"):
        with pytest.raises(AssertionError):
            run_console(Block("x.md", 1, "console", {}, code), tmp_path, tmp_path)


def test_python_blocks_run_in_a_fresh_interpreter(tmp_path):
    """What the test process has loaded is not there for a block."""
    import crypto_api as capi
    capi.request_module("crypto-xchacha12")
    assert capi.modules.is_loaded("chacha_generic")
    code = "import crypto_api.modules as m\nassert not m.is_loaded('chacha_generic')\n"
    run_python(Block("x.md", 1, "python", {}, code), tmp_path)
    with pytest.raises(AssertionError, match="x.md"):
        run_python(Block("x.md", 1, "python", {}, "assert False\n"), tmp_path)
    run_python(Block("x.md", 1, "python", {}, ">>> 1 + 1\n2\n"), tmp_path)
    with pytest.raises(AssertionError):
        run_python(Block("x.md", 1, "python", {}, ">>> 1 + 1\n3\n"), tmp_path)


def test_sh_runner_stops_at_the_first_failure_and_sees_the_venv_and_the_repo(tmp_path):
    ok = ('test "$(command -v python)" = "' + str(Path(sys.executable).parent / "python") + '"\n'
          'test -f "$CRYPTO_API_REPO/Makefile"\ntest "$PWD" = "' + str(tmp_path) + '"\n')
    run_sh(Block("x.md", 1, "sh", {}, ok), tmp_path, tmp_path)
    with pytest.raises(AssertionError):
        run_sh(Block("x.md", 1, "sh", {}, "false\ntrue\n"), tmp_path, tmp_path)


def test_tested_by_needs_the_test_and_every_command_line(tmp_path):
    check_tested_by(Block("x.md", 1, "sh", {"tested-by": ".ci/run"}, "make test\n"))
    for options, code in (({"tested-by": ".ci/run"}, "make test\nmake run\n"),
                          ({"tested-by": "tests/docs/test_examples.py::no_such_test"}, "make test\n")):
        with pytest.raises(AssertionError):
            check_tested_by(Block("x.md", 1, "sh", options, code))
