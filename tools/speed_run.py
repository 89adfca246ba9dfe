"""One speed run: measure every target at every size and build the report.

The report is a plain JSON-able dict (schema ``crypto_api-speed/1``); the
output formats (speed_formats) and ``speed compare`` read only the report,
so a saved ``--json`` file renders and compares exactly like a live run.

Phases, each optional: the size table (best of ``repeat`` samples per
target, operation and size), the same on N threads at once (``--threads``:
each point sampled alternately on one thread and on N, each sample at
least 20 switch intervals long, with the machine's own scaling at each size
beside it, speed_control),
libgcrypt bench-slope's sweep and ``openssl speed``.  Within a phase every
point is set up (calibrated, warmed up) first, then sampled in rounds, so a
slow spell of the machine touches one sample of many points.  ``openssl
speed``'s rounds (every size once each) run between the table's rounds,
spread evenly, so that its best rates and ours come from the same stretches
of a machine whose speed changes from minute to minute.

The sweep fits a least-squares line to the best of 3 short samples per
buffer size: slope = ns/byte, intercept = per-call overhead.  bench-slope
takes the median of 64 runs at 16..4112 bytes in 64-byte steps on a quiet
machine; here a Python call costs microseconds with jitter of the same
order, which would hide a slope of a fraction of a ns/byte over 4 KiB, so
the default sweep is 16..65552 bytes in 1024-byte steps (65 sizes, as
bench-slope's), and the best of 3 resists other processes taking the CPU,
which only ever adds time.
"""

from __future__ import annotations

import datetime
import math
import sys
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from tqdm import tqdm

import crypto_api as capi

from . import speed_measure as M
from .speed_machine import clock_info, loadavg, machine_info
from .speed_aria import openssl_choice
from .speed_control import thread_control
from .speed_peers import OpensslSpeed
from .speed_stats import linear_fit
from .speed_targets import Skip

SCHEMA = "crypto_api-speed/1"
DEFAULT_SIZES = (16, 64, 256, 512, 1024, 4096, 16384, 65536, 1 << 20)
#: 65 buffer sizes like bench-slope's, in 1024-byte steps instead of its 64 (see above).
SLOPE_SIZES = tuple(range(16, 65553, 1024))
SLOPE_REPEAT = 3
SLOPE_SAMPLE_FRACTION = 8        # a sweep sample lasts sample_ms / 8


class Settings:
    """What ``speed`` was asked to do (everything measured is in the report)."""

    def __init__(self, sizes: Sequence[int] = DEFAULT_SIZES, repeat: int = 10, sample_ms: float = 10.0,
                 threads: int = 1, table: bool = True, slope: bool = True,
                 slope_sizes: Sequence[int] = SLOPE_SIZES, openssl: bool = False,
                 mhz: Optional[float] = None, mhz_source: str = "", command: str = "",
                 openssl_rounds: int = 1) -> None:
        self.sizes = list(sizes)
        self.repeat = repeat
        self.sample_ms = sample_ms
        self.threads = threads
        self.table = table
        self.slope = slope
        self.slope_sizes = list(slope_sizes)
        self.openssl = openssl
        self.openssl_rounds = openssl_rounds
        self.mhz = mhz
        self.mhz_source = mhz_source
        self.command = command

    def as_dict(self) -> dict:
        return {"sizes": self.sizes, "repeat": self.repeat, "sample_ms": self.sample_ms,
                "threads": self.threads, "slope_sizes": self.slope_sizes if self.slope else [],
                "slope_repeat": SLOPE_REPEAT, "slope_statistic": "min",
                "slope_sample_ms": self.sample_ms / SLOPE_SAMPLE_FRACTION}


def _result(target, op: str, size: int, threads: int = 1, m: Optional[M.Measurement] = None,
            skipped: Optional[str] = None) -> dict:
    r = {"target": target.id, "op": op, "size": size, "threads": threads}
    if skipped is not None:
        r["skipped"] = skipped
    else:
        r["iterations"] = list(m.iterations)
        r["samples_ns"] = [round(x, 3) for x in m.per_call_ns]
        if threads == 1:
            r["retaken"] = m.retaken
    return r


def _measure_threads(target, op: str, size: int, n: int, iterations: int, repeat: int) -> dict:
    """N threads' samples, and one thread's taken alternately with them
    (``one_thread_samples_ns``: what the scaling of this row divides by)."""
    tfms = [target.new_tfm() for _ in range(n)]
    try:
        ops = [target.op(op, size, tfm=t) for t in tfms]
        one, many = M.measure_scaling(ops, iterations, repeat)
        r = _result(target, op, size, threads=n, m=many)
        r["one_thread_samples_ns"] = [round(x, 3) for x in one.per_call_ns]
        return r
    except Skip as e:
        return _result(target, op, size, threads=n, skipped=str(e))
    finally:
        for t in tfms:
            t.free()


def _slope_line(target, op: str, points: List[list], skipped: List[int], reason: str) -> dict:
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


class _Points:
    """Cells of one phase, set up one by one, then sampled in rounds."""

    def __init__(self, bar) -> None:
        self.cells: List[Tuple[tuple, object]] = []
        self.skipped: Dict[tuple, str] = {}
        self.bar = bar

    def add(self, key: tuple, target, op: str, size: int, sample_ns: float, repeat: int) -> None:
        self.bar.set_postfix_str(f"{target.name} {op} {size}", refresh=False)
        try:
            fn = target.op(op, size)
        except Skip as e:
            self.skipped[key] = str(e)
        else:
            self.cells.append((key, M.Cell(fn, sample_ns, repeat)))
        self.bar.update()

    def rounds(self, repeat: int, between: Callable[[int], None] = lambda i: None
               ) -> Dict[tuple, M.Measurement]:
        """``repeat`` rounds of one sample of every cell; ``between(i)`` after round i."""
        for i in range(repeat):
            for _key, cell in self.cells:
                cell.sample()
                self.bar.update()
            between(i)
        return {key: cell.result() for key, cell in self.cells}


def _spread(n: int, repeat: int) -> List[int]:
    """After which of ``repeat`` rounds to run ``n`` others, evenly spread (at
    most one after each; what does not fit runs after them all)."""
    return [i for i in range(repeat) if (i + 1) * n // repeat > i * n // repeat]


def run(targets: List, peers: List, settings: Settings,
        progress: Optional[bool] = None) -> dict:
    """Measure ``targets`` (crypto_api) and ``peers`` as ``settings`` say; return the report."""
    if progress is None:
        progress = sys.stderr.isatty()
    sample_ns = settings.sample_ms * 1e6
    slope_ns = sample_ns / SLOPE_SAMPLE_FRACTION
    everyone = list(targets) + list(peers)
    table = [(t, op, size) for t in everyone for op in t.ops for size in t.sizes(settings.sizes)] \
        if settings.table else []
    threads = [(t, op, size) for t in targets for op in t.ops for size in t.sizes(settings.sizes)] \
        if settings.table and settings.threads > 1 else []
    slope = [(t, op, size) for t in everyone for op in t.ops for size in t.sizes(settings.slope_sizes)] \
        if settings.slope else []
    total = len(table) * (settings.repeat + 1) + len(threads) + len(slope) * (SLOPE_REPEAT + 1)

    report = {
        "schema": SCHEMA,
        "created": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "command": settings.command,
        "machine": machine_info(),
        "clock": clock_info(settings.mhz, settings.mhz_source),
        "settings": settings.as_dict(),
        "loop_overhead_ns": round(M.loop_overhead_ns(min(sample_ns, 5e6)), 3),
        "modules": capi.loaded_modules(),
        "load": {"start": loadavg()},
        "targets": [t.describe() for t in everyone],
        "results": [],
        "slope": [],
        "openssl": None,
        "thread_control": [],
    }
    # openssl speed's rounds run among the table's, so that both sides' best
    # samples come from the same stretches of the machine's time
    ossl = OpensslSpeed(settings.sizes, seconds=max(1, round(settings.sample_ms / 20)),
                        **openssl_choice([t.cra_name for t in targets])) if settings.openssl else None
    ossl_after = _spread(settings.openssl_rounds, settings.repeat) if ossl and table else []
    with tqdm(total=total, desc="speed", unit="sample", disable=not progress, leave=False,
              file=sys.stderr) as bar:
        if table:
            points = _Points(bar)
            for t, op, size in table:
                points.add((t.id, op, size), t, op, size, sample_ns, settings.repeat)
            measured = points.rounds(settings.repeat,
                                     between=lambda i: ossl.round() if i in ossl_after else None)
            for t, op, size in table:
                key = (t.id, op, size)
                report["results"].append(_result(t, op, size, m=measured.get(key),
                                                 skipped=points.skipped.get(key)))
            for t, op, size in threads:
                bar.set_postfix_str(f"{t.name} {op} {size} x{settings.threads}", refresh=False)
                key = (t.id, op, size)
                if key in points.skipped:
                    r = _result(t, op, size, threads=settings.threads, skipped=points.skipped[key])
                else:
                    # a threads sample lasts at least thread_sample_min_ns (speed_measure):
                    # as many calls as the table's batches scaled up, and at least as many
                    # as that time holds at the table's best rate (a calibration that a
                    # busy spell slowed gives too small a batch)
                    m = measured[key]
                    longer = max(1, math.ceil(M.thread_sample_min_ns() / sample_ns))
                    calls = max(max(m.iterations) * longer,
                                math.ceil(M.thread_sample_min_ns() / min(m.per_call_ns)))
                    r = _measure_threads(t, op, size, settings.threads, calls, settings.repeat)
                report["results"].append(r)
                if size not in {c["size"] for c in report["thread_control"]}:
                    report["thread_control"].append(
                        thread_control(size, settings.threads, max(sample_ns, M.thread_sample_min_ns()),
                                       settings.repeat))
                bar.update()
        if slope:
            points = _Points(bar)
            for t, op, size in slope:
                points.add((t.id, op, size), t, op, size, slope_ns, SLOPE_REPEAT)
            measured = points.rounds(SLOPE_REPEAT)
            for t in everyone:
                for op in t.ops:
                    sizes = t.sizes(settings.slope_sizes)
                    got = [[size, round(min(measured[(t.id, op, size)].per_call_ns), 3)]
                           for size in sizes if (t.id, op, size) in measured]
                    skipped = [size for size in sizes if (t.id, op, size) in points.skipped]
                    reason = points.skipped[(t.id, op, skipped[0])] if skipped else ""
                    report["slope"].append(_slope_line(t, op, got, skipped, reason))
    report["load"]["end"] = loadavg()
    if ossl is not None:
        for _ in range(settings.openssl_rounds - ossl.rounds):
            ossl.round()
        report["openssl"] = ossl.report()
        if ossl_after:
            report["openssl"]["between_rounds"] = [i + 1 for i in ossl_after]
    return report
