"""Per-sector digests in one C call: the disk journal's check values.

``crypto-api disk --resilience checksum`` records a short digest of every
sector it is about to overwrite: SHA-256 (journal format 1) or a keyed
shash, NH-Poly1305 (format 2).  The C loops live in the ``sector_batch``
module (crypto_api.algs.sector_batch, algs/sector_batch.c), which registers
its functions here from its init, as it registers its batch planners
(:mod:`crypto_api.dmcrypt.sector_batch`); this package imports no driver.
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Dict, Optional

from crypto_api.errors import ENOENT, CryptoError
from crypto_api.registry import crypto_request_module

from .sector_batch import SECTOR_BATCH_ALIAS

Digests = Callable[[Any, int, int], bytes]
KeyedDigests = Callable[[Any, Any, int], Optional[bytes]]
SHA256 = "sha256"
KEYED = "keyed"
_registered: Dict[str, Callable] = {}
_lock = threading.Lock()


def register_sector_digests(fn: Digests, kind: str = SHA256) -> None:
    """``fn`` answers :func:`sha256_sector_digests` (``kind`` SHA256:
    ``fn(data, sector_size, digest_len) -> bytes``) or :func:`keyed_sector_digests`
    (KEYED: ``fn(tfm, data, sector_size) -> bytes``, or None where ``tfm``'s
    driver offers no C entries)."""
    with _lock:
        _registered[kind] = fn


def unregister_sector_digests(fn: Callable, kind: str = SHA256) -> None:
    with _lock:
        if _registered.get(kind) is fn:
            del _registered[kind]


def _function(kind: str) -> Callable:
    fn = _registered.get(kind)
    if fn is None:
        crypto_request_module(SECTOR_BATCH_ALIAS)
        fn = _registered.get(kind)
    if fn is None:
        raise CryptoError(ENOENT, f"sector digests: no module registered them (alias {SECTOR_BATCH_ALIAS} "
                                  "loads crypto_api.algs.sector_batch)")
    return fn


def sha256_sector_digests(data: Any, sector_size: int, digest_len: int) -> bytes:
    """The first ``digest_len`` bytes of SHA-256 of each ``sector_size``-byte
    sector of ``data``, concatenated (hashlib's, sector by sector); the
    ``sector_batch`` module is loaded if it is not yet."""
    return _function(SHA256)(data, sector_size, digest_len)


def keyed_sector_digests(tfm: Any, data: Any, sector_size: int) -> bytes:
    """``tfm.digest`` (a keyed shash) of each ``sector_size``-byte sector of
    ``data``, concatenated: one C call where its driver offers its C entries
    (NH-Poly1305's), else one digest per sector."""
    out = _function(KEYED)(tfm, data, sector_size)
    if out is not None:
        return out
    digest = tfm.digest
    with memoryview(data) as mv:
        flat = mv.cast("B")
        try:
            return b"".join([digest(flat[at:at + sector_size]) for at in range(0, len(flat), sector_size)])
        finally:
            flat.release()
