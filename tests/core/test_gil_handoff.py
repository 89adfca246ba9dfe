"""Threads taking turns in the C entry point (crypto_api/gil_handoff.h).

A thread done with its C work takes the GIL when another thread of ours
releases it for its next call, rather than sleeping in the GIL's wait
(observed as calls and voluntary context switches counted, not as a time).

Also: any number of threads, a thread that is not ours holding the GIL
meanwhile, and every result right.
"""

import os
import resource
import sys
import threading
import time

import pytest

import crypto_api as capi
from crypto_api import direct as direct_path
from alloc_or_skip import alloc_or_skip

pytestmark = pytest.mark.skipif(direct_path._skcipher_call is None, reason="crypto_api._direct_call is not built")

NAMES = ["xchacha12-simd", "adiantum(xchacha12-simd,aes-aesni,nhpoly1305-avx2)"]


def _alloc(name, key):
    return alloc_or_skip(capi.crypto_alloc_skcipher, name, key)


def _cpus():
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


def _python_work_within(budget_ns):
    """The largest n of 500, 250, ... 0 whose ``sum(range(n))`` takes at most
    ``budget_ns`` here (the best of many runs: its own time, not the
    machine's hiccups)."""
    n = 500
    while n:
        best = min(_timed(n) for _ in range(50))
        if best <= budget_ns:
            return n
        n //= 2
    return 0


def _timed(n):
    t0 = time.perf_counter_ns()
    sum(range(n))
    return time.perf_counter_ns() - t0


def _run(workers):
    """Start the workers together, join them, re-raise a worker's error."""
    errors = []
    start = threading.Barrier(len(workers))

    def body(fn):
        try:
            start.wait()
            fn()
        except BaseException as e:          # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=body, args=(fn,)) for fn in workers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]


def _sanitizer_runtime_loaded() -> bool:
    """True under make test-asan: ASan's runtime is mapped into this process.
    Its allocator and reports take locks of their own, and a thread that waits
    for one of those sleeps too, so A's voluntary context switches no longer
    count only the GIL's waits."""
    with open("/proc/self/maps") as f:
        return any("libasan" in line or "libclang_rt.asan" in line or "asan_with_fuzzer" in line
                   for line in f)


@pytest.mark.skipif(_cpus() < 2, reason="one CPU: the hand-over does not spin, threads cannot overlap")
@pytest.mark.skipif(not hasattr(resource, "RUSAGE_THREAD"), reason="no per-thread rusage (Linux only)")
@pytest.mark.parametrize("name", NAMES)
def test_a_thread_done_with_its_c_work_gets_the_gil_at_the_next_release(name):
    """Thread B runs some Python between its calls, so it holds the GIL most
    of the time; thread A only encrypts.  With the hand-over, A, done with
    its C work, spins until B releases the GIL for its next call and takes
    it then: A keeps pace with B and hardly ever sleeps (voluntary context
    switches, counted per thread).  Before it, A slept in the GIL's wait at
    nearly every call, until B's release woke it.

    The rule holds while B's Python between two calls is shorter than the
    spin limit (``_direct_call.handoff_limits()``): B's work is sized to a
    quarter of it on this interpreter, whatever its speed (a sanitizer
    build, a slow CI machine), so what is asserted is counts, not time."""
    from crypto_api import _direct_call
    spin_ns = _direct_call.handoff_limits()["spin_ns"]
    work = _python_work_within(spin_ns // 4)
    key = os.urandom(32)
    data, iv = os.urandom(4096), os.urandom(32)
    want = _alloc(name, key).encrypt(data, iv)
    a_tfm, b_tfm = _alloc(name, key), _alloc(name, key)
    b_calls = 3000
    b_done = []
    a_calls = []
    a_sleeps = []

    def a():
        n = 0
        before = resource.getrusage(resource.RUSAGE_THREAD).ru_nvcsw
        while not b_done:
            if a_tfm.encrypt(data, iv) != want:
                raise AssertionError(f"{name}: wrong result on thread A")
            n += 1
        a_calls.append(n)
        a_sleeps.append(resource.getrusage(resource.RUSAGE_THREAD).ru_nvcsw - before)

    def b():
        try:
            for _ in range(b_calls):
                sum(range(work))               # Python, well within the spin limit
                if b_tfm.encrypt(data, iv) != want:
                    raise AssertionError(f"{name}: wrong result on thread B")
        finally:
            b_done.append(True)

    old = sys.getswitchinterval()
    sys.setswitchinterval(10)
    before = _direct_call.handoff_stats()
    try:
        _run([a, b])
    finally:
        sys.setswitchinterval(old)
    after = _direct_call.handoff_stats()
    given_up = sum(after[k] - before[k] for k in ("futile", "skipped"))
    assert a_calls[0] >= b_calls // 4, (f"{name}: A made {a_calls[0]} calls while B made {b_calls} "
                                        f"(B's Python: sum(range({work})), spin limit {spin_ns} ns)")
    # With the hand-over, A sleeps in the GIL's wait only where the rule lets it:
    # after a spin that ran out (B preempted while holding the GIL: on a busy
    # machine, often) or one skipped in the back-off after such; before it, A
    # slept at nearly every call with no spin given up.  Counts of both
    # threads, so an upper bound for A's.  The slack (a tenth of A's calls, as
    # before the count of given-up spins was asserted) covers the start, the end
    # and the claims that still wait briefly for the interpreter's own lock.
    if _sanitizer_runtime_loaded():
        return      # its allocator's own lock waits count as voluntary switches too
    assert a_sleeps[0] <= given_up + 20 + a_calls[0] // 10, (
        f"{name}: A slept {a_sleeps[0]} times in {a_calls[0]} calls, "
        f"and only {given_up} spins ran out or were skipped")


@pytest.mark.parametrize("name", NAMES)
def test_many_threads_and_a_foreign_gil_user_get_right_results(name):
    """Five threads of ours with sizes on both sides of NOGIL_MIN, and one
    thread that only runs Python (it takes the GIL without coming through the
    entry point): every result is right and everyone finishes."""
    key = os.urandom(32)
    ref = _alloc(name, key)
    sizes = [16, 1000, direct_path.NOGIL_MIN - 1, direct_path.NOGIL_MIN, 4096, 65536 + 16]
    cases = [(os.urandom(n), os.urandom(32)) for n in sizes]
    wants = [ref.encrypt(d, iv) for d, iv in cases]
    stop = []
    python_turns = []

    def ours(seed):
        tfm = _alloc(name, key)

        def loop():
            for i in range(300):
                k = (i * 7 + seed) % len(cases)
                d, iv = cases[k]
                out = bytearray(len(d))
                if tfm.encrypt(d, iv) != wants[k] or tfm.encrypt(d, iv, out=out) != wants[k]:
                    raise AssertionError(f"{name}: wrong result for {len(d)} bytes")
        return loop

    def foreign():
        n = 0
        while not stop:
            n += sum(range(100))
        python_turns.append(n)

    t = threading.Thread(target=foreign)
    t.start()
    try:
        _run([ours(s) for s in range(5)])
    finally:
        stop.append(True)
        t.join()
    assert python_turns and python_turns[0] > 0


@pytest.mark.skipif(_cpus() < 2, reason="one CPU: the hand-over never spins")
def test_threads_that_call_now_and_then_stop_spinning_for_nothing():
    """Two threads each encrypt and then sleep (the GIL is released by the
    sleep, not through the entry point): every call follows the other
    thread's closely, but nobody comes while a thread waits.  A spin that ran
    out makes the next ones be skipped, twice as many each time, so few of
    the calls spin; without the back-off every one of them spun until its
    limit.  Asserted through the counts of _direct_call.handoff_stats(), not
    a share of the calls: which spins succeed depends on the machine's speed."""
    from crypto_api import _direct_call
    key = os.urandom(32)
    data, iv = os.urandom(4096), os.urandom(32)
    want = _alloc("xchacha12-simd", key).encrypt(data, iv)
    calls = 400

    def worker():
        tfm = _alloc("xchacha12-simd", key)

        def loop():
            for _ in range(calls):
                if tfm.encrypt(data, iv) != want:
                    raise AssertionError("xchacha12-simd: wrong result")
                time.sleep(0.0002)
        return loop

    before = _direct_call.handoff_stats()
    _run([worker(), worker()])
    after = _direct_call.handoff_stats()
    futile, spun, skipped = (after[k] - before[k] for k in ("futile", "spun", "skipped"))
    got = f"{spun} spins ({futile} ran out), {skipped} skipped in {2 * calls} calls"
    # The rule, in counts (how many spins a given machine's timing lets succeed
    # varies with its speed; a success starts the back-off over): a spin that
    # ran out makes at least the next one be skipped (the last one of each
    # thread may have no next one) ...
    assert skipped >= futile - 2, got
    # ... and twice as many after each one, so between two successes at most
    # log2(attempts) + 1 run out (without the back-off, every one of them)
    successes = spun - futile
    assert futile <= (successes + 1) * ((spun + skipped).bit_length() + 1), got
    assert _direct_call.handoff_limits()["penalty_max"] >= 2 * calls

