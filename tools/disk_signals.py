"""Ctrl-C and SIGTERM for the ``disk`` command: stop between two batches.

cryptsetup's reencryption likewise finishes the segment in flight on SIGINT
and SIGTERM and leaves its metadata consistent; here the journal is always
consistent, so a stop only saves redoing a batch.
"""

from __future__ import annotations

import signal
import threading


class Stopped(Exception):
    """SIGINT or SIGTERM arrived: the run stopped between two batches."""


class StopSignals:
    """Turn SIGINT/SIGTERM into a request to stop at the next batch boundary."""

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self) -> None:
        self.requested = False
        self._old = {}

    def _handler(self, signum, frame) -> None:
        self.requested = True

    def check(self) -> None:
        if self.requested:
            raise Stopped()

    def __enter__(self) -> "StopSignals":
        if threading.current_thread() is threading.main_thread():
            for s in self.SIGNALS:
                self._old[s] = signal.signal(s, self._handler)
        return self

    def __exit__(self, *exc) -> None:
        for s, old in self._old.items():
            signal.signal(s, old)
