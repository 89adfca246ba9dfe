"""Every Python example of README.md runs, as written, on its own.

Each fenced ```python block is one test, run in a fresh namespace with a
fresh temporary directory as the working directory, so a block that leans on
an earlier one (or on a file it did not create) fails:

* a block with ``>>>`` prompts is a doctest (``...`` in an expected output or
  an exception message stands for what depends on the machine: ELLIPSIS);
* any other block is executed as a script;
* ```python excerpt=PATH marks a quotation of a file of the repository: its
  lines must appear in that file, in order (so the README cannot drift from
  the example it walks through); ```toml blocks are parsed, and checked the
  same way when they carry ``excerpt=``;
* ```python requires=DRIVER skips the block where that driver cannot be had
  (the x86 SIMD drivers on another CPU);
* ```python emulates=arm64 (or ``arm``, or ``arm,arm64``) marks a block that
  runs that emulated machine's code under qemu-user: skipped where the emulator or the cross compiler is missing
  (failed instead under CRYPTO_API_REQUIRE_EMULATION=1, as in CI).
"""

import doctest
import gc
import re
import sys
from pathlib import Path

import pytest

import crypto_api as capi

if sys.version_info >= (3, 11):
    import tomllib
else:                                    # pragma: no cover
    tomllib = None

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
FENCE = re.compile(r"^```(\w+)([^\n]*)\n(.*?)^```\s*$", re.S | re.M)


def blocks(text: str):
    """``(language, options, code, line)`` for every fenced block with a language."""
    out = []
    for m in FENCE.finditer(text):
        options = dict(opt.split("=", 1) for opt in m.group(2).split() if "=" in opt)
        out.append((m.group(1), options, m.group(3), text.count("\n", 0, m.start()) + 1))
    return out


def _cases():
    cases = []
    for lang, options, code, line in blocks(README.read_text(encoding="utf-8")):
        if lang in ("python", "toml"):
            kind = "excerpt" if "excerpt" in options else lang
            cases.append(pytest.param(lang, options, code, line, id=f"line{line}-{kind}"))
    return cases


def is_excerpt(code: str, source: str) -> bool:
    """Every non-blank line of ``code`` is a line of ``source`` (right-stripped), in order."""
    lines = iter(line.rstrip() for line in source.splitlines())
    return all(any(want == have for have in lines)
               for want in (line.rstrip() for line in code.splitlines()) if want.strip())


def run_doctest(code: str, name: str, line: int) -> None:
    test = doctest.DocTestParser().get_doctest(code, {"__name__": "__readme__"}, name, str(README), line)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS, verbose=False)
    out = []
    runner.run(test, out=out.append, clear_globs=True)
    assert runner.failures == 0, "".join(out)


def test_the_readme_has_examples_of_each_kind():
    kinds = {c.id.split("-", 1)[1] for c in _cases()}
    assert {"python", "excerpt"} <= kinds


def _available(driver: str) -> bool:
    """The driver is registered, or is once every module loads as at boot (a
    module whose aliases do not name its drivers, e.g. the x86 ARIA ones)."""
    if capi.crypto_has_alg(driver):
        return True
    capi.load_all()
    return capi.crypto_has_alg(driver)


@pytest.mark.parametrize("lang, options, code, line", _cases())
def test_readme_block(lang, options, code, line, tmp_path, monkeypatch):
    if "excerpt" in options:
        source = (ROOT / options["excerpt"]).read_text(encoding="utf-8")
        assert is_excerpt(code, source), f"not an excerpt of {options['excerpt']}"
        if lang == "toml" and tomllib is not None:
            tomllib.loads(code)
        return
    if lang == "toml":
        if tomllib is not None:
            tomllib.loads(code)
        return
    if options.get("emulates"):
        from arm64_emulation import require_emulation
        for arch in options["emulates"].split(","):
            require_emulation(arch)
    if "requires" in options and not _available(options["requires"]):
        pytest.skip(f"{options['requires']} is not available on this machine")
    monkeypatch.chdir(tmp_path)
    if re.search(r"^>>> ", code, re.M):
        run_doctest(code, f"README.md line {line}", line)
    else:
        exec(compile("\n" * line + code, str(README), "exec"), {"__name__": "__readme__"})
    gc.collect()                         # free the block's transforms before the next test


def test_excerpt_check_is_strict():
    source = "a = 1\nb = 2\n\ndef f():\n    return a\n"
    assert is_excerpt("a = 1\ndef f():\n    return a\n", source)
    assert not is_excerpt("b = 2\na = 1\n", source)           # order matters
    assert not is_excerpt("a = 1\n    return b\n", source)    # every line must be there
