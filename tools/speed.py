"""``crypto-api speed``: the speed test (crypto/tcrypt.c, libgcrypt bench-slope,
Go benchmarks and benchstat, in one tool).

    crypto-api speed                                  # default set, table + bench-slope
    crypto-api speed --alg xchacha12 --peers          # with cryptography/pycryptodome
    crypto-api speed --driver xchacha12-generic --driver xchacha12-simd
    crypto-api speed --format go --json run.json      # Go lines for benchstat
    crypto-api speed compare old.json new.json        # change per size, Mann-Whitney U
    crypto-api speed show run.json --format go        # a saved report in another format
    crypto-api speed disk --image-size 256M           # the disk command's MB/s (sector sizes, --jobs)
    crypto-api speed --tcrypt 219                     # modprobe tcrypt mode=219
    crypto-api speed --goals                          # the speed goals' rows (AVX-512 masked)
    crypto-api speed --plot run.png                   # MB/s against size (matplotlib: [plot])

See the modules speed_* next to this one for the method of each part.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import json
import os
import re
import shlex
import sys
import tempfile
from typing import List

import crypto_api as capi
from crypto_api import modules as capi_modules
from crypto_api.errors import EINVAL, CryptoError

from . import (speed_compare, speed_disk, speed_formats, speed_goals, speed_goals_wide, speed_peers, speed_plot,
               speed_resolve, speed_run, speed_scaling, speed_targets, speed_tcrypt)
from .cli_common import sigterm_unwinds
from .speed_machine import cpu_mhz

MAX_SIZE = 64 << 20
_SIZE_RE = re.compile(r"^(\d+)([kKmM]?)$")


def parse_size(text: str) -> int:
    """A byte count: ``4096``, ``4k`` / ``4K`` (KiB), ``1m`` / ``1M`` (MiB)."""
    m = _SIZE_RE.match(text.strip())
    if not m:
        raise argparse.ArgumentTypeError(f"size {text!r}: expected bytes such as 4096, 16K or 1M")
    n = int(m.group(1)) << {"": 0, "k": 10, "m": 20}[m.group(2).lower()]
    if not 1 <= n <= MAX_SIZE:
        raise argparse.ArgumentTypeError(f"size {text!r}: must be 1 byte to {MAX_SIZE >> 20} MiB")
    return n


def parse_sizes(text: str) -> List[int]:
    """``--sizes 16,64,4K,1M`` (duplicates dropped, order kept)."""
    out: List[int] = []
    for part in text.split(","):
        if not part.strip():
            raise argparse.ArgumentTypeError(f"--sizes {text!r}: empty entry")
        n = parse_size(part)
        if n not in out:
            out.append(n)
    return out


def parse_range(text: str) -> List[int]:
    """``--slope-sizes START:STOP:STEP`` (STOP included) or a list like ``--sizes``."""
    if ":" not in text:
        sizes = parse_sizes(text)
    else:
        parts = text.split(":")
        if len(parts) != 3:
            raise argparse.ArgumentTypeError(f"--slope-sizes {text!r}: expected START:STOP:STEP")
        start, stop, step = (parse_size(p) for p in parts)
        sizes = list(range(start, stop + 1, step))
    if len(sizes) < 2:
        raise argparse.ArgumentTypeError(f"--slope-sizes {text!r}: a line needs at least two sizes")
    return sizes


def _positive_int(what: str, low: int = 1, high: int = 1000):
    def conv(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} {text!r}: not an integer") from None
        if not low <= n <= high:
            raise argparse.ArgumentTypeError(f"{what} {n}: must be {low}..{high}")
        return n
    return conv


def _budget(text: str) -> float:
    try:
        ms = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--time-budget {text!r}: not a number") from None
    if not 0.01 <= ms <= 10000:
        raise argparse.ArgumentTypeError(f"--time-budget {ms:g}: must be 0.01..10000 ms")
    return ms


def _features(text: str) -> List[str]:
    """``--cpu-mask avx512f,avx512vl`` (``none``: an empty list)."""
    names = [n.strip().lower() for n in text.split(",") if n.strip()]
    if names == ["none"]:
        return []
    bad = [n for n in names if not re.match(r"^[a-z0-9_.]+$", n)]
    if bad or not names:
        raise argparse.ArgumentTypeError(f"--cpu-mask {text!r}: expected feature names such as "
                                         "avx512f,avx512vl (or none)")
    return names


def register(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "speed", help="speed test: tcrypt, bench-slope, Go benchmark lines, compare",
        description="Measure crypto_api algorithms through the public API (tfm.encrypt/decrypt, "
                    "digest, encrypt_one), beside cryptography and pycryptodome with --peers. "
                    "Times batches of calls with time.perf_counter_ns; cycles are ns times "
                    "the stated CPU MHz, not a cycle counter.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="default algorithms: " + ", ".join(speed_targets.DEFAULT_ALGS))
    p.add_argument("--alg", action="append", default=[], metavar="NAME",
                   help="algorithm (or driver) name to measure; repeatable")
    p.add_argument("--driver", action="append", default=[], metavar="NAME",
                   help="pin one implementation by driver name; repeatable (side by side)")
    p.add_argument("--all-drivers", action="store_true",
                   help="with --alg: also every driver registered under that name, each pinned "
                   "(e.g. every xts(aes) beside the best)")
    p.add_argument("--sizes", type=parse_sizes, default=list(speed_run.DEFAULT_SIZES),
                   metavar="LIST", help="message sizes, e.g. 16,512,4K,1M "
                   "(default 16,64,256,512,1024,4096,16384,65536,1M)")
    p.add_argument("--repeat", type=_positive_int("--repeat", 1, 1000), default=10, metavar="N",
                   help="samples per point; the best is shown, the spread beside it (default 10)")
    p.add_argument("--time-budget", type=_budget, default=10.0, metavar="MS",
                   help="duration of one timed sample in ms; all phases scale with it (default 10)")
    p.add_argument("--peers", action="store_true",
                   help="also measure cryptography and pycryptodome at the same sizes; print ratios")
    p.add_argument("--openssl", action="store_true",
                   help="also run `openssl speed -evp chacha20` at the same sizes (native reference)")
    p.add_argument("--into", action="store_true",
                   help="skciphers: tfm.encrypt(data, iv, out=buf) into one preallocated buffer (as "
                        "openssl speed, tcrypt and bench-slope reuse theirs) instead of new bytes per "
                        "call; cipher peers likewise (update_into, output=)")
    p.add_argument("--threads", type=_positive_int("--threads", 1, 256), default=1, metavar="N",
                   help="also run N threads at once (one transform each): aggregate and scaling")
    p.add_argument("--format", choices=sorted(speed_formats.RENDERERS), default="table",
                   help="table (sizes + bench-slope), slope, csv (bench-slope --csv), go (benchstat)")
    p.add_argument("--json", metavar="FILE", help="write the full report (every sample) to FILE")
    p.add_argument("--plot", metavar="FILE.png", help="draw MB/s against message size, one line per driver "
                   "and peer, into FILE.png (needs the [plot] extra: matplotlib)")
    p.add_argument("--cpu-mhz", default="auto", metavar="MHZ",
                   help="MHz for cycles: a number, auto (/proc/cpuinfo), none (default auto)")
    p.add_argument("--slope-sizes", type=parse_range, default=list(speed_run.SLOPE_SIZES),
                   metavar="START:STOP:STEP", help="bench-slope buffer sizes (default 16:65552:1024; bench-slope's own "
                   "grid is 16:4112:64)")
    p.add_argument("--no-slope", action="store_true", help="skip the bench-slope sweep")
    p.add_argument("--tcrypt", type=_positive_int("--tcrypt", 0, 10000), metavar="MODE",
                   help="run tcrypt speed mode MODE with the kernel's lines (219: Adiantum)")
    p.add_argument("--sec", type=_positive_int("--sec", 0, 3600), default=0, metavar="N",
                   help="tcrypt: operations counted in N seconds instead of cycles")
    p.add_argument("--cpu-mask", metavar="LIST", type=_features,
                   help="pretend the CPU lacks these features (e.g. avx512f,avx512vl,avx512bw), for our "
                        "drivers, openssl speed and cryptography's OpenSSL (OPENSSL_ia32cap); none: "
                        "no mask")
    p.add_argument("--goals", action="store_true",
                   help="the speed goals' rows: by default measures " + ", ".join(speed_goals.GOAL_ALGS)
                        + " with --peers --openssl --threads 2 --no-slope at 16,512,4K,64K,1M, with "
                        "AVX-512 masked where the CPU has it (--cpu-mask " + ",".join(speed_goals.GOAL_MASK)
                        + "), and prints the ratios")
    p.set_defaults(func=main, speed_command=None)

    sub = p.add_subparsers(dest="speed_command", metavar="{compare,show,disk,scaling}")
    c = sub.add_parser("compare", help="compare two --json reports (benchstat style)",
                       description=speed_compare.__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    c.add_argument("old", metavar="OLD.json")
    c.add_argument("new", metavar="NEW.json")
    c.add_argument("--alpha", type=float, default=0.05, help="significance level (default 0.05)")
    c.add_argument("--old-target", metavar="NAME", help="target of OLD to compare (with --new-target)")
    c.add_argument("--new-target", metavar="NAME", help="target of NEW to compare with it")
    c.set_defaults(func=main_compare)
    sh = sub.add_parser("show", help="print a --json report in any format",
                        description="Render a saved --json report as a live run prints it.")
    sh.add_argument("report", metavar="RUN.json")
    sh.add_argument("--format", choices=sorted(speed_formats.RENDERERS), default="table")
    sh.add_argument("--plot", metavar="FILE.png", help="also draw the report into FILE.png ([plot] extra)")
    sh.set_defaults(func=main_show)
    speed_disk.register(sub)
    speed_scaling.register(sub)
    return p


def main_show(args) -> int:
    report = speed_compare.load_report(args.report)
    if args.plot:
        speed_plot.plot(report, args.plot)
    _out(speed_formats.RENDERERS[args.format](report))
    return 0


def _out(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()


def main_compare(args) -> int:
    if not 0 < args.alpha < 1:
        raise CryptoError(EINVAL, f"--alpha {args.alpha:g}: must be between 0 and 1")
    old = speed_compare.load_report(args.old)
    new = speed_compare.load_report(args.new)
    result = speed_compare.compare(old, new, args.alpha, args.old_target, args.new_target)
    old_label = args.old + (f" [{args.old_target}]" if args.old_target else "")
    new_label = args.new + (f" [{args.new_target}]" if args.new_target else "")
    _out(speed_compare.render(result, old_label, new_label))
    return 0


def _command_line() -> str:
    argv = sys.argv[1:]
    if argv[:1] != ["speed"]:
        return ""
    return "crypto-api " + " ".join(shlex.quote(a) for a in argv)


def _load_modules() -> None:
    """modprobe every available module, as a booted system has them for its CPU, so a
    name resolves to the best driver whatever else was allocated before it.  A module
    that cannot even be imported (a broken plug-in) is reported and skipped."""
    for name in capi_modules.available_modules():
        if capi_modules.is_loaded(name):
            continue
        try:
            capi.insmod(name)
        except CryptoError:
            pass                         # ENODEV: the CPU lacks a feature; EEXIST: loaded meanwhile
        except Exception as e:
            print(f"crypto-api speed: module {name} not loaded: {type(e).__name__}: {e}",
                  file=sys.stderr)


def _measure(args, mhz, mhz_source) -> dict:
    targets = speed_resolve.resolve(args.alg, args.driver, args.into, args.all_drivers)
    try:
        peers = speed_peers.peers_for([t.cra_name for t in targets], args.into) if args.peers else []
        table = args.format in ("table", "go")
        slope = args.format in ("table", "slope", "csv") and not args.no_slope
        if not table and not slope:
            raise CryptoError(EINVAL, f"--format {args.format} with --no-slope: nothing to measure")
        settings = speed_run.Settings(
            sizes=args.sizes, repeat=args.repeat, sample_ms=args.time_budget, threads=args.threads,
            table=table, slope=slope, slope_sizes=args.slope_sizes, openssl=args.openssl,
            mhz=mhz, mhz_source=mhz_source, command=_command_line(),
            openssl_rounds=args.repeat if getattr(args, "goals", False) else 1)
        return speed_run.run(targets, peers, settings)
    finally:
        for t in targets:
            t.free()


def _goal_defaults(args) -> None:
    """``--goals``: what the goal rows need, where the command line says nothing else."""
    if not args.alg and not args.driver:
        args.alg = list(speed_goals.GOAL_ALGS)
        args.goals_wide = True          # the default set: the AVX-512 rows' phase too
    if args.sizes == list(speed_run.DEFAULT_SIZES):
        args.sizes = list(speed_goals.GOAL_SIZES)
    args.peers = args.openssl = args.no_slope = True
    args.threads = max(args.threads, 2)
    if args.cpu_mask is None:
        from crypto_api.arch.x86.cpufeature import boot_cpu_has, IS_X86
        args.cpu_mask = [f for f in speed_goals.GOAL_MASK if IS_X86 and boot_cpu_has(f)]


def _apply_cpu_mask(names: List[str], stack: contextlib.ExitStack) -> dict:
    """Mask ``names`` for the modules loaded from now on, openssl speed and (if not
    loaded yet) cryptography's OpenSSL; what was done, for the report."""
    from crypto_api.arch.x86.cpufeature import masked_features
    info = {"masked": list(names), "loaded_before": capi.loaded_modules()}
    stack.enter_context(masked_features(*names))
    cap = os.environ.get("OPENSSL_ia32cap")
    if cap is None:
        cap = speed_goals.openssl_ia32cap(names)
        if cap is not None:
            os.environ["OPENSSL_ia32cap"] = cap      # read by openssl speed and libcrypto at load
            stack.callback(os.environ.pop, "OPENSSL_ia32cap", None)
    info["openssl_ia32cap"] = cap
    if cap is not None:
        info["cryptography"] = ("loaded before the mask: not masked" if "cryptography" in sys.modules
                                else "masked (OPENSSL_ia32cap)")
    return info


def main(args) -> int:
    with contextlib.ExitStack() as stack:
        stack.enter_context(sigterm_unwinds())       # a killed run removes its temporary
        if getattr(args, "goals", False):
            _goal_defaults(args)
        mask = None
        if getattr(args, "cpu_mask", None):
            mask = _apply_cpu_mask(args.cpu_mask, stack)
        return _main(args, mask)


def _main(args, mask: dict = None) -> int:
    mhz, mhz_source = cpu_mhz(args.cpu_mhz)
    _load_modules()
    if args.tcrypt is not None:
        extra = [o for o, v in (("--peers", args.peers), ("--openssl", args.openssl),
                                ("--threads", args.threads > 1), ("--json", args.json),
                                ("--alg", args.alg), ("--driver", args.driver), ("--into", args.into)) if v]
        if extra:
            raise CryptoError(EINVAL, f"--tcrypt: {extra[0]} does not apply to a tcrypt mode")
        if args.plot:
            raise CryptoError(EINVAL, "--tcrypt: --plot does not apply to a tcrypt mode")
        speed_tcrypt.check_mode(args.tcrypt, args.sec, mhz)
        if args.sec:
            note = f"speed: tcrypt mode {args.tcrypt}: operations counted for {args.sec} s each"
        else:
            note = (f"speed: tcrypt mode {args.tcrypt}: cycles = time.perf_counter_ns x "
                    f"{mhz or 0:g} MHz / 1000, MHz from {mhz_source}; no cycle counter is read")
        print(note, file=sys.stderr, flush=True)
        return speed_tcrypt.run_mode(args.tcrypt, args.sec, mhz,
                                     lambda s: print(s, flush=True),
                                     lambda s: print(s, file=sys.stderr, flush=True))
    if args.sec:
        raise CryptoError(EINVAL, "--sec: only for --tcrypt")
    if args.plot:
        if args.format not in ("table", "go"):
            raise CryptoError(EINVAL, f"--plot: --format {args.format} measures no message sizes to plot")
        speed_plot.require_matplotlib()            # a missing extra is named before the run
    # create the report file's temporary first: a path that cannot be written fails now,
    # not after the run; the file itself is replaced only once the run has finished
    tmp = None
    if args.json:
        target = os.path.abspath(args.json)
        if os.path.isdir(target):
            raise IsADirectoryError(errno.EISDIR, "Is a directory", args.json)
        try:
            tmp = tempfile.NamedTemporaryFile("w", encoding="utf-8", delete=False, suffix=".tmp",
                                              dir=os.path.dirname(target),
                                              prefix="." + os.path.basename(target) + ".")
        except OSError as e:
            raise OSError(e.errno, e.strerror, args.json) from None
    try:
        report = _measure(args, mhz, mhz_source)
        if mask is not None:
            report["cpu_mask"] = mask
        if getattr(args, "goals_wide", False):
            print("crypto-api speed: goals, second phase: rows R6-R9 with AVX-512 on (a child run)",
                  file=sys.stderr, flush=True)
            report["wide"] = speed_goals_wide.measure(args)
        if getattr(args, "goals", False):
            report["goals"] = speed_goals.evaluate(report)
            report["goals_control"] = speed_goals.control_rows(report)
        if tmp is not None:
            json.dump(report, tmp, indent=1)
            tmp.write("\n")
            tmp.close()
            os.replace(tmp.name, target)
            tmp = None
    finally:
        if tmp is not None:
            tmp.close()
            os.unlink(tmp.name)
    if args.plot:
        speed_plot.plot(report, args.plot)
    _out(speed_formats.RENDERERS[args.format](report))
    return 0
