"""The speed tool's targets from its command line: ``--alg`` and ``--driver``
names, in order, to the transforms it measures.

A name is a :class:`speed_targets.Target` (an algorithm or a pinned driver),
or an ARIA S-box pin such as ``ctr-aria-avx@gfni`` (speed_aria); this module
sits above both, so neither imports the other.
"""

from __future__ import annotations

from typing import List

from crypto_api.errors import EINVAL, CryptoError

from .speed_aria import SboxTarget, is_sbox_target
from .speed_targets import DEFAULT_ALGS, Target, drivers_of


def resolve(algs: List[str], drivers: List[str], into: bool = False,
            all_drivers: bool = False) -> List[Target]:
    """Targets for ``--alg`` names then ``--driver`` names (default set if none);
    ``into``: skciphers write into a preallocated buffer (``--into``);
    ``all_drivers``: each ``--alg`` name's every driver too (``--all-drivers``)."""
    if all_drivers:
        drivers = list(drivers) + [d for n in algs for d in drivers_of(n) if d not in drivers]
    names = [(n, False) for n in algs] + [(n, True) for n in drivers]
    if not names:
        names = [(n, False) for n in DEFAULT_ALGS]
    seen = set()
    out = []
    try:
        for name, pinned in names:
            if name in seen:
                raise CryptoError(EINVAL, f"{name}: given twice")
            seen.add(name)
            out.append((SboxTarget if is_sbox_target(name) else Target)(name, pinned, into))
    except BaseException:
        for t in out:
            t.free()
        raise
    return out
