"""Self-test level: off, fast (default) or full (the kernel's EXTRA_TESTS).

Mirrors the cryptomgr.notests / noextratests module parameters of
crypto/testmgr.c; read from ``CRYPTO_API_SELFTESTS`` at first use and
settable from Python.
"""

from __future__ import annotations

import os

from ..errors import EINVAL, CryptoError

LEVELS = ("off", "fast", "full")
_level = None


def get_level() -> str:
    global _level
    if _level is None:
        env = os.environ.get("CRYPTO_API_SELFTESTS", "fast").strip().lower() or "fast"
        if env not in LEVELS:
            raise CryptoError(EINVAL, f"CRYPTO_API_SELFTESTS={env!r}: expected one of {', '.join(LEVELS)}")
        _level = env
    return _level


def set_level(level: str) -> str:
    """Set the level; returns the previous one."""
    global _level
    if level not in LEVELS:
        raise CryptoError(EINVAL, f"self-test level {level!r}: expected one of {', '.join(LEVELS)}")
    old = get_level()
    _level = level
    return old
