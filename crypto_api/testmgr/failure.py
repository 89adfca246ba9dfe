"""How a failed self-test is reported: a CryptoError with the kernel's words.

``fail()`` logs the message and raises.  Inside ``note("seed 123")`` every
failure message ends with ``(seed 123)``, so the full tests print what is
needed to replay them.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
from typing import Callable, Iterator, Tuple

from ..errors import EINVAL, CryptoError

log = logging.getLogger("crypto_api")

_note: contextvars.ContextVar = contextvars.ContextVar("testmgr_note", default="")


@contextlib.contextmanager
def note(text: str) -> Iterator[None]:
    """Append ``(text)`` to every failure reported inside the block."""
    token = _note.set(text)
    try:
        yield
    finally:
        _note.reset(token)


class TestFailure(CryptoError):
    """A self-test found the driver wrong (raised by :func:`fail`)."""

    __test__ = False        # not a pytest test class


def fail(msg: str, err: int = EINVAL) -> None:
    """Log ``msg`` (e.g. "alg: skcipher: X encryption test failed ...") and raise."""
    extra = _note.get()
    if extra:
        msg = f"{msg} ({extra})"
    log.error("%s", msg)
    raise TestFailure(err, msg)


def outcome(call: Callable[[], object], expected_error: int, what: str, where: str) -> Tuple[bool, object]:
    """Run one operation of a test vector: ``(True, result)`` if ``call()``
    returned, ``(False, None)`` if it failed with the vector's ``expected_error``.

    Any other error fails the test as "``what`` failed ``where``" (``what``
    is "alg: <type>: <driver>[ <op>]"); a TestFailure inside passes through.
    """
    try:
        return True, call()
    except TestFailure:
        raise
    except CryptoError as e:
        if e.errno == expected_error:
            return False, None
        fail(f"{what} failed {where}; expected_error={expected_error}, "
             f"actual_error={e.errno}: {e.message}", e.errno)
    except Exception as e:          # a driver bug (or FPU misuse): still a test failure
        fail(f"{what} failed {where}: {type(e).__name__}: {e}")
