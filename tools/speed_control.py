"""The thread-scaling control of the speed tool: what this machine gives two
(or N) threads right now.

A scaling row (N threads' aggregate over one thread's) says as much about
the machine as about the code: a virtual machine's CPUs are shared with its
neighbours, and at times its second CPU adds little.  Beside each size of
the ``--threads`` phase the run measures the same ratio for
``hashlib.sha256`` (the standard library's OpenSSL-backed hash, which
releases the GIL for 2048 bytes and more and keeps no state between
threads), alternately one thread and N, as the scaling rows are.  A
scaling row can only be read against the control measured with it.

No kernel counterpart (tcrypt has no threads); the control is this tool's.
"""

from __future__ import annotations

import hashlib
from typing import List

from . import speed_measure as M

#: What the control runs (the report names it).
CONTROL_NAME = "hashlib.sha256"


def _digest_op(size: int):
    data = bytes(size)
    sha256 = hashlib.sha256
    return lambda: sha256(data).digest()


def thread_control(size: int, threads: int, sample_ns: float, repeat: int) -> dict:
    """The control at ``size`` on ``threads`` threads: per-call ns samples of
    one thread and of all threads together, taken alternately."""
    ops: List = [_digest_op(size) for _ in range(threads)]
    iterations = M.calibrate(ops[0], sample_ns)
    one, many = M.measure_scaling(ops, iterations, repeat)
    return {"name": CONTROL_NAME, "size": size, "threads": threads, "iterations": iterations,
            "one_thread_samples_ns": [round(x, 3) for x in one.per_call_ns],
            "samples_ns": [round(x, 3) for x in many.per_call_ns]}
