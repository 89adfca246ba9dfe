"""The ``disk`` command's engine: transform the volume in batches, journalled.

In place (the image is overwritten), each batch of whole sectors goes
through the same steps, as cryptsetup's offline reencryption does per
segment (lib/luks2/luks2_reencrypt.c):

1. read the batch's original sectors;
2. write a journal record naming the batch, holding their copy (resilience
   ``journal``) or their digests (``checksum``), and sync the journal;
3. transform the batch in memory, write it in place and sync the image.

The next record is written only after step 3's sync succeeded, so the newest
valid record always names the only batch that may be partly written.  On a
rerun that batch is finished from its record: with ``journal`` the sectors
are recomputed from the saved originals (whatever the image holds there);
with ``checksum`` each sector is identified as original (its digest
matches: transform it) or already done (its inverse transform matches:
keep it).  Nothing is processed twice and nothing is lost.  Only after the
final sync succeeded is the job marked done in the journal, with a
fingerprint of the result (:func:`fingerprint`).

Out of place (``--output``) the source is never written, so a rerun simply
starts again.
"""

from __future__ import annotations

import errno
import hashlib
from typing import Optional

from crypto_api.errors import CryptoError
from crypto_api.dmcrypt import VolumeCipher

from .disk_geometry import Geometry
from .disk_io import pread_full, pwrite_full, sync
from .disk_journal import DIGEST, SECTOR_DIGEST, Journal, Record, sector_digest, sector_digests
from .disk_signals import StopSignals
from .disk_writer import BatchWriter, Progress

COPY_BYTES = 1 << 20


def _originals(buf: bytearray, ss: int, resilience: str) -> bytes:
    """What the record of ``buf`` holds: a copy of it, or a digest of each sector."""
    if resilience == "journal":
        return bytes(buf)
    return sector_digests(buf, ss)


def fingerprint(fd: int, geo: Geometry, image: str, span: int = COPY_BYTES) -> bytes:
    """A digest of the volume's first and last ``span`` bytes: tells a finished
    result from an image that was replaced or rewritten since."""
    h = hashlib.blake2b(digest_size=DIGEST, person=b"capi-disk-done")
    for pos in sorted({geo.start, max(geo.start, geo.end - span)}):
        buf = bytearray(min(span, geo.end - pos))
        pread_full(fd, buf, pos, image)
        h.update(buf)
    return h.digest()


def finish_batch(vc: VolumeCipher, fd: int, geo: Geometry, rec: Record, encrypt: bool,
                 resilience: str, image: str) -> None:
    """Bring the batch of ``rec`` to its transformed state and sync the image."""
    ss = geo.sector_size
    first = geo.index(rec.pos)
    if resilience == "journal":
        buf = bytearray(rec.payload)                 # the originals, whatever the image holds
        vc.crypt_sectors(first, buf, encrypt)
    else:
        buf = bytearray(rec.nbytes)
        pread_full(fd, buf, rec.pos, image)
        mv = memoryview(buf)
        for k in range(rec.nbytes // ss):
            sector = mv[k * ss:(k + 1) * ss]
            want = rec.payload[k * SECTOR_DIGEST:(k + 1) * SECTOR_DIGEST]
            if sector_digest(sector) == want:        # still the original
                vc.crypt_sectors(first + k, sector, encrypt)
                continue
            probe = bytearray(sector)
            vc.crypt_sectors(first + k, probe, not encrypt)
            if sector_digest(probe) != want:
                raise CryptoError(errno.EUCLEAN, f"{image}: sector {first + k} (byte "
                                                 f"{rec.pos + k * ss}) is neither its original nor "
                                                 "its result: its write was torn, and resilience "
                                                 "checksum cannot repair that")
    pwrite_full(fd, buf, rec.pos)
    sync(fd)


def run_in_place(vc: VolumeCipher, fd: int, geo: Geometry, journal: Journal, encrypt: bool,
                 image: str, stop: StopSignals, progress: Progress = None, state: Optional[dict] = None) -> None:
    """Transform the volume in place under ``journal``, resuming where it stopped."""
    resilience = journal.params.resilience
    state = {} if state is None else state
    rec = journal.latest()
    pos, seq = geo.start, 0
    if rec is not None and rec.done:
        return
    if rec is not None:
        finish_batch(vc, fd, geo, rec, encrypt, resilience, image)
        pos, seq = rec.end, rec.seq + 1
    state["done"] = pos - geo.start
    if progress is not None:
        progress(pos - geo.start)
    ss = geo.sector_size
    batch = max(ss, journal.batch_bytes - journal.batch_bytes % ss)
    writer = BatchWriter(journal, fd, geo, progress, state)
    try:
        while pos < geo.end:
            stop.check()
            n = min(batch, geo.end - pos)
            buf = bytearray(n)
            pread_full(fd, buf, pos, image)          # read before its record: the originals
            originals = _originals(buf, ss, resilience)
            vc.crypt_sectors(geo.index(pos), buf, encrypt)
            writer.submit(seq, pos, originals, buf)
            pos += n
            seq += 1
    finally:
        writer.close()                               # what was submitted is written, in order
    journal.write(seq, geo.end, 0, fingerprint(fd, geo, image))     # the job is done


def _copy(src: int, dst: int, start: int, end: int, image: str) -> None:
    pos = start
    while pos < end:
        buf = bytearray(min(COPY_BYTES, end - pos))
        pread_full(src, buf, pos, image)
        pwrite_full(dst, buf, pos)
        pos += len(buf)


def run_to_output(vc: VolumeCipher, src: int, dst: int, geo: Geometry, image_size: int, encrypt: bool,
                  image: str, stop: StopSignals, batch_bytes: int, progress: Progress = None) -> None:
    """Write the whole resulting image to ``dst``; ``src`` is only read."""
    _copy(src, dst, 0, geo.start, image)
    ss = geo.sector_size
    batch = max(ss, batch_bytes - batch_bytes % ss)
    pos = geo.start
    while pos < geo.end:
        stop.check()
        buf = bytearray(min(batch, geo.end - pos))
        pread_full(src, buf, pos, image)
        vc.crypt_sectors(geo.index(pos), buf, encrypt)
        pwrite_full(dst, buf, pos)
        pos += len(buf)
        if progress is not None:
            progress(len(buf))
    _copy(src, dst, geo.end, image_size, image)
    sync(dst)
