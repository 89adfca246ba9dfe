"""``crypto-api speed scaling``: the thread and batch scaling goals as rows of ratios.

Each row is one ratio from one run, its two sides sampled alternately (a
change of machine load hits both alike): the aggregate MB/s of N Python
threads, each calling ``tfm.encrypt`` on its own transform, over one
thread's (speed_measure.measure_scaling); and the batch entry point
(``tfm.encrypt_batch``, crypto_api/batch.py) with 2 native workers over 1,
on batches of 4 KiB sectors.  Beside them the control, hashlib.sha256 at
64 KiB on 2 threads (speed_control): what the machine gave two threads
then.  Each side's best MB/s and spread ((max - min) / median) are shown.

No kernel counterpart (tcrypt has no threads).
"""

from __future__ import annotations

import argparse
import json
import os
from time import perf_counter_ns
from typing import Callable, List, Optional

import attrs

from . import speed_control
from . import speed_measure as M
from .speed_machine import machine_info, machine_line
from .speed_stats import median

ADIANTUM = "adiantum(xchacha12,aes)"


@attrs.define(frozen=True)
class ScalingGoal:
    """One row: ``alg`` at ``size`` on ``threads`` Python threads over 1, or
    (``workers``) one batch of ``batch`` messages on that many native workers over 1."""

    row: str
    what: str
    alg: str
    size: int
    goal: float
    threads: int = 1
    workers: int = 0
    batch: int = 0


GOALS = (
    ScalingGoal("3a", "xchacha12 4 KiB, 2 threads vs 1", "xchacha12", 4096, 1.6, threads=2),
    ScalingGoal("3b", "adiantum 4 KiB, 2 threads vs 1", ADIANTUM, 4096, 1.6, threads=2),
    ScalingGoal("4a", "xchacha12 4 KiB, 8 threads vs 1", "xchacha12", 4096, 1.5, threads=8),
    ScalingGoal("4b", "xchacha12 64 KiB, 8 threads vs 1 (no collapse)", "xchacha12", 65536, 1.0,
                threads=8),
    ScalingGoal("5", "adiantum batch of 1024 4 KiB sectors, 2 workers vs 1", ADIANTUM, 4096, 1.8,
                workers=2, batch=1024),
)


def register(sub) -> None:
    s = sub.add_parser("scaling", help="thread and batch scaling rows (ratios in one run)",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    s.add_argument("--repeat", type=int, default=5, metavar="N", help="samples of each side (default 5)")
    s.add_argument("--time-budget", type=float, default=10.0, metavar="MS",
                   help="one sample's length in ms before the threads' minimum (default 10)")
    s.add_argument("--row", action="append", choices=[g.row for g in GOALS],
                   help="only this row; repeatable (default: all)")
    s.add_argument("--json", metavar="FILE", help="also write the rows and every sample to FILE")
    s.set_defaults(func=main_scaling)


def _tfm(alg: str):
    from crypto_api import crypto_alloc_skcipher
    tfm = crypto_alloc_skcipher(alg)
    tfm.setkey(os.urandom(32))
    return tfm


def _encrypt_op(alg: str, size: int, tfms: list) -> Callable[[], object]:
    tfm = _tfm(alg)
    tfms.append(tfm)
    data, iv, out = os.urandom(size), os.urandom(tfm.ivsize), bytearray(size)
    enc = tfm.encrypt
    return lambda: enc(data, iv, out)


def _spread(xs: List[float]) -> Optional[float]:
    mid = median(xs)
    return (max(xs) - min(xs)) / mid if xs and mid else None


def _row(row: str, what: str, goal: Optional[float], size: int, one: List[float],
         many: List[float]) -> dict:
    """From ns per message (aggregate) of each side's samples."""
    ratio = min(one) / min(many)
    return {"row": row, "what": what, "goal": goal, "ratio": ratio,
            "met": None if goal is None else ratio >= goal,
            "ours_mbps": size / min(many) * 1e3, "one_mbps": size / min(one) * 1e3,
            "ours_spread": _spread(many), "one_spread": _spread(one),
            "one_samples_ns": [round(x, 3) for x in one], "samples_ns": [round(x, 3) for x in many]}


def _threads_row(g: ScalingGoal, sample_ns: float, repeat: int) -> dict:
    tfms: list = []
    try:
        ops = [_encrypt_op(g.alg, g.size, tfms) for _ in range(g.threads)]
        iterations = M.calibrate(ops[0], max(sample_ns, M.thread_sample_min_ns()))
        one, many = M.measure_scaling(ops, iterations, repeat)
    finally:
        for t in tfms:
            t.free()
    return _row(g.row, g.what, g.goal, g.size, one.per_call_ns, many.per_call_ns)


def _batch_row(g: ScalingGoal, sample_ns: float, repeat: int) -> dict:
    tfm = _tfm(g.alg)
    try:
        buf = bytearray(os.urandom(g.size * g.batch))
        mv = memoryview(buf)
        sectors = [mv[i * g.size:(i + 1) * g.size] for i in range(g.batch)]
        ivs = [i.to_bytes(tfm.ivsize, "little") for i in range(g.batch)]

        def op(workers: int) -> Callable[[], object]:
            return lambda: tfm.encrypt_batch(sectors, ivs, sectors, workers=workers)

        iterations = M.calibrate(op(1), sample_ns)
        one, many = [], []
        for k in range(repeat + 1):               # alternately; the first round warms up
            for side, workers in ((one, 1), (many, g.workers)):
                f = op(workers)
                t0 = perf_counter_ns()
                for _ in range(iterations):
                    f()
                if k:
                    side.append((perf_counter_ns() - t0) / (iterations * g.batch))
    finally:
        tfm.free()
    return _row(g.row, g.what, g.goal, g.size, one, many)


def _control_row(sample_ns: float, repeat: int) -> dict:
    c = speed_control.thread_control(65536, 2, max(sample_ns, M.thread_sample_min_ns()), repeat)
    return _row("ctl", f"control: {c['name']} 64 KiB, 2 threads vs 1", None, 65536,
                c["one_thread_samples_ns"], c["samples_ns"])


def measure(rows: Optional[List[str]], sample_ms: float, repeat: int) -> dict:
    """Every asked row and the control: {"rows": [...], "machine": ...}."""
    sample_ns = sample_ms * 1e6
    out = []
    for g in GOALS:
        if rows and g.row not in rows:
            continue
        out.append(_batch_row(g, sample_ns, repeat) if g.workers else _threads_row(g, sample_ns, repeat))
    out.append(_control_row(sample_ns, repeat))
    return {"rows": out, "machine": machine_line(machine_info())}


def _fmt(x: Optional[float], pct: bool = False) -> str:
    if x is None:
        return "-"
    return f"{x * 100:.1f}%" if pct else f"{x:.2f}" if x < 10 else f"{x:.0f}"


def lines(report: dict) -> List[str]:
    out = [f"scaling rows ({report['machine']}): ratio = best aggregate MB/s of the many "
           "over the one, sampled alternately; spread = (max - min) / median",
           f"{'row':>4} | {'measure':<52} | {'ratio':>6} {'goal':>5} {'met':>4} | "
           f"{'MB/s':>7} {'spread':>7} | {'1: MB/s':>7} {'spread':>7}"]
    for r in report["rows"]:
        met = "-" if r["met"] is None else "yes" if r["met"] else "no"
        out.append(f"{r['row']:>4} | {r['what']:<52} | {_fmt(r['ratio']):>6} {_fmt(r['goal']):>5} "
                   f"{met:>4} | {_fmt(r['ours_mbps']):>7} {_fmt(r['ours_spread'], True):>7} | "
                   f"{_fmt(r['one_mbps']):>7} {_fmt(r['one_spread'], True):>7}")
    return out


def main_scaling(args) -> int:
    from crypto_api.errors import EINVAL, CryptoError
    if args.repeat < 1 or args.time_budget <= 0:
        raise CryptoError(EINVAL, "speed scaling: --repeat must be at least 1 and --time-budget positive")
    report = measure(args.row, args.time_budget, args.repeat)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(report, f, indent=1)
            f.write("\n")
    for line in lines(report):
        print(line, flush=True)
    return 0
