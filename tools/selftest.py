"""``selftest``: run the self-test manager over every driver, or the named ones.

What a kernel developer reads in dmesg after loading crypto modules with
CONFIG_CRYPTO_MANAGER (and EXTRA_TESTS for ``--full``): every module is
loaded (registration tests them at the fast level, as a boot does), the
template instances in the test table are built, then every registered driver
(or each NAME: a cra_name, a driver name or a template instance such as
``adiantum(xchacha12,aes)``) is tested again with ``testmgr.alg_test`` at the
requested level.  The kernel's lines (``alg: self-tests for ... passed``, the
failure details) go to stdout, then a summary table; the exit status is 1 if
any driver failed.  On an emulated machine that cannot run its own drivers
the command refuses before testing anything (crypto_api.machine.emulation),
as a pass of the generic drivers alone would pass for the machine's;
``--generic-only`` loads no architecture module and tests the generic
drivers, on any machine.  ``--full`` prints the fuzz seed so a failure can be
replayed with ``--seed``.
"""

from __future__ import annotations

import argparse
import logging
import secrets
import sys
import time
from typing import List, Optional, Tuple

from tqdm import tqdm

import crypto_api as capi
from crypto_api import modules, registry, testmgr
from crypto_api.errors import ELIBBAD, ENODEV, ENOENT, CryptoError

log = logging.getLogger("crypto_api")

_ALLOCATORS = {
    "skcipher": capi.crypto_alloc_skcipher,
    "hash": capi.crypto_alloc_shash,
    "cipher": capi.crypto_alloc_cipher,
    "aead": capi.crypto_alloc_aead,
}


def _non_negative(text: str) -> int:
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text} is negative")
    return value


def register(sub) -> None:
    p = sub.add_parser(
        "selftest", help="run the self-test manager (testmgr) over the drivers",
        description="Load every crypto module, then run the self-tests of every registered "
                    "driver (or of each NAME: an algorithm name, a driver name or a template "
                    "instance such as 'adiantum(xchacha12,aes)'). Prints the kernel's "
                    "'alg: self-tests for ...' lines and a summary; exits 1 if any failed.")
    p.add_argument("names", nargs="*", metavar="NAME", help="algorithms or drivers to test (default: all)")
    p.add_argument("--full", action="store_true",
                   help="also run the full tests: random configurations and fuzzing against "
                        "the generic driver (the kernel's EXTRA_TESTS)")
    p.add_argument("--iterations", type=_non_negative, metavar="N",
                   help=f"fuzz iterations for --full (default {testmgr.DEFAULT_FUZZ_ITERATIONS}, "
                        "as the kernel's fuzz_iterations)")
    p.add_argument("--seed", type=_non_negative, metavar="S",
                   help="seed of the --full random tests, to replay a failure (default: a fresh one)")
    p.add_argument("--progress", action="store_true",
                   help="show a progress bar on stderr even when it is not a terminal")
    p.add_argument("--generic-only", action="store_true",
                   help="load no architecture module and test the generic drivers alone; without "
                        "it, an emulated machine (--arch NAME) that cannot run its "
                        "own drivers (no qemu-user, no cross compiler) is an error")
    p.set_defaults(func=run, strict_emulation="pass --generic-only to test the generic drivers alone")


class _Output(logging.Handler):
    """The kernel-style lines: to stdout, around a progress bar if one is shown.

    While ``loading`` is set, the lines of the registration tests are
    dropped (every driver is tested again and reported afterwards); other
    warnings (a module that cannot be imported) go to stderr.
    """

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.loading = False

    def emit(self, record: logging.LogRecord) -> None:
        msg = record.getMessage()
        if self.loading:
            if msg.startswith("alg:") or record.levelno < logging.WARNING:
                return
            tqdm.write(f"selftest: {msg}", file=sys.stderr)
            return
        tqdm.write(msg, file=sys.stdout)


def _instantiate(name: str, test_kind: Optional[str]) -> Optional[CryptoError]:
    """Build a template instance (or load a driver) by allocating it; the error if none."""
    kinds = [test_kind] if test_kind in _ALLOCATORS else list(_ALLOCATORS)
    err = None
    for kind in kinds:
        try:
            _ALLOCATORS[kind](name).free()
            return None
        except CryptoError as e:
            if e.errno == ELIBBAD:      # registered, failed its test: found below
                return None
            if err is None or err.errno == ENOENT:   # keep a template's own refusal
                err = e
    if err is not None and err.errno == ENOENT:
        err = CryptoError(ENOENT, f"{name}: no algorithm, driver or template instance of that name")
    return err


def _testable() -> List[registry.CryptoAlg]:
    return [a for a in registry.snapshot()
            if not a.is_larval and not a.is_moribund and not a.cra_flags & capi.CRYPTO_ALG_INTERNAL]


def _matching(name: str) -> List[registry.CryptoAlg]:
    """The testable entries with driver name ``name``, else those with cra_name ``name``."""
    testable = _testable()
    return ([a for a in testable if a.cra_driver_name == name]
            or [a for a in testable if a.cra_name == name])


def _targets(names: List[str]) -> Tuple[List[registry.CryptoAlg], List[Tuple[str, CryptoError]]]:
    """The drivers to test and the names that matched nothing."""
    if not names:
        for desc in testmgr.ALG_TEST_DESCS:
            if "(" in desc.alg and desc.test != "cipher":
                _instantiate(desc.alg, desc.test)
                # the reference instance the full tests compare with: built (and
                # listed) here rather than in the middle of another driver's test
                _instantiate(testmgr.generic_driver_name(desc.alg, desc), desc.test)
        return sorted(_testable(), key=lambda a: (a.cra_name, a.cra_driver_name)), []
    chosen: List[registry.CryptoAlg] = []
    missing: List[Tuple[str, CryptoError]] = []
    for name in names:
        found = _matching(name)
        if not found:
            desc = testmgr.find_test(name)
            err = _instantiate(name, desc.test if desc else None)
            found = _matching(name)
            if not found:
                missing.append((name, err or CryptoError(ENOENT, f"{name}: no such algorithm")))
                continue
        chosen += sorted((a for a in found if a not in chosen), key=lambda a: -a.cra_priority)
    return chosen, missing


def _has_test(a: registry.CryptoAlg) -> bool:
    if a.cra_flags & capi.CRYPTO_ALG_TYPE_MASK == capi.CRYPTO_ALG_TYPE_CIPHER:
        return testmgr.find_test(f"ecb({a.cra_name})") is not None
    return testmgr.find_test(a.cra_name) is not None or testmgr.find_test(a.cra_driver_name) is not None


def run_one(a: registry.CryptoAlg) -> Tuple[str, float, str]:
    """(result, seconds, error message) of one driver's self-tests."""
    t0 = time.perf_counter()
    try:
        if a.tested:
            testmgr.alg_test(a.cra_driver_name, a.cra_name)
        else:      # failed at registration: test the untested driver itself, as the registry does
            testmgr.alg_test(a.cra_driver_name, a.cra_name,
                             a.cra_flags & ~capi.CRYPTO_ALG_TESTED, capi.CRYPTO_ALG_TESTED)
        result, why = ("passed" if _has_test(a) else "no test"), ""
    except CryptoError as e:
        log.warning("alg: self-tests for %s (%s) failed (rc=%d)", a.cra_driver_name, a.cra_name, -e.errno)
        result, why = "FAILED", e.message
    except Exception as e:  # a driver that crashes fails its test
        log.warning("alg: self-tests for %s (%s) failed: %s: %s",
                    a.cra_driver_name, a.cra_name, type(e).__name__, e)
        result, why = "FAILED", f"{type(e).__name__}: {e}"
    return result, time.perf_counter() - t0, why


def format_table(rows: List[Tuple[str, str, str, float]]) -> str:
    head = ("driver", "alg", "result", "time")
    cells = [head] + [(d, n, r, f"{t:.3f} s") for d, n, r, t in rows]
    w = [max(len(c[i]) for c in cells) for i in range(4)]
    lines = [f"{c[0]:<{w[0]}}  {c[1]:<{w[1]}}  {c[2]:<{w[2]}}  {c[3]:>{w[3]}}" for c in cells]
    return "\n".join(lines) + "\n"


def run(args) -> int:
    if not args.full and (args.iterations is not None or args.seed is not None):
        print("crypto-api selftest: error: --iterations and --seed apply to --full only "
              "(see crypto-api selftest --help)", file=sys.stderr)
        return 2
    out = _Output()
    saved = (log.propagate, log.level, testmgr.get_level(), testmgr.get_fuzz_iterations(),
             testmgr.get_fuzz_seed())
    log.addHandler(out)
    log.propagate = False
    log.setLevel(logging.INFO)
    try:
        return _run(args, out)
    finally:
        log.removeHandler(out)
        log.propagate, level = saved[0], saved[1]
        log.setLevel(level)
        testmgr.set_level(saved[2])
        testmgr.set_fuzz_iterations(saved[3])
        testmgr.set_fuzz_seed(saved[4])


def _run(args, out: _Output) -> int:
    start = time.perf_counter()
    if getattr(args, "generic_only", False):
        modules.generic_only()
    out.loading = True
    testmgr.set_level("fast")           # registration tests, as a boot runs them
    for name, err in modules.load_all().items():
        if err is not None and err.errno != ENODEV:
            tqdm.write(f"selftest: module {name} not loaded: {err.message}", file=sys.stderr)
    targets, missing = _targets(list(args.names))
    out.loading = False

    level = "full" if args.full else "fast"
    testmgr.set_level(level)
    seed = None
    if args.full:
        if args.iterations is not None:
            testmgr.set_fuzz_iterations(args.iterations)
        seed = args.seed if args.seed is not None else secrets.randbits(32)
        testmgr.set_fuzz_seed(seed)

    rows = []
    show = args.progress or sys.stderr.isatty()
    with tqdm(targets, desc="selftest", unit="driver", file=sys.stderr, disable=not show,
              leave=False, dynamic_ncols=True) as bar:
        for a in bar:
            bar.set_postfix_str(a.cra_driver_name, refresh=True)
            result, seconds, _ = run_one(a)
            rows.append((a.cra_driver_name, a.cra_name, result, seconds))
    for name, err in missing:
        print(f"selftest: {err.message}", file=sys.stderr)
        rows.append((name, "-", "NOT FOUND", 0.0))

    failed = sum(1 for r in rows if r[2] == "FAILED")
    passed = sum(1 for r in rows if r[2] == "passed")
    untested = sum(1 for r in rows if r[2] == "no test")
    print()
    sys.stdout.write(format_table(rows))
    summary = f"{len(targets)} drivers: {passed} passed, {failed} failed, {untested} without tests"
    if missing:
        summary += f", {len(missing)} not found"
    summary += f" (level {level}"
    if getattr(args, "generic_only", False):
        summary += ", generic drivers only"
    if args.full:
        summary += f", {testmgr.get_fuzz_iterations()} fuzz iterations, seed {seed}"
    summary += f"; {time.perf_counter() - start:.2f} s)"
    print(summary)
    return 1 if failed or missing else 0
