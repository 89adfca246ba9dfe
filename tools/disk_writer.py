"""The ``disk`` command's writer thread: each batch's durable steps, in order.

While the main thread reads and transforms the next batch (CPU), this thread
writes the current one (disk): the journal record, its sync, the in-place
write, the image's sync -- the same order as a single thread would use, so
what a crash leaves behind is unchanged (see :mod:`.disk_engine`).
"""

from __future__ import annotations

import queue
import threading
from typing import Callable, Optional

from .disk_geometry import Geometry
from .disk_io import pwrite_full, sync
from .disk_journal import Journal

Progress = Optional[Callable[[int], object]]


class BatchWriter:
    """Runs each batch's durable steps, in order, on one thread: write the
    record (its digest computed here), sync the journal, write the batch in
    place, sync the image.

    The caller reads and transforms the next batch meanwhile (the syncs wait
    for the disk, the cipher and the digest for the CPU).  The order on disk
    is exactly the sequential one; after a failure no further step is taken
    and the error is raised in the caller.
    """

    def __init__(self, journal: Journal, fd: int, geo: Geometry, progress: Progress, state: dict) -> None:
        self.journal, self.fd, self.geo, self.progress, self.state = journal, fd, geo, progress, state
        self.error: Optional[BaseException] = None
        self._queue: "queue.Queue" = queue.Queue(maxsize=1)
        self._thread = threading.Thread(target=self._run, name="crypto-api-disk-writer", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            if self.error is not None:
                continue                             # after a failure: nothing more is written
            seq, pos, originals, buf = item
            try:
                self.journal.write(seq, pos, len(buf), originals)
                pwrite_full(self.fd, buf, pos)
                sync(self.fd)
            except BaseException as e:               # handed to the caller, which raises it
                self.error = e
                continue
            self.state["done"] = pos + len(buf) - self.geo.start
            if self.progress is not None:
                self.progress(len(buf))

    def _check(self) -> None:
        if self.error is not None:
            raise self.error

    def submit(self, seq: int, pos: int, originals, buf) -> None:
        self._check()
        self._queue.put((seq, pos, originals, buf))

    def close(self) -> None:
        """Wait until every submitted batch is written (or one failed); raise its error."""
        if self._thread.is_alive():
            self._queue.put(None)
            self._thread.join()
        self._check()
