"""The worker threads of ``VolumeCipher(jobs=N)`` (crypto_api.dmcrypt.sector).

``jobs - 1`` threads, each fed its own share of a run of sectors (the caller
runs the first share itself), so that N C calls with the GIL released run at
once, as dm-crypt's kcryptd work items run on several CPUs
(drivers/md/dm-crypt.c).  No other state: the shares are disjoint parts of
one buffer, the caller waits for all of them before it lets the buffer go.
"""

from __future__ import annotations

import os
import queue
import threading
from typing import Callable, List


class SectorWorkers:
    """``count`` threads, each running the calls handed to it, in order."""

    def __init__(self, count: int) -> None:
        self._pid = os.getpid()
        self._queues: List["queue.SimpleQueue"] = []
        self._threads: List[threading.Thread] = []
        for i in range(count):
            q: "queue.SimpleQueue" = queue.SimpleQueue()
            t = threading.Thread(target=self._serve, args=(q,), name=f"crypto-api-sectors-{i + 1}",
                                 daemon=True)
            t.start()
            self._queues.append(q)
            self._threads.append(t)

    @property
    def alive(self) -> bool:
        """False once closed, and in a child forked since (it has none of the threads)."""
        return self._pid == os.getpid() and bool(self._queues)

    @staticmethod
    def _serve(q: "queue.SimpleQueue") -> None:
        while True:
            item = q.get()
            if item is None:
                return
            fn, box, done = item
            try:
                fn()
            except BaseException as e:           # handed to the caller
                box.append(e)
            finally:
                done.set()

    def run(self, first: Callable[[], None], rest: List[Callable[[], None]]) -> None:
        """Run ``rest[i]`` on worker ``i`` and ``first`` here; wait for all; raise the first error."""
        waits = []
        for q, fn in zip(self._queues, rest):
            box: list = []
            done = threading.Event()
            q.put((fn, box, done))
            waits.append((box, done))
        try:
            first()
        finally:
            for _, done in waits:                # every share is finished before buf is let go
                done.wait()
        for box, _ in waits:
            if box:
                raise box[0]

    def close(self) -> None:
        """Stop the workers (in the process that started them) and wait for them."""
        if self._pid != os.getpid():
            self._queues = []
            return
        queues, self._queues = self._queues, []
        for q in queues:
            q.put(None)
        for t in self._threads:
            if t is not threading.current_thread():
                t.join()
