"""The crypto notifier chain (crypto_chain in crypto/api.c, include/linux/notifier.h).

The registry announces events here instead of calling the managers above it:
``CRYPTO_MSG_ALG_REQUEST`` when a lookup misses and a template instance could
be built (data: the lookup larval), ``CRYPTO_MSG_ALG_REGISTER`` when a new
algorithm needs its self-test (data: the algorithm) and
``CRYPTO_MSG_ALG_LOADED`` once it passed and is usable (data: the algorithm);
the values are v5.0's (crypto/internal.h).  The crypto manager
(:mod:`crypto_api.algboss`) subscribes to them, as cryptomgr does.

A subscriber is a :class:`NotifierBlock`; the chain calls them by descending
priority (equal priorities in registration order) until one returns a value
with ``NOTIFY_STOP_MASK`` set, and returns the last value (``NOTIFY_DONE``
when nobody answered).  Callbacks run synchronously on the caller's thread and
may re-enter the chain (a template probe looks up its inner algorithms).  As
everywhere in crypto_api, a refusal is an exception: a ``CryptoError`` raised
by a callback stops the chain and reaches the caller of the notification.
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Tuple

import attrs

from .errors import EEXIST, ENOENT, CryptoError

# include/linux/notifier.h
NOTIFY_DONE = 0x0000          # not interested
NOTIFY_OK = 0x0001            # handled, go on
NOTIFY_STOP_MASK = 0x8000     # do not call the others
NOTIFY_BAD = NOTIFY_STOP_MASK | 0x0002
NOTIFY_STOP = NOTIFY_OK | NOTIFY_STOP_MASK

# crypto/internal.h (v5.0)
CRYPTO_MSG_ALG_REQUEST = 0
CRYPTO_MSG_ALG_REGISTER = 1
CRYPTO_MSG_ALG_LOADED = 2

MESSAGE_NAMES = {
    CRYPTO_MSG_ALG_REQUEST: "CRYPTO_MSG_ALG_REQUEST",
    CRYPTO_MSG_ALG_REGISTER: "CRYPTO_MSG_ALG_REGISTER",
    CRYPTO_MSG_ALG_LOADED: "CRYPTO_MSG_ALG_LOADED",
}

NotifierCall = Callable[["NotifierBlock", int, Any], int]


@attrs.frozen(eq=False)
class NotifierBlock:
    """``struct notifier_block``: ``notifier_call(nb, msg, data)`` returns a NOTIFY_* value."""

    notifier_call: NotifierCall
    priority: int = 0
    name: str = ""


class BlockingNotifierHead:
    """A chain of notifier blocks (``struct blocking_notifier_head``).

    Registration swaps in a new tuple, so a call in progress (or one that
    re-enters the chain from a callback) sees a stable list.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self._lock = threading.Lock()
        self._blocks: Tuple[NotifierBlock, ...] = ()

    def register(self, nb: NotifierBlock) -> None:
        if not isinstance(nb, NotifierBlock):
            raise TypeError(f"{self.name}: expected a NotifierBlock, not {type(nb).__name__}")
        with self._lock:
            if nb in self._blocks:
                raise CryptoError(EEXIST, f"{self.name}: notifier {nb.name or nb!r} is already registered")
            blocks = list(self._blocks)
            at = next((i for i, b in enumerate(blocks) if b.priority < nb.priority), len(blocks))
            blocks.insert(at, nb)
            self._blocks = tuple(blocks)

    def unregister(self, nb: NotifierBlock) -> None:
        with self._lock:
            if nb not in self._blocks:
                raise CryptoError(ENOENT, f"{self.name}: notifier {getattr(nb, 'name', '') or nb!r} "
                                          f"is not registered")
            self._blocks = tuple(b for b in self._blocks if b is not nb)

    def blocks(self) -> Tuple[NotifierBlock, ...]:
        return self._blocks

    def call_chain(self, msg: int, data: Any) -> int:
        ret = NOTIFY_DONE
        for nb in self._blocks:
            ret = nb.notifier_call(nb, msg, data)
            if ret & NOTIFY_STOP_MASK:
                break
        return ret


crypto_chain = BlockingNotifierHead("crypto_chain")


def crypto_register_notifier(nb: NotifierBlock) -> int:
    """Subscribe ``nb`` to the crypto events (EEXIST if it already is)."""
    crypto_chain.register(nb)
    return 0


def crypto_unregister_notifier(nb: NotifierBlock) -> int:
    """Unsubscribe ``nb`` (ENOENT if it is not subscribed)."""
    crypto_chain.unregister(nb)
    return 0


def crypto_notify(msg: int, data: Any) -> None:
    """Announce an event nobody has to answer (CRYPTO_MSG_ALG_LOADED)."""
    crypto_chain.call_chain(msg, data)


def crypto_probing_notify(msg: int, data: Any) -> int:
    """Announce an event that wants an answer; NOTIFY_STOP means a subscriber took it.

    The kernel loads the cryptomgr module and asks again when nobody answered;
    here the crypto manager subscribes when crypto_api is imported (it is
    built in), so an unanswered event is answered by the caller's default.
    """
    return crypto_chain.call_chain(msg, data)
