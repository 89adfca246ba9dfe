"""The ``disk`` journal's check values, one set per journal format version.

A journal record ends with a 32-byte digest that tells a complete record
from one torn by a crash (and from a record of another journal: the digest
is bound to the journal header's own digest); with ``--resilience
checksum`` a record holds a 16-byte digest of each original sector, which
tells on resume whether a sector still holds its original or its result.
Both guard against accidents (torn writes, stale slots), not against
someone who may write the journal: that one can rewrite the image anyway.

* Version 1 (header magic ``CAPIDJ01``, records ``CAPIDR01``): the record's
  digest is SHA-256 of the header digest and the record; a sector's is the
  first 16 bytes of its SHA-256.  SHA-256 over a 4 MiB record costs more
  than the cipher does on it, so new journals use version 2; a version 1
  journal left by an older run is still resumed, and finished, in version 1.
* Version 2 (``CAPIDJ02`` / ``CAPIDR02``): NH-Poly1305 (the ``nhpoly1305``
  shash, Adiantum's hash: an almost-universal keyed hash, several times the
  speed of SHA-256 here), keyed with SHAKE-256 of a label and the header
  digest.  A sector's digest is its NH-Poly1305 value (16 bytes); a
  record's is SHA-256 of a label, the header digest, the record's length
  and its NH-Poly1305 value (so the short SHA-256 input costs nothing).

No kernel counterpart (cryptsetup's reencryption journal checksums with a
hash the user picks: lib/luks2/luks2_reencrypt.c).  Both versions are safe
to call from several threads at once: each thread gets its own keyed tfm.
"""

from __future__ import annotations

import hashlib
import threading
from typing import Any, Dict, List

from crypto_api.dmcrypt import keyed_sector_digests, sha256_sector_digests
from crypto_api import crypto_alloc_shash

DIGEST = 32                       # a record's digest
SECTOR_DIGEST = 16                # a sector's digest (resilience "checksum")
#: format version -> (header magic, record magic)
MAGICS: Dict[int, tuple] = {1: (b"CAPIDJ01", b"CAPIDR01"), 2: (b"CAPIDJ02", b"CAPIDR02")}
#: The version new journals are written in.
FORMAT_VERSION = 2
_NH_KEY_BYTES = 1088              # nhpoly1305's key: Poly1305's 16-byte key, then NH's 1072 bytes
_NH_KEY_LABEL = b"crypto-api disk journal v2: NH-Poly1305 key"
_RECORD_LABEL = b"crypto-api disk journal v2: record"


class SealV1:
    """Version 1: SHA-256 everywhere."""

    version = 1

    def __init__(self, header_digest: bytes) -> None:
        self._header = bytes(header_digest)

    def record(self, data: Any) -> bytes:
        h = hashlib.sha256(self._header)
        h.update(data)
        return h.digest()

    def sector(self, sector: Any) -> bytes:
        return hashlib.sha256(sector).digest()[:SECTOR_DIGEST]

    def sectors(self, buf: Any, sector_size: int) -> bytes:
        """:meth:`sector` of each sector of ``buf``, concatenated (one C call)."""
        return sha256_sector_digests(buf, sector_size, SECTOR_DIGEST)

    def close(self) -> None:
        pass


class SealV2:
    """Version 2: NH-Poly1305 keyed from the header digest; one tfm per thread."""

    version = 2

    def __init__(self, header_digest: bytes) -> None:
        self._header = bytes(header_digest)
        self._key = bytearray(hashlib.shake_256(_NH_KEY_LABEL + self._header).digest(_NH_KEY_BYTES))
        self._local = threading.local()
        self._tfms: List[Any] = []
        self._lock = threading.Lock()

    def _tfm(self):
        tfm = getattr(self._local, "tfm", None)
        if tfm is None:
            tfm = crypto_alloc_shash("nhpoly1305")
            try:
                tfm.setkey(self._key)
            except BaseException:
                tfm.free()
                raise
            with self._lock:
                self._tfms.append(tfm)
            self._local.tfm = tfm
        return tfm

    def record(self, data: Any) -> bytes:
        with memoryview(data) as mv:
            n = mv.nbytes
            nh = self._tfm().digest(mv)
        return hashlib.sha256(_RECORD_LABEL + self._header + n.to_bytes(8, "little") + nh).digest()

    def sector(self, sector: Any) -> bytes:
        return self._tfm().digest(sector)

    def sectors(self, buf: Any, sector_size: int) -> bytes:
        """:meth:`sector` of each sector of ``buf``, concatenated (one C call)."""
        return keyed_sector_digests(self._tfm(), buf, sector_size)

    def close(self) -> None:
        """Free every thread's tfm (their keys are wiped) and wipe the key."""
        with self._lock:
            tfms, self._tfms = self._tfms, []
        for tfm in tfms:
            tfm.free()
        self._key[:] = bytes(len(self._key))
        self._local = threading.local()


def make_seal(version: int, header_digest: bytes):
    """The check values of journal format ``version`` for the header whose digest is given."""
    return {1: SealV1, 2: SealV2}[version](header_digest)
