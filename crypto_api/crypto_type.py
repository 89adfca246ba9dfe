"""The table of algorithm types (``struct crypto_type``, include/crypto/algapi.h).

Each frontend (skcipher, shash, cipher) registers its type here when it is
imported: how a transform of that type is allocated (its ``Frontend``) and
its ``/proc/crypto`` lines (``crypto_type.show``).  The core modules below
the frontends (``/proc``, the registry) read the table instead of importing
the frontends.
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Dict, List, Optional, Tuple

import attrs

from .errors import EEXIST, CryptoError

ShowLines = List[Tuple[str, object]]


@attrs.frozen(eq=False)
class CryptoType:
    """One algorithm type: the descriptors' ``KIND``, its frontend and its show hook."""

    kind: str
    frontend: Any
    show: Callable[[Any], ShowLines]


_lock = threading.Lock()
_types: Dict[str, CryptoType] = {}


def crypto_register_type(kind: str, frontend: Any, show: Callable[[Any], ShowLines]) -> CryptoType:
    """Add a type to the table (EEXIST if ``kind`` already has one)."""
    with _lock:
        if kind in _types:
            raise CryptoError(EEXIST, f"algorithm type {kind!r} is already registered")
        t = _types[kind] = CryptoType(kind, frontend, show)
        return t


def crypto_type_of(kind: str) -> Optional[CryptoType]:
    """The registered type for a descriptor ``KIND``, or None."""
    return _types.get(kind)


def registered_types() -> List[str]:
    return sorted(_types)
