"""Self-test settings: the level (off, fast, full) and the fuzzing knobs.

Mirrors the cryptomgr module parameters of crypto/testmgr.c: ``notests`` and
``noextratests`` become the level (``CRYPTO_API_SELFTESTS`` = off, fast (the
default) or full, the kernel's EXTRA_TESTS), ``fuzz_iterations`` (default 100,
``CRYPTO_API_FUZZ_ITERATIONS``) the number of random configurations per vector
and of random vectors (times 8) against the generic driver.  The fuzz seed is
ours: None draws a fresh one for every full test (printed on failure), an int
replays a run exactly.  Everything is read from the environment at first use
and settable from Python.
"""

from __future__ import annotations

import os
from typing import Optional

from ..errors import EINVAL, CryptoError

LEVELS = ("off", "fast", "full")
DEFAULT_FUZZ_ITERATIONS = 100
_level = None
_iterations = None
_seed: Optional[int] = None


def _level_from_env() -> str:
    raw = os.environ.get("CRYPTO_API_SELFTESTS", "")
    env = raw.strip().lower() or "fast"
    if env not in LEVELS:
        raise CryptoError(EINVAL, f"CRYPTO_API_SELFTESTS={raw!r}: not a self-test level, "
                                  f"expected one of {', '.join(LEVELS)}")
    return env


def get_level() -> str:
    global _level
    if _level is None:
        _level = _level_from_env()
    return _level


def set_level(level: str) -> str:
    """Set the level; returns the previous one."""
    global _level
    if level not in LEVELS:
        raise CryptoError(EINVAL, f"self-test level {level!r}: expected one of {', '.join(LEVELS)}")
    old = get_level()
    _level = level
    return old


def _check_iterations(n, what: str) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise CryptoError(EINVAL, f"{what} {n!r}: expected a non-negative integer")
    return n


def _iterations_from_env() -> int:
    env = os.environ.get("CRYPTO_API_FUZZ_ITERATIONS", "").strip()
    if not env:
        return DEFAULT_FUZZ_ITERATIONS
    try:
        value = int(env)
    except ValueError:
        value = env
    return _check_iterations(value, "CRYPTO_API_FUZZ_ITERATIONS")


def get_fuzz_iterations() -> int:
    global _iterations
    if _iterations is None:
        _iterations = _iterations_from_env()
    return _iterations


def check_environment() -> None:
    """Refuse (EINVAL) a bad ``CRYPTO_API_SELFTESTS`` or ``CRYPTO_API_FUZZ_ITERATIONS``.

    The command line calls this first, so every command names a bad value in
    one line instead of failing later inside whatever first registers a driver.
    """
    _level_from_env()
    _iterations_from_env()


def set_fuzz_iterations(n: int) -> int:
    """Random configs per vector (and n*8 random vectors); returns the previous value."""
    global _iterations
    _check_iterations(n, "fuzz iterations")
    old = get_fuzz_iterations()
    _iterations = n
    return old


def get_fuzz_seed() -> Optional[int]:
    return _seed


def set_fuzz_seed(seed: Optional[int]) -> Optional[int]:
    """Fix the fuzz seed (None: a fresh seed per test); returns the previous one."""
    global _seed
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise CryptoError(EINVAL, f"fuzz seed {seed!r}: expected a non-negative integer or None")
    old = _seed
    _seed = seed
    return old
