"""The ``disk`` command's pipeline: N workers prepare batches, the caller writes them in order.

Each of ``count`` worker threads takes the next batch number, prepares that
batch on its own (read it, make its journal record, transform it: the C
calls and hashlib's digests release the GIL, so the workers run at once), and
hands the result over; the caller takes the results strictly in batch order
and does the durable steps itself, one batch after the other.  Batches are
claimed in order, so the one the caller waits for is always being prepared;
at most ``depth`` batches are claimed and not yet released by the caller, which
bounds the memory held.

As dm-crypt's ``kcryptd`` work items transform bios on every CPU while the
writes are issued in order (drivers/md/dm-crypt.c); here the order matters
for the journal (:mod:`.disk_engine`).  No state on disk: a batch prepared
but never handed to the caller has changed nothing.
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Dict, Iterator, List, Optional

#: ``work(worker index, batch number) -> result``, run on a worker thread.
Work = Callable[[int, int], Any]


class _Failed:
    """A batch whose preparation raised: the caller re-raises it in turn."""

    __slots__ = ("error",)

    def __init__(self, error: BaseException) -> None:
        self.error = error


class Pipeline:
    """Prepare batches ``0 .. total-1`` on ``count`` threads; iterate over the results in order.

    Use it as a context manager: leaving it (after the last result, an error
    or a stop) lets no further batch be claimed and waits for the workers, so
    no thread touches a buffer or a cipher after that.
    """

    def __init__(self, count: int, total: int, work: Work, depth: Optional[int] = None) -> None:
        if count < 1:
            raise ValueError("a pipeline needs at least one worker")
        self._work, self._total = work, total
        self._depth = max(1, depth if depth is not None else count + 2)
        self._cond = threading.Condition()
        self._next = 0                   # the next batch number to claim
        self._released = 0               # batches the caller is done with
        self._done: Dict[int, Any] = {}
        self._closed = False
        self._failed = False
        self._threads: List[threading.Thread] = [
            threading.Thread(target=self._serve, args=(i,), name=f"crypto-api-disk-{i + 1}", daemon=True)
            for i in range(min(count, max(total, 1)))]
        for t in self._threads:
            t.start()

    def _claim(self) -> Optional[int]:
        with self._cond:
            while (not self._closed and not self._failed and self._next < self._total
                   and self._next - self._released >= self._depth):
                self._cond.wait()
            if self._closed or self._failed or self._next >= self._total:
                return None
            k = self._next
            self._next += 1
            return k

    def _serve(self, index: int) -> None:
        while True:
            k = self._claim()
            if k is None:
                return
            try:
                result = self._work(index, k)
            except BaseException as e:           # handed to the caller, in batch order
                result = _Failed(e)
            with self._cond:
                self._done[k] = result
                if isinstance(result, _Failed):
                    self._failed = True          # claim nothing more; earlier batches still arrive
                self._cond.notify_all()

    def __iter__(self) -> Iterator[Any]:
        """Each batch's result in order; the error of a batch that failed, in its turn.
        Take the next only once done with this one (that releases its room)."""
        for k in range(self._total):
            with self._cond:
                if k:
                    self._released = k           # the caller is done with batch k - 1
                    self._cond.notify_all()
                while k not in self._done:
                    self._cond.wait()
                result = self._done.pop(k)
            if isinstance(result, _Failed):
                raise result.error
            yield result

    def close(self) -> None:
        """Claim nothing more; wait for the batches in preparation; drop the results."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        for t in self._threads:
            if t is not threading.current_thread():
                t.join()
        self._done.clear()

    def __enter__(self) -> "Pipeline":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
