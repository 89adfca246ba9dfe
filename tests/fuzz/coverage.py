"""``make fuzz-coverage``: the lines of C the fuzz corpora execute, per file.

No kernel counterpart.  Run by the interpreter of a venv whose extensions
clang built with ``-fprofile-instr-generate -fcoverage-mapping`` (the
Makefile's .venv-cov): it replays every kept input of every target (and
``--extra DIR``'s ``<target>/corpus/`` inputs, such as a long run's
.fuzz-out/) in a child process writing raw profiles, merges them with
llvm-profdata and asks llvm-cov for each C file's line counts.  cffi's
generated wrappers are left out: only the project's own C is counted.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

REPLAY = """
import os, sys
sys.path[:0] = [{here!r}, {tests!r}]
from targets import NAMES, check_function, corpus_files
extra = {extra!r}
for name in NAMES:
    check = check_function(name)
    files = corpus_files(name)
    if extra:
        files += sorted(glob for glob in __import__("glob").glob(os.path.join(extra, name, "corpus", "*")))
    for path in files:
        with open(path, "rb") as f:
            check(f.read())
    print(name, len(files), "inputs")
"""


def tool(name: str) -> str:
    for cand in (name, name + "-14", name + "-15", name + "-16", name + "-13"):
        if shutil.which(cand):
            return cand
    sys.exit(f"fuzz-coverage: {name} not found (Debian package llvm)")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--venv", required=True, help="the coverage build's venv")
    p.add_argument("--extra", default=None, help="a directory of more inputs: <target>/corpus/*")
    p.add_argument("--json", default=None, help="also write the per-file counts here")
    a = p.parse_args(argv)
    py = os.path.join(os.path.abspath(a.venv), "bin", "python")
    objects = sorted(glob.glob(os.path.join(a.venv, "lib", "python3*", "site-packages", "crypto_api", "**", "*.so"),
                               recursive=True))
    if not objects:
        sys.exit(f"fuzz-coverage: no extension modules under {a.venv}")
    with tempfile.TemporaryDirectory(prefix="crypto_api-cov-") as tmp:
        env = dict(os.environ, LLVM_PROFILE_FILE=os.path.join(tmp, "%p-%m.profraw"), PYTHONSAFEPATH="1")
        # the targets name the composite registry's drivers, as run.py pins them (a kernel set wins)
        env.setdefault("CRYPTO_API_KERNEL", "composite")
        code = REPLAY.format(here=HERE, tests=os.path.dirname(HERE), extra=a.extra and os.path.abspath(a.extra))
        subprocess.run([py, "-c", code], env=env, check=True, cwd=tmp)
        raws = glob.glob(os.path.join(tmp, "*.profraw"))
        data = os.path.join(tmp, "merged.profdata")
        subprocess.run([tool("llvm-profdata"), "merge", "-sparse", "-o", data, *raws], check=True)
        cmd = [tool("llvm-cov"), "export", "-summary-only", "-instr-profile", data, objects[0]]
        for o in objects[1:]:
            cmd += ["-object", o]
        report = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    files = {}
    for f in report["data"][0]["files"]:
        path = os.path.normpath(f["filename"])
        rel = os.path.relpath(path, ROOT) if os.path.isabs(path) else path
        lines = f["summary"]["lines"]
        if rel.startswith("..") or "/build/" in "/" + rel or not lines["count"]:
            continue                    # system headers, cffi's generated wrappers, no code
        old = files.get(rel)
        if old is None or lines["covered"] > old[0]:
            files[rel] = (lines["covered"], lines["count"])
    total_cov = sum(c for c, _ in files.values())
    total = sum(n for _, n in files.values())
    print(f"{'file':48} {'lines':>7} {'covered':>8} {'%':>6}")
    for rel, (cov, n) in sorted(files.items(), key=lambda kv: kv[1][0] / max(kv[1][1], 1)):
        print(f"{rel:48} {n:7d} {cov:8d} {100.0 * cov / max(n, 1):6.1f}")
    print(f"{'total':48} {total:7d} {total_cov:8d} {100.0 * total_cov / max(total, 1):6.1f}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({rel: {"lines": n, "covered": c} for rel, (c, n) in files.items()}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
