"""Per-sector SHA-256 digests in one C call: the disk journal's check values.

``crypto-api disk --resilience checksum`` records a short digest of every
sector it is about to overwrite.  The C loop lives in the ``sector_batch``
module (crypto_api.algs.sector_batch, algs/sector_batch.c), which registers
its function here from its init, as it registers its batch planners
(:mod:`crypto_api.dmcrypt.sector_batch`); this package imports no driver.
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Optional

from crypto_api.errors import ENOENT, CryptoError
from crypto_api.registry import crypto_request_module

from .sector_batch import SECTOR_BATCH_ALIAS

Digests = Callable[[Any, int, int], bytes]
_digests: Optional[Digests] = None
_lock = threading.Lock()


def register_sector_digests(fn: Digests) -> None:
    """``fn(data, sector_size, digest_len) -> bytes`` answers :func:`sha256_sector_digests`."""
    global _digests
    with _lock:
        _digests = fn


def unregister_sector_digests(fn: Digests) -> None:
    global _digests
    with _lock:
        if _digests is fn:
            _digests = None


def sha256_sector_digests(data: Any, sector_size: int, digest_len: int) -> bytes:
    """The first ``digest_len`` bytes of SHA-256 of each ``sector_size``-byte
    sector of ``data``, concatenated (hashlib's, sector by sector); the
    ``sector_batch`` module is loaded if it is not yet."""
    fn = _digests
    if fn is None:
        crypto_request_module(SECTOR_BATCH_ALIAS)
        fn = _digests
    if fn is None:
        raise CryptoError(ENOENT, f"sector digests: no module registered them (alias {SECTOR_BATCH_ALIAS} "
                                  "loads crypto_api.algs.sector_batch)")
    return fn(data, sector_size, digest_len)
