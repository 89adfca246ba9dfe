"""Which kernel version the registry follows: the known versions and the switch.

No kernel counterpart (a kernel is one version; this emulator can be several).
Any release from v5.0 to 6.19 can be chosen (:data:`RELEASES`); the
table's facts were read in the seed series 5.0, the LTS lines and the latest
release (:data:`KNOWN`), and a release between two of those answers from the
table's ranges (:func:`crypto_api.kernels.query.unsettled` names the facts
whose change falls between the two, at a point the sources did not settle).
The version is chosen before the first module loads, by
``CRYPTO_API_KERNEL`` in the environment, the command line's ``--kernel``
or :func:`crypto_api.boot`; none chosen, it is :data:`DEFAULT` (6.18, the
current LTS line).  ``composite``, chosen explicitly, is this project's own
composite registry: the drivers as they register themselves with no version
table applied (:func:`selected` answers None for it).  The older
``CRYPTO_API_KERNEL_VERSION`` ("5.0"/"5.2") still switches only the two
/proc/crypto records of crypto_api.kernel_version; where the user set it, the
version chosen here leaves it as set.
"""

from __future__ import annotations

import os
import threading
from typing import Optional, Tuple

from .. import kernel_version, modules
from ..errors import EBUSY, EINVAL, CryptoError

#: The versions whose kernel trees the table's references read, oldest first.
KNOWN: Tuple[str, ...] = ("5.0", "5.4", "5.10", "5.15", "6.1", "6.6", "6.12", "6.18", "6.19")
#: Every release that can be chosen: v5.0 to 5.19 (5.19 was followed by 6.0), 6.0 to 6.19.
RELEASES: Tuple[str, ...] = tuple(f"5.{n}" for n in range(20)) + tuple(f"6.{n}" for n in range(20))
_RANGE = f"a release from {RELEASES[0]} to {RELEASES[-1]} (5.0-5.19, 6.0-6.19)"
ENV = "CRYPTO_API_KERNEL"
#: The version followed when none is chosen: the current LTS line.
DEFAULT = "6.18"
#: The value that asks for no version explicitly: the project's composite registry.
COMPOSITE = "composite"

_lock = threading.Lock()
_selected: Optional[str] = None
_read_env = False


def key(version: str) -> Tuple[int, ...]:
    """"6.12" -> (6, 12), for ordering versions (the table's bounds need not be in KNOWN)."""
    return tuple(int(p) for p in version.split("."))


def check(version: object) -> str:
    """``version`` if it is a release (or :data:`COMPOSITE`), else EINVAL naming
    the range and the versions the table was read in."""
    if version == COMPOSITE:
        return COMPOSITE
    if not isinstance(version, str) or version not in RELEASES:
        raise CryptoError(EINVAL, f"kernel {version!r}: not a known version; {_RANGE}; read in full: "
                                  f"{', '.join(KNOWN)}")
    return version


def bracket(version: str) -> Tuple[str, Optional[str]]:
    """The read versions around ``version``: (the latest at or before it, the
    first after it, None past the last); ``(version, version)`` for a read one."""
    check(version)
    if version in KNOWN:
        return version, version
    v = key(version)
    before = [k for k in KNOWN if key(k) <= v][-1]
    after = next((k for k in KNOWN if key(k) > v), None)
    return before, after


def selected() -> Optional[str]:
    """The kernel version the registry follows: the chosen one, else
    :data:`DEFAULT`; None for the project's composite registry."""
    global _selected, _read_env
    with _lock:
        if not _read_env:
            raw = os.environ.get(ENV, "").strip()
            _selected = _apply(_version(check(raw)) if raw else DEFAULT)
            _read_env = True
        return _selected


def _apply(version: Optional[str]) -> Optional[str]:
    # v5.0 also shows v5.0's blkcipher records (crypto_api.kernel_version),
    # unless the user set that older switch (then it stays as set).
    kernel_version.follow("5.0" if version == "5.0" else kernel_version.DEFAULT_KERNEL_VERSION)
    return version


def _version(checked: str) -> Optional[str]:
    return None if checked == COMPOSITE else checked


def select(version: Optional[str]) -> Optional[str]:
    """Follow ``version`` (None or :data:`COMPOSITE`: the composite registry);
    returns the previous choice.

    EINVAL for an unknown version; EBUSY once a module is loaded under another
    choice (its drivers registered as that one decided: unload them first)."""
    global _selected, _read_env
    if version is not None:
        version = _version(check(version))
    old = selected()
    if version == old:
        return old
    with _lock:
        loaded = modules.loaded_modules()
        if loaded:
            raise CryptoError(EBUSY, f"kernel {version or 'composite'}: modules already loaded under "
                                     f"kernel {old or 'composite'} ({', '.join(loaded)}); choose the "
                                     "kernel before the first module loads")
        _selected = _apply(version)
        _read_env = True
    modules.rescan()                    # the aliases follow the version (crypto_api.kernels)
    return old


def describe(version: Optional[str] = None) -> str:
    """How the listing names a choice: ``Linux 6.1`` (``Linux 6.18`` when
    none was chosen) or the composite (``composite`` given as ``version``)."""
    v = selected() if version is None else _version(check(version))
    return f"Linux {v}" if v else "composite (no kernel version: every driver as this project registers it)"
