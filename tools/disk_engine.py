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

Steps 1, the record's making and the transform run on ``--jobs`` worker
threads, several batches at once (:mod:`.disk_pipeline`); the durable steps
(writing the record, its sync, the in-place write, the image's sync) run on
the calling thread, one batch after the other in order, exactly as a single
thread would do them.  A batch prepared but not yet recorded has changed
nothing, so a kill or a stop may drop it.  With ``journal`` the originals are
read straight into the record and transformed out of it into the batch's
own buffer (no copy); the buffers of a batch whose in-place write is synced
are refilled by a later batch (no fresh memory to fault in per batch).

Out of place (``--output``) the source is never written, so a rerun simply
starts again.
"""

from __future__ import annotations

import errno
import hashlib
from typing import Callable, List, Optional, Sequence, Tuple

from crypto_api.errors import CryptoError
from crypto_api.dmcrypt import VolumeCipher

from .disk_geometry import Geometry
from .disk_io import pread_full, pwrite_full, sync
from .disk_journal import Journal, Record
from .disk_seal import DIGEST, SECTOR_DIGEST
from .disk_pipeline import Pipeline
from .disk_signals import StopSignals

Progress = Optional[Callable[[int], object]]

COPY_BYTES = 1 << 20


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
                 journal: Journal, image: str) -> None:
    """Bring the batch of ``rec`` (a record of ``journal``) to its transformed state and sync the image."""
    ss = geo.sector_size
    first = geo.index(rec.pos)
    sector_digest = journal.sector_digest
    if journal.params.resilience == "journal":
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


def _batches(geo: Geometry, start: int, batch_bytes: int) -> List[Tuple[int, int]]:
    """``(pos, nbytes)`` of each batch of whole sectors from byte ``start`` to the volume's end."""
    ss = geo.sector_size
    batch = max(ss, batch_bytes - batch_bytes % ss)
    return [(pos, min(batch, geo.end - pos)) for pos in range(start, geo.end, batch)]


def _buffer(n: int, reuse: Optional[bytearray]) -> bytearray:
    return reuse if reuse is not None and len(reuse) == n else bytearray(n)


def _prepare(vc: VolumeCipher, fd: int, geo: Geometry, journal: Journal, seq: int, pos: int, n: int,
             encrypt: bool, image: str, reuse: Optional[Tuple[bytearray, bytearray]] = None
             ) -> Tuple[bytearray, bytearray]:
    """On a worker: read one batch, make its sealed record, transform it in memory.
    Returns ``(record, transformed sectors)``; nothing is written.  ``reuse``: the
    buffers of a batch the writer is done with, refilled where they fit."""
    old_rec, old_buf = reuse if reuse is not None else (None, None)
    buf = _buffer(n, old_buf)
    if journal.params.resilience == "journal":
        rec, originals = journal.frame(seq, pos, n, n, old_rec)
        pread_full(fd, originals, pos, image)        # read straight into the record
        vc.crypt_sectors(geo.index(pos), buf, encrypt, src=originals)    # the record keeps them
        originals.release()
    else:
        pread_full(fd, buf, pos, image)
        digests = journal.sector_digests(buf, geo.sector_size)
        rec, room = journal.frame(seq, pos, n, len(digests), old_rec)
        room[:] = digests
        room.release()
        vc.crypt_sectors(geo.index(pos), buf, encrypt)
    journal.seal(rec)                                 # the record's digest, here and not on the writer
    return rec, buf


def run_in_place(vcs: Sequence[VolumeCipher], fd: int, geo: Geometry, journal: Journal, encrypt: bool,
                 image: str, stop: StopSignals, progress: Progress = None, state: Optional[dict] = None) -> None:
    """Transform the volume in place under ``journal``, resuming where it stopped.

    ``vcs`` holds one cipher per worker (the same cipher, key and geometry):
    ``len(vcs)`` batches are read, recorded and transformed at once
    (:class:`.disk_pipeline.Pipeline`), while this thread takes them in order
    and does each one's durable steps: write the record, sync the journal,
    write the batch in place, sync the image -- the order of one thread doing
    everything, so what a crash leaves behind is unchanged.  A stop (or a
    failure) between two batches drops the batches prepared beyond: none of
    them has a record, and their sectors are untouched.
    """
    state = {} if state is None else state
    rec = journal.latest()
    pos, seq = geo.start, 0
    if rec is not None and rec.done:
        return
    if rec is not None:
        finish_batch(vcs[0], fd, geo, rec, encrypt, journal, image)
        pos, seq = rec.end, rec.seq + 1
    state["done"] = pos - geo.start
    if progress is not None:
        progress(pos - geo.start)
    batches = _batches(geo, pos, journal.batch_bytes)

    spare: List[Tuple[bytearray, bytearray]] = []   # buffers of batches written and synced

    def work(worker: int, k: int) -> Tuple[bytearray, bytearray]:
        at, n = batches[k]
        try:
            reuse = spare.pop()                      # list.pop and append are atomic
        except IndexError:
            reuse = None
        return _prepare(vcs[worker], fd, geo, journal, seq + k, at, n, encrypt, image, reuse)

    stop.check()
    with Pipeline(len(vcs), len(batches), work) as pipe:
        for k, (record, buf) in enumerate(pipe):
            stop.check()                             # before the record: this batch is not started
            at, n = batches[k]
            journal.put(seq + k, record)             # the originals are safe ...
            pwrite_full(fd, buf, at)                 # ... before their sectors are overwritten
            sync(fd)                                 # and this batch is done before the next record
            spare.append((record, buf))              # now free for a later batch to refill
            state["done"] = at + n - geo.start
            if progress is not None:
                progress(n)
    journal.write(seq + len(batches), geo.end, 0, fingerprint(fd, geo, image))     # the job is done


def _copy(src: int, dst: int, start: int, end: int, image: str) -> None:
    pos = start
    while pos < end:
        buf = bytearray(min(COPY_BYTES, end - pos))
        pread_full(src, buf, pos, image)
        pwrite_full(dst, buf, pos)
        pos += len(buf)


def run_to_output(vcs: Sequence[VolumeCipher], src: int, dst: int, geo: Geometry, image_size: int,
                  encrypt: bool, image: str, stop: StopSignals, batch_bytes: int,
                  progress: Progress = None) -> None:
    """Write the whole resulting image to ``dst``; ``src`` is only read.  The
    batches are read and transformed on ``len(vcs)`` workers and written here."""
    _copy(src, dst, 0, geo.start, image)
    batches = _batches(geo, geo.start, batch_bytes)

    def work(worker: int, k: int) -> bytearray:
        at, n = batches[k]
        buf = bytearray(n)
        pread_full(src, buf, at, image)
        vcs[worker].crypt_sectors(geo.index(at), buf, encrypt)
        return buf

    stop.check()
    with Pipeline(len(vcs), len(batches), work) as pipe:
        for k, buf in enumerate(pipe):
            stop.check()
            pwrite_full(dst, buf, batches[k][0])
            if progress is not None:
                progress(len(buf))
    _copy(src, dst, geo.end, image_size, image)
    sync(dst)
