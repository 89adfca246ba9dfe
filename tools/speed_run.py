"""One speed run: measure every target at every size and build the report.

The report is a plain JSON-able dict (schema ``crypto_api-speed/1``); the
output formats (speed_formats) and ``speed compare`` read only the report,
so a saved ``--json`` file renders and compares exactly like a live run.

Phases, each optional: the size table (best of ``repeat`` samples per
target, operation and size), the same on N threads at once (``--threads``),
libgcrypt bench-slope's sweep (buffers of 16..4112 bytes in 64-byte steps by
default, median of a few short samples per size, then a least-squares line:
slope = ns/byte, intercept = per-call overhead) and ``openssl speed``.
"""

from __future__ import annotations

import datetime
import sys
from typing import Dict, List, Optional, Sequence

from tqdm import tqdm

from . import speed_measure as M
from .speed_machine import clock_info, machine_info
from .speed_peers import openssl_speed
from .speed_stats import linear_fit, median
from .speed_targets import Skip

SCHEMA = "crypto_api-speed/1"
DEFAULT_SIZES = (16, 64, 256, 512, 1024, 4096, 16384, 65536, 1 << 20)
#: bench-slope's buffer sizes: 16 to 4112 bytes in steps of 64.
SLOPE_SIZES = tuple(range(16, 4113, 64))
SLOPE_REPEAT = 3
SLOPE_SAMPLE_FRACTION = 8        # a sweep sample lasts sample_ms / 8


class Settings:
    """What ``speed`` was asked to do (everything measured is in the report)."""

    def __init__(self, sizes: Sequence[int] = DEFAULT_SIZES, repeat: int = 6, sample_ms: float = 20.0,
                 threads: int = 1, table: bool = True, slope: bool = True,
                 slope_sizes: Sequence[int] = SLOPE_SIZES, openssl: bool = False,
                 mhz: Optional[float] = None, mhz_source: str = "", command: str = "") -> None:
        self.sizes = list(sizes)
        self.repeat = repeat
        self.sample_ms = sample_ms
        self.threads = threads
        self.table = table
        self.slope = slope
        self.slope_sizes = list(slope_sizes)
        self.openssl = openssl
        self.mhz = mhz
        self.mhz_source = mhz_source
        self.command = command

    def as_dict(self) -> dict:
        return {"sizes": self.sizes, "repeat": self.repeat, "sample_ms": self.sample_ms,
                "threads": self.threads, "slope_sizes": self.slope_sizes if self.slope else [],
                "slope_repeat": SLOPE_REPEAT, "slope_sample_ms": self.sample_ms / SLOPE_SAMPLE_FRACTION}


def _result(target, op: str, size: int, threads: int = 1, m: Optional[M.Measurement] = None,
            skipped: Optional[str] = None) -> dict:
    r = {"target": target.id, "op": op, "size": size, "threads": threads}
    if skipped is not None:
        r["skipped"] = skipped
    else:
        r["iterations"] = m.iterations
        r["samples_ns"] = [round(x, 3) for x in m.per_call_ns]
    return r


def _measure_cell(target, op: str, size: int, sample_ns: float, repeat: int) -> dict:
    try:
        fn = target.op(op, size)
    except Skip as e:
        return _result(target, op, size, skipped=str(e))
    return _result(target, op, size, m=M.measure(fn, sample_ns, repeat))


def _measure_threads(target, op: str, size: int, n: int, iterations: int, repeat: int) -> dict:
    tfms = [target.new_tfm() for _ in range(n)]
    try:
        ops = [target.op(op, size, tfm=t) for t in tfms]
        return _result(target, op, size, threads=n, m=M.measure_threads(ops, iterations, repeat))
    except Skip as e:
        return _result(target, op, size, threads=n, skipped=str(e))
    finally:
        for t in tfms:
            t.free()


def _slope(target, op: str, sizes: Sequence[int], sample_ns: float) -> dict:
    points = []
    skipped = []
    for size in target.sizes(sizes):
        try:
            fn = target.op(op, size)
        except Skip as e:
            skipped.append(size)
            reason = str(e)
            continue
        m = M.measure(fn, sample_ns, SLOPE_REPEAT)
        points.append([size, round(median(m.per_call_ns), 3)])
    out = {"target": target.id, "op": op, "points": points}
    if skipped:
        out["skipped_sizes"] = skipped
        out["skip_reason"] = reason
    if target.block_only and len(points) == 1:
        size, ns = points[0]
        out.update(slope_ns_per_byte=ns / size, intercept_ns=None, r2=None,
                   note=f"one {size}-byte block per call: ns/B is a whole call over {size} bytes")
    elif len(points) >= 2:
        s, i, r2 = linear_fit([p[0] for p in points], [p[1] for p in points])
        out.update(slope_ns_per_byte=s, intercept_ns=i, r2=r2)
    else:
        out.update(slope_ns_per_byte=None, intercept_ns=None, r2=None)
    return out


def run(targets: List, peers: List, settings: Settings,
        progress: Optional[bool] = None) -> dict:
    """Measure ``targets`` (crypto_api) and ``peers`` as ``settings`` say; return the report."""
    if progress is None:
        progress = sys.stderr.isatty()
    sample_ns = settings.sample_ms * 1e6
    everyone = list(targets) + list(peers)
    plan = []
    if settings.table:
        for t in everyone:
            plan += [("table", t, op, size) for op in t.ops for size in t.sizes(settings.sizes)]
        if settings.threads > 1:
            plan += [("threads", t, op, size) for t in targets for op in t.ops
                     for size in t.sizes(settings.sizes)]
    if settings.slope:
        plan += [("slope", t, op, None) for t in everyone for op in t.ops]

    report = {
        "schema": SCHEMA,
        "created": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "command": settings.command,
        "machine": machine_info(),
        "clock": clock_info(settings.mhz, settings.mhz_source),
        "settings": settings.as_dict(),
        "loop_overhead_ns": round(M.loop_overhead_ns(min(sample_ns, 5e6)), 3),
        "targets": [t.describe() for t in everyone],
        "results": [],
        "slope": [],
        "openssl": None,
    }
    single: Dict[tuple, dict] = {}
    bar = tqdm(plan, desc="speed", unit="point", disable=not progress, leave=False, file=sys.stderr)
    for phase, t, op, size in bar:
        bar.set_postfix_str(f"{t.name} {op} {size or ''}".strip(), refresh=False)
        if phase == "table":
            r = _measure_cell(t, op, size, sample_ns, settings.repeat)
            single[(t.id, op, size)] = r
        elif phase == "threads":
            base = single.get((t.id, op, size), {})
            if "skipped" in base:
                r = dict(base, threads=settings.threads)
            else:
                r = _measure_threads(t, op, size, settings.threads, base.get("iterations", 1),
                                     settings.repeat)
        else:
            report["slope"].append(_slope(t, op, settings.slope_sizes, sample_ns / SLOPE_SAMPLE_FRACTION))
            continue
        report["results"].append(r)
    bar.close()
    if settings.openssl:
        report["openssl"] = openssl_speed(settings.sizes, seconds=max(1, round(settings.sample_ms / 20)))
    return report
