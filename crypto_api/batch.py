"""Many messages in one call: ``tfm.encrypt_batch`` and ``tfm.decrypt_batch``.

No kernel counterpart: the kernel's callers queue one request per message
and its workqueues spread them over the CPUs.  Here a batch (the messages,
their IVs, optionally the buffers to write into) goes to the C batch entry
of crypto_api._direct_call (crypto_api/batch_call.h), which runs the
driver's direct path over every message on native worker threads
(crypto_api/batch_pool.h) with the GIL released for the whole batch.

Everything is checked before any byte is written: the C entry declines a
batch it does not take whole, and then every item is checked here (each
refusal a CryptoError naming the item) before a loop over the one-call
method runs; the loop's results are only copied into ``outs`` once every
message has been transformed, so a refusal leaves nothing half-written.
Drivers without a direct path (and builds without the C entry) take the
loop: the same bytes, on the calling thread.

While an fpu_trace() records, each native worker's share shows as one
closed FpuSection with its ``worker`` number and the bytes it ran with SIMD
(the workers play other CPUs: their sections are their own, not the
calling thread's).
"""

from __future__ import annotations

import atexit
import os
from typing import Any, List, Optional, Sequence

from . import alg as A
from .errors import EINVAL, CryptoError
from .fpu import fpu_record_worker, fpu_tracing
from .scatterlist import as_byte_view, partly_overlapping

from .direct import batch_call as _c_batch, batch_overlap as _c_overlap
from .direct import batch_pool_info, batch_pool_stop

#: The most workers a batch may ask for (the pool's threads + the caller).
MAX_WORKERS = 64

if batch_pool_stop is not None:
    atexit.register(batch_pool_stop)     # join the pool's threads at exit


def default_workers() -> int:
    """The CPUs this process may run on (os.cpu_count() where that is unknown)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def _seq(value, what: str, who: str) -> List[Any]:
    if isinstance(value, (bytes, bytearray, memoryview, str)) or not hasattr(value, "__len__"):
        raise CryptoError(EINVAL, f"{who}: {what} must be a sequence of buffers (a list), "
                                  f"not {type(value).__name__}")
    return list(value)


def _check_workers(workers, who: str) -> int:
    if workers is None:
        return default_workers()
    if not isinstance(workers, int) or isinstance(workers, bool) or not 1 <= workers <= MAX_WORKERS:
        raise CryptoError(EINVAL, f"{who}: workers {workers!r}: must be an int from 1 to {MAX_WORKERS}")
    return workers


def _check_items(tfm, datas: List[Any], ivs, outs) -> Optional[List[bytes]]:
    """Every item's refusal, before any work; the IVs as bytes (None: no IV)."""
    who = tfm.alg.cra_driver_name
    n = len(datas)
    if ivs is not None and len(ivs) != n:
        raise CryptoError(EINVAL, f"{who}: {len(ivs)} IVs for {n} messages")
    if outs is not None and len(outs) != n:
        raise CryptoError(EINVAL, f"{who}: {len(outs)} outs for {n} messages")
    ivb = None
    if ivs is not None or tfm.ivsize:
        ivb = []
        for i in range(n):
            try:
                ivb.append(tfm._check_iv(None if ivs is None else ivs[i]))
            except CryptoError as e:
                what = e.message[len(who) + 2:] if e.message.startswith(who + ": ") else e.message
                raise CryptoError(e.errno, f"{who}: batch item {i}: {what}") from None
    for i, d in enumerate(datas):
        src = as_byte_view(d, f"{who}: batch item {i}: data")
        if outs is None:
            continue
        dst = as_byte_view(outs[i], f"{who}: batch item {i}: out")
        if dst.readonly or len(dst) != len(src):
            raise CryptoError(EINVAL, f"{who}: batch item {i}: out must be a writable buffer of "
                                      f"{len(src)} bytes")
        if len(src) and partly_overlapping(src, dst):
            raise CryptoError(EINVAL, f"{who}: batch item {i}: out overlaps data without being "
                                      "the same bytes (use the same buffer for in place)")
    if outs is not None and _c_overlap is not None:
        hit = _c_overlap(datas, outs)
        if hit is not None:
            _refuse_overlap(who, hit)
    return ivb


def _refuse_overlap(who: str, hit) -> None:
    i, j = hit
    raise CryptoError(EINVAL, f"{who}: batch item {i}'s out shares bytes with item {j}'s "
                              "data or out (each out must be its own bytes or its data's)")


def _run_c(direct, datas, ivs, outs, workers: int):
    """The C batch's results, or None where it declined."""
    if direct is None or _c_batch is None:
        return None
    r = _c_batch(direct, datas, ivs, outs, workers)
    if r is None:
        return None
    if len(r) == 3:                       # ("overlap", i, j)
        return r
    results, stats = r
    if fpu_tracing():
        for w, (_, _, simd_bytes) in enumerate(stats):
            if simd_bytes:
                fpu_record_worker(w, simd_bytes)
    return results


def skcipher_batch(tfm, datas: Sequence[Any], ivs: Optional[Sequence[Any]], outs: Optional[Sequence[Any]],
                   workers: Optional[int], encrypt: bool) -> List[Any]:
    """``tfm.encrypt_batch``/``decrypt_batch`` (crypto_api/skcipher.py): the
    transformed messages (new bytes each, or ``outs`` written and returned
    as a list)."""
    who = tfm.alg.cra_driver_name
    if tfm.crt_flags & A.CRYPTO_TFM_NEED_KEY:
        tfm._check_key()                  # raises: ENOKEY, or EINVAL once freed
    datas = _seq(datas, "datas", who)
    ivs = None if ivs is None else _seq(ivs, "ivs", who)
    outs = None if outs is None else _seq(outs, "outs", who)
    nw = _check_workers(workers, who)
    direct = tfm._direct_enc if encrypt else tfm._direct_dec
    res = _run_c(direct, datas, ivs, outs, nw)
    if res is None:
        ivs = _check_items(tfm, datas, ivs, outs)     # refusals, before any work
        res = _run_c(direct, datas, ivs, outs, nw)     # the IVs now bytes
    if res is not None:
        if isinstance(res, tuple):
            _refuse_overlap(who, res[1:])
        return res
    fn = tfm.encrypt if encrypt else tfm.decrypt
    done = [fn(d, None if ivs is None else ivs[i]) for i, d in enumerate(datas)]
    if outs is None:
        return done
    for o, r in zip(outs, done):          # every message done: now write
        as_byte_view(o, who)[:] = r
    return outs
