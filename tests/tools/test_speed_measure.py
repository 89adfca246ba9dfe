"""The timing engine's logic with a scripted clock (no real timing is asserted):
batch calibration, retaking descheduled samples, and threads."""

import threading

import pytest

from crypto_api.tools import speed_measure as M


def test_per_call_divides_by_calls_and_threads():
    assert M.Measurement([10, 5], [1000, 2000]).per_call_ns == [100, 400]
    assert M.Measurement([10], [1000], threads=2).per_call_ns == [50]


def test_calibrate_reaches_the_sample_length(monkeypatch):
    monkeypatch.setattr(M, "time_batch", lambda op, k: 1000 * k)      # 1 us per call
    assert M.calibrate(None, 1e6) == 1000                              # 1 ms of 1 us calls
    monkeypatch.setattr(M, "time_batch", lambda op, k: 5_000_000 * k)  # a call longer than a sample
    assert M.calibrate(None, 1e6) == 1


def _scripted(monkeypatch, script, k=64):
    """measure() against a list of (wall, cpu) sample results; returns (result, batch sizes)."""
    monkeypatch.setattr(M, "calibrate", lambda op, ns: k)
    monkeypatch.setattr(M, "time_batch", lambda op, n: 0)
    op = lambda: None  # noqa: E731
    seen = []
    results = iter(script)

    def sample(op, n):
        seen.append(n)
        return next(results)
    monkeypatch.setattr(M, "time_sample", sample)
    return M.measure(op, 1e7, 3), seen


def test_descheduled_samples_are_retaken_with_smaller_batches(monkeypatch):
    busy, quiet = (10_000_000, 4_000_000), (6_000_000, 6_000_000)
    m, seen = _scripted(monkeypatch, [quiet, busy, busy, quiet, quiet])
    # the batch is halved after the second retake; each sample keeps its own batch size
    assert seen == [64, 64, 64, 32, 32]
    assert (m.iterations, m.retaken, m.sample_ns) == ([64, 32, 32], 2, [6_000_000] * 3)
    assert m.per_call_ns == [6_000_000 / 64, 6_000_000 / 32, 6_000_000 / 32]


def test_retakes_are_bounded(monkeypatch):
    busy = (10_000_000, 1_000_000)
    m, seen = _scripted(monkeypatch, [busy] * 100, k=1)
    assert m.retaken == M.RETAKES * 3
    assert len(seen) == M.RETAKES * 3 + 3 and m.sample_ns == [10_000_000] * 3


def test_threads_each_call_their_own_op():
    calls = {}
    lock = threading.Lock()

    def make(i):
        def op():
            with lock:
                calls.setdefault(i, set()).add(threading.get_ident())
                calls[(i, "n")] = calls.get((i, "n"), 0) + 1
        return op

    m = M.measure_threads([make(0), make(1), make(2)], iterations=5, repeat=2)
    assert m.threads == 3 and m.iterations == [5, 5] and len(m.sample_ns) == 2
    assert [calls[(i, "n")] for i in range(3)] == [15, 15, 15]        # 5 calls x (warm-up + 2)
    assert threading.get_ident() not in set().union(*(calls[i] for i in range(3)))


def test_thread_errors_reach_the_caller():
    def bad():
        raise ValueError("boom")
    with pytest.raises(ValueError, match="boom"):
        M.measure_threads([bad, bad], iterations=1, repeat=1)


def test_scaling_alternates_one_thread_and_all_threads():
    """measure_scaling: each round one thread (ops[0] only, on its own
    thread), then every op at once; the first round is a warm-up."""
    log = []
    lock = threading.Lock()

    def make(i):
        def op():
            with lock:
                log.append((i, threading.get_ident()))
        return op

    one, many = M.measure_scaling([make(0), make(1)], iterations=3, repeat=2)
    assert (one.threads, many.threads) == (1, 2)
    assert one.iterations == many.iterations == [3, 3]
    assert len(one.sample_ns) == len(many.sample_ns) == 2
    # rounds of 3 calls of op 0 alone, then 3 of each op (interleaved in any order)
    assert len(log) == 3 * (2 + 1) * 3
    for r in range(3):
        chunk = log[9 * r: 9 * r + 9]
        assert [i for i, _ in chunk[:3]] == [0, 0, 0]
        assert sorted(i for i, _ in chunk[3:]) == [0, 0, 0, 1, 1, 1]
    assert threading.get_ident() not in {t for _, t in log}
