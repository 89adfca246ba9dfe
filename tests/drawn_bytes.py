"""Hypothesis strategies shared by the tests: random bytes always come from a strategy.

``exactly(n)`` draws ``n`` bytes.  Up to 4 KiB they are drawn byte by byte
(hypothesis shrinks them); longer ones are a SHAKE-256 expansion of a drawn
32-byte seed, since hypothesis refuses to draw tens of kilobytes directly
(its large-base-example health check).  Either way a failure replays from
hypothesis's database or ``@seed``, which os.urandom could not give.
"""

import hashlib

from hypothesis import strategies as st

DIRECT_LIMIT = 4096


def exactly(n: int) -> st.SearchStrategy:
    """``n`` bytes drawn from hypothesis."""
    if n <= DIRECT_LIMIT:
        return st.binary(min_size=n, max_size=n)
    return st.binary(min_size=32, max_size=32).map(lambda seed: hashlib.shake_256(seed).digest(n))
