"""Timing engine of the speed tool: batches of calls timed with perf_counter_ns.

One *sample* is a batch of calls timed together, so the timer's own cost
and resolution are spread over many calls.  A :class:`Cell` (one operation
at one size) first calibrates its batch size so that a sample lasts about
``sample_ns`` (those runs also warm up caches and branch predictors) and
runs one more untimed batch; then samples are taken one at a time, each
after one untimed call.  The speed run takes the samples of all its cells
in rounds (every cell once, then again ...), so a slow spell of the machine
lasting a fraction of a second spoils one sample of many cells rather than
every sample of one.  The garbage collector is paused while a batch runs (as
``timeit`` does).  The cost of the timing loop itself is measured separately
(:func:`loop_overhead_ns`) and reported, not subtracted.

On a shared machine another process can take the CPU in the middle of a
sample.  Each sample therefore also reads this thread's CPU time
(``time.thread_time_ns``); a sample whose CPU time is under ``BUSY_RATIO``
of its wall time was descheduled, and is taken again; every second retake
halves the batch (down to about ``MIN_SAMPLE_NS``), as short batches slip
between other processes' time slices.  After ``RETAKES`` retakes per sample
asked for, samples are kept as they come.  The count is reported as
``retaken``; on a quiet machine it is 0.

``measure_threads`` runs the same batch on N threads at once, one callable
(one transform) per thread, and times the wall clock from a common start to
the last thread's end: the aggregate cost per call.  ``measure_scaling``
alternates that with the same batch on one thread (also a started thread,
so both sides pay the same), sample by sample: a scaling ratio then compares
samples taken moments apart, not minutes apart, on a machine whose
capacity changes (a virtual machine's CPUs are shared with its neighbours).
"""

from __future__ import annotations

import contextlib
import gc
import itertools
import math
import sys
import threading
from functools import partial
from time import perf_counter_ns, thread_time_ns
from typing import Callable, Iterator, List, Sequence, Tuple

#: Upper bound on one batch, so a no-op cannot make calibration run forever.
MAX_ITERATIONS = 1 << 26
#: A sample that ran on the CPU for less than this share of its wall time is retaken ...
BUSY_RATIO = 0.9
#: ... at most RETAKES times per sample asked for, halving the batch down to about this.
RETAKES = 4
MIN_SAMPLE_NS = 500_000
#: A sample on several threads lasts at least this many switch intervals
#: (sys.getswitchinterval(), 5 ms by default): threads that start together
#: first wait for the GIL the usual way, in runs of one thread, until the
#: others get a first turn (crypto_api/gil_handoff.h), a start-up cost that a
#: long-running thread pool pays once.
THREAD_SAMPLE_SWITCHES = 20


def thread_sample_min_ns() -> float:
    """The shortest sample of the threads phase (see THREAD_SAMPLE_SWITCHES)."""
    return THREAD_SAMPLE_SWITCHES * sys.getswitchinterval() * 1e9


class Measurement:
    """Samples of one point: wall nanoseconds of each batch and its number of calls."""

    __slots__ = ("iterations", "sample_ns", "threads", "retaken")

    def __init__(self, iterations: List[int], sample_ns: List[int], threads: int = 1,
                 retaken: int = 0) -> None:
        self.iterations = iterations        # calls per thread in each sample
        self.sample_ns = sample_ns
        self.threads = threads
        self.retaken = retaken

    @property
    def per_call_ns(self) -> List[float]:
        """Nanoseconds per call of each sample (aggregate over the threads)."""
        return [s / (k * self.threads) for s, k in zip(self.sample_ns, self.iterations)]

    def __repr__(self) -> str:
        return f"<Measurement x{self.threads} {self.per_call_ns}>"


@contextlib.contextmanager
def _gc_paused() -> Iterator[None]:
    """The garbage collector off inside the block (as timeit does), restored after."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def time_batch(op: Callable[[], object], iterations: int) -> int:
    """Nanoseconds taken by ``iterations`` calls of ``op`` (GC paused)."""
    loop = itertools.repeat(None, iterations)
    with _gc_paused():
        t0 = perf_counter_ns()
        for _ in loop:
            op()
        return perf_counter_ns() - t0


def time_sample(op: Callable[[], object], iterations: int) -> Tuple[int, int]:
    """(wall ns, this thread's CPU ns) of ``iterations`` calls of ``op`` (GC paused)."""
    loop = itertools.repeat(None, iterations)
    with _gc_paused():
        c0 = thread_time_ns()
        t0 = perf_counter_ns()
        for _ in loop:
            op()
        t1 = perf_counter_ns()
        c1 = thread_time_ns()
        return t1 - t0, c1 - c0


def calibrate(op: Callable[[], object], sample_ns: float) -> int:
    """Calls per batch so that one batch takes about ``sample_ns``."""
    k = 1
    while True:
        t = max(time_batch(op, k), 1)
        if t >= sample_ns / 8 or k >= MAX_ITERATIONS:
            return max(1, min(MAX_ITERATIONS, round(k * sample_ns / t)))
        k = min(MAX_ITERATIONS, k * min(100, max(2, math.ceil(sample_ns / 8 / t))))


class Cell:
    """One operation at one size, sampled one batch at a time."""

    def __init__(self, op: Callable[[], object], sample_ns: float, repeat: int) -> None:
        self.op = op
        self.k = calibrate(op, sample_ns)
        time_batch(op, self.k)                      # warm-up batch
        self.budget = RETAKES * repeat
        self.iterations: List[int] = []
        self.samples: List[int] = []
        self.retaken = 0

    def sample(self) -> None:
        """Take one sample (after one untimed call), retaking it if descheduled."""
        self.op()
        while True:
            wall, cpu = time_sample(self.op, self.k)
            if cpu >= BUSY_RATIO * wall or self.retaken >= self.budget:
                break
            self.retaken += 1
            if self.retaken % 2 == 0 and self.k > 1 and wall > 2 * MIN_SAMPLE_NS:
                self.k //= 2
        self.iterations.append(self.k)
        self.samples.append(wall)

    def result(self) -> Measurement:
        return Measurement(self.iterations, self.samples, retaken=self.retaken)


def measure(op: Callable[[], object], sample_ns: float, repeat: int) -> Measurement:
    """All ``repeat`` samples of one point in a row (see :class:`Cell`)."""
    cell = Cell(op, sample_ns, repeat)
    for _ in range(repeat):
        cell.sample()
    return cell.result()


def loop_overhead_ns(sample_ns: float = 5e6, repeat: int = 3) -> float:
    """Per-call cost of the timing loop around the cheapest C call (``len``)."""
    m = measure(partial(len, b""), sample_ns, repeat)
    return min(m.per_call_ns)


def _threads_sample(ops: Sequence[Callable[[], object]], iterations: int) -> int:
    """Wall ns of every op called ``iterations`` times on its own thread, all at once."""
    n = len(ops)
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
    with _gc_paused():
        start.wait()
        t0 = perf_counter_ns()
        for t in threads:
            t.join()
        elapsed = perf_counter_ns() - t0
    if errors:
        raise errors[0]
    return elapsed


def measure_threads(ops: Sequence[Callable[[], object]], iterations: int, repeat: int) -> Measurement:
    """Each sample: every op called ``iterations`` times on its own thread, all at once."""
    # the first round warms up the threads' transforms
    samples = [_threads_sample(ops, iterations) for _ in range(repeat + 1)]
    return Measurement([iterations] * repeat, samples[1:], threads=len(ops))


def measure_scaling(ops: Sequence[Callable[[], object]], iterations: int,
                    repeat: int) -> Tuple[Measurement, Measurement]:
    """(one thread, all threads): ``repeat`` samples of each, taken alternately
    (``ops[0]`` alone on one thread, then every op at once)."""
    one, many = [], []
    for _ in range(repeat + 1):          # the first round warms up
        one.append(_threads_sample(ops[:1], iterations))
        many.append(_threads_sample(ops, iterations))
    return (Measurement([iterations] * repeat, one[1:], threads=1),
            Measurement([iterations] * repeat, many[1:], threads=len(ops)))
