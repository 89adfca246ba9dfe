"""Timing engine of the speed tool: batches of calls timed with perf_counter_ns.

One *sample* is a batch of ``iterations`` calls timed together, so the
timer's own cost and resolution are spread over many calls.  The batch size
is calibrated first (those runs also warm up caches and branch predictors),
so that a sample lasts about ``sample_ns``; one more untimed batch warms up,
then ``repeat`` samples are taken.  The garbage collector is paused while a
batch runs (as ``timeit`` does).  The cost of the timing loop itself is
measured separately (:func:`loop_overhead_ns`) and reported, not subtracted.

``measure_threads`` runs the same batch on N threads at once, one callable
(one transform) per thread, and times the wall clock from a common start to
the last thread's end: the aggregate cost per call.
"""

from __future__ import annotations

import gc
import itertools
import math
import threading
from functools import partial
from time import perf_counter_ns
from typing import Callable, List, Sequence

#: Upper bound on one batch, so a no-op cannot make calibration run forever.
MAX_ITERATIONS = 1 << 26


class Measurement:
    """``repeat`` samples of ``iterations`` calls each (wall nanoseconds per sample)."""

    __slots__ = ("iterations", "sample_ns", "threads")

    def __init__(self, iterations: int, sample_ns: List[int], threads: int = 1) -> None:
        self.iterations = iterations
        self.sample_ns = sample_ns
        self.threads = threads

    @property
    def per_call_ns(self) -> List[float]:
        """Nanoseconds per call of each sample (aggregate over the threads)."""
        calls = self.iterations * self.threads
        return [s / calls for s in self.sample_ns]

    def __repr__(self) -> str:
        return f"<Measurement {self.iterations}x{self.threads} {self.per_call_ns}>"


def time_batch(op: Callable[[], object], iterations: int) -> int:
    """Nanoseconds taken by ``iterations`` calls of ``op`` (GC paused)."""
    loop = itertools.repeat(None, iterations)
    enabled = gc.isenabled()
    gc.disable()
    try:
        t0 = perf_counter_ns()
        for _ in loop:
            op()
        return perf_counter_ns() - t0
    finally:
        if enabled:
            gc.enable()


def calibrate(op: Callable[[], object], sample_ns: float) -> int:
    """Calls per batch so that one batch takes about ``sample_ns``."""
    k = 1
    while True:
        t = max(time_batch(op, k), 1)
        if t >= sample_ns / 8 or k >= MAX_ITERATIONS:
            return max(1, min(MAX_ITERATIONS, round(k * sample_ns / t)))
        k = min(MAX_ITERATIONS, k * min(100, max(2, math.ceil(sample_ns / 8 / t))))


def measure(op: Callable[[], object], sample_ns: float, repeat: int) -> Measurement:
    """Calibrate, warm up with one batch, then time ``repeat`` batches."""
    k = calibrate(op, sample_ns)
    time_batch(op, k)
    return Measurement(k, [time_batch(op, k) for _ in range(repeat)])


def loop_overhead_ns(sample_ns: float = 5e6, repeat: int = 3) -> float:
    """Per-call cost of the timing loop around the cheapest C call (``len``)."""
    m = measure(partial(len, b""), sample_ns, repeat)
    return min(m.per_call_ns)


def measure_threads(ops: Sequence[Callable[[], object]], iterations: int, repeat: int) -> Measurement:
    """Each sample: every op called ``iterations`` times on its own thread, all at once."""
    n = len(ops)
    samples = []
    for _ in range(repeat + 1):          # the first round warms up the threads' transforms
        start = threading.Barrier(n + 1)
        errors: List[BaseException] = []

        def worker(op):
            loop = itertools.repeat(None, iterations)
            start.wait()
            try:
                for _ in loop:
                    op()
            except BaseException as e:   # reported in the calling thread
                errors.append(e)

        threads = [threading.Thread(target=worker, args=(op,), daemon=True) for op in ops]
        for t in threads:
            t.start()
        enabled = gc.isenabled()
        gc.disable()
        try:
            start.wait()
            t0 = perf_counter_ns()
            for t in threads:
                t.join()
            elapsed = perf_counter_ns() - t0
        finally:
            if enabled:
                gc.enable()
        if errors:
            raise errors[0]
        samples.append(elapsed)
    return Measurement(iterations, samples[1:], threads=n)
