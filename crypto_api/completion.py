"""Waiting for asynchronous requests (``struct crypto_wait``, include/linux/crypto.h).

A request that cannot finish at once returns ``-EINPROGRESS`` (queued) or
``-EBUSY`` (backlogged, with CRYPTO_TFM_REQ_MAY_BACKLOG) and later calls its
completion callback ``complete(req, err)`` with the final status (0 or a
negative errno).  :func:`crypto_req_done` is the callback that records the
status in a :class:`CryptoWait` (its ``data``), ignoring the ``-EINPROGRESS``
backlog notice; :func:`crypto_wait_req` turns a return value into the final
status, waiting when the request went asynchronous.  Synchronous algorithms
never call the callback: their return value is final.
"""

from __future__ import annotations

import asyncio
import threading
from errno import EBUSY, EINPROGRESS
from typing import Any, Callable

from .errors import CryptoError

#: Return values that mean "the completion callback will deliver the result".
ASYNC_PENDING = (-EINPROGRESS, -EBUSY)


class CryptoWait:
    """``struct crypto_wait``: a completion and the status it delivered."""

    __slots__ = ("_done", "err")

    def __init__(self) -> None:
        self._done = threading.Event()
        self.err = 0

    def complete(self, err: int) -> None:
        self.err = err
        self._done.set()

    def wait(self) -> int:
        self._done.wait()
        self._done.clear()              # re-armed, as reinit_completion does
        return self.err


def crypto_init_wait() -> CryptoWait:
    """A fresh wait (DECLARE_CRYPTO_WAIT / crypto_init_wait)."""
    return CryptoWait()


def crypto_req_done(req: Any, err: int) -> None:
    """The completion callback for :func:`crypto_wait_req`: ``req.data`` is the CryptoWait."""
    if err == -EINPROGRESS:
        return                          # a backlogged request has started: not the end yet
    req.data.complete(err)


def crypto_wait_req(err: int, wait: CryptoWait) -> int:
    """The final status of a request that returned ``err`` (waits if it went async)."""
    if err in ASYNC_PENDING:
        return wait.wait()
    return err


def wait_status(err: int, wait: CryptoWait, who: str) -> int:
    """crypto_wait_req, with a failure raised as CryptoError (0 on success)."""
    err = crypto_wait_req(err or 0, wait)
    if err:
        raise CryptoError(-err, f"{who}: asynchronous request failed")
    return 0


async def crypto_req_await(req: Any, op: Callable[[Any], int]) -> int:
    """Submit ``req`` with ``op`` (e.g. crypto_skcipher_encrypt) and await its
    final status without blocking the event loop: the request's callback
    (set here; its flags are kept) resolves a future on the running loop.
    A synchronous algorithm's status is returned at once."""
    loop = asyncio.get_running_loop()
    fut = loop.create_future()

    def settle(err: int) -> None:
        if not fut.done():
            fut.set_result(err)

    def done(_req: Any, err: int) -> None:
        if err != -EINPROGRESS:         # a backlogged request has only started
            loop.call_soon_threadsafe(settle, err)

    req.complete, req.data = done, None
    err = op(req) or 0
    if err in ASYNC_PENDING:
        return await fut
    return err
