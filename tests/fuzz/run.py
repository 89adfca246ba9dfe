"""Run the fuzz targets under atheris (libFuzzer): ``make fuzz``, ``make fuzz-long``.

No kernel counterpart.  ``python tests/fuzz/run.py [--seconds N] [--out DIR]
TARGET|all`` fuzzes each named target in a child process of its own for its
share of N seconds, starting from its kept corpus (tests/fuzz/corpus/<target>/,
read only) and writing what it finds new to DIR/<target>/corpus; a finding
(AssertionError, any other exception, a sanitizer report) stops that target
and is saved as DIR/<target>/crash-<hash>; the run fails and prints, for each
finding, its input in hex and the command that replays it:
``python tests/fuzz/run.py --replay FILE TARGET`` (no atheris needed: the
same check, in this interpreter).  ``--merge --out DIR`` adds to the kept
corpora the inputs of DIR that reach coverage they do not (``make
fuzz-merge``).  The process must run with the sanitizer runtimes preloaded,
as the Makefile does (docs/sanitizers.md).
"""

from __future__ import annotations

import argparse
import glob
import os
import shlex
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.dirname(HERE)]
# The targets' pairs and references name the composite registry's drivers (the SIMD
# drivers of every version beside the generic ones), as the pytest suite's pin does
# (tests/conftest.py); the children inherit it.  A kernel set in the environment wins.
os.environ.setdefault("CRYPTO_API_KERNEL", "composite")

from targets import NAMES, check_function, corpus_dir, corpus_files  # noqa: E402

MAX_LEN = 2048


WARM_UP = 40


def fuzz_one(name: str, seconds: int, out: str, merge: bool = False, passed: list = ()) -> None:
    """In the child: hand target ``name`` to libFuzzer (does not return).
    ``merge``: instead, add to the kept corpus the inputs of ``out``'s corpus
    that reach coverage it does not (libFuzzer's -merge=1, which runs this
    child again with its own flags: ``passed``, handed on as they are)."""
    import atheris
    # Python coverage too: the parsers, the glue and the walk are Python
    with atheris.instrument_imports(include=["crypto_api", "pairs", "buffers", "fuzz_input", "target_" + name]):
        check = check_function(name)
    # some kept inputs before the clock starts: the first ones load modules, run
    # self-tests and allocate the target's transforms (seconds, not a finding)
    for path in corpus_files(name)[:WARM_UP]:
        with open(path, "rb") as f:
            check(f.read())
    work = os.path.join(out, name, "corpus")
    os.makedirs(work, exist_ok=True)
    common = [f"-max_len={MAX_LEN}", f"-artifact_prefix={os.path.join(out, name)}/", "-timeout=120",
              "-rss_limit_mb=6144", "-print_pcs=0"]
    # libFuzzer starts its inner runs through the shell with argv[0] first
    me = shlex.join([sys.executable, os.path.abspath(__file__), "--child", "--out", out, name])
    if passed:
        args = [me, *passed]
    elif merge:
        args = [me, "-merge=1", *common, corpus_dir(name), work]
    else:
        args = [me, work, corpus_dir(name), f"-max_total_time={seconds}", "-print_final_stats=1",
                *common]
    atheris.Setup(args, check)
    atheris.Fuzz()


def replay(name: str, path: str) -> int:
    with open(path, "rb") as f:
        data = f.read()
    print(f"replaying {path} ({len(data)} bytes) through {name}: {data.hex()}")
    check_function(name)(data)
    print("no finding")
    return 0


def run(names: list, seconds: int, out: str, merge: bool = False) -> int:
    share = max(5, seconds // len(names))
    failed = []
    for name in names:
        start = time.monotonic()
        cmd = [sys.executable, os.path.abspath(__file__), "--child", "--seconds", str(share), "--out", out,
               *(["--merge"] if merge else []), name]
        rc = subprocess.run(cmd).returncode
        crashes = sorted(glob.glob(os.path.join(out, name, "crash-*")) + glob.glob(os.path.join(out, name, "timeout-*"))
                         + glob.glob(os.path.join(out, name, "oom-*")))
        took = time.monotonic() - start
        print(f"fuzz {name}: {took:.0f} s, exit status {rc}, {len(crashes)} finding(s)", flush=True)
        if rc or crashes:
            failed.append(name)
            for c in crashes:
                with open(c, "rb") as f:
                    print(f"  finding {c}\n  input (hex) {f.read().hex()}\n"
                          f"  replay: python tests/fuzz/run.py --replay {c} {name}", flush=True)
    if failed:
        print(f"fuzz: findings in {', '.join(failed)}", flush=True)
        return 1
    print(f"fuzz: {len(names)} targets, no finding", flush=True)
    return 0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("target", help="a target name or 'all': " + ", ".join(NAMES))
    p.add_argument("--seconds", type=int, default=150, help="time for all the named targets together")
    p.add_argument("--out", default=None, help="where new inputs and findings go (default: a temporary directory)")
    p.add_argument("--replay", metavar="FILE", help="run one saved input through the target, without atheris")
    p.add_argument("--merge", action="store_true",
                   help="add to tests/fuzz/corpus/<target>/ the inputs of --out's corpus that add coverage")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    a, rest = p.parse_known_args(argv)
    names = list(NAMES) if a.target == "all" and not a.replay else [a.target]
    unknown = [n for n in names if n not in NAMES]
    if unknown:
        p.error(f"no fuzz target {unknown[0]!r} (targets: {', '.join(NAMES)}, or all)")
    if a.replay:
        return replay(a.target, a.replay)
    if a.child:
        fuzz_one(names[0], a.seconds, a.out, a.merge, rest)
        return 0
    if a.merge and not a.out:
        p.error("--merge needs --out: the directory a long run kept its inputs in")
    if a.out:
        os.makedirs(a.out, exist_ok=True)
        return run(names, a.seconds, a.out, a.merge)
    with tempfile.TemporaryDirectory(prefix="crypto_api-fuzz-") as out:
        return run(names, a.seconds, out)


if __name__ == "__main__":
    sys.exit(main())
