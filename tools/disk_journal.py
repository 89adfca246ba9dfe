"""The ``disk`` command's journal: what an interrupted in-place run was doing.

Modelled on cryptsetup's offline LUKS2 reencryption (lib/luks2/
luks2_reencrypt.c, resilience modes ``journal`` and ``checksum``), with its
own format.  The journal is a file beside the image (``IMAGE.crypto-api-
journal`` unless ``--journal`` names one):

* a header (4 KiB): magic (which names the format version), the job's parameters as JSON (action, algorithm,
  IV mode, sector size, ``--skip``, large sectors, the volume's byte range,
  the image size, a key check value, the resilience mode, the batch size)
  and a SHA-256 digest of it.  It is written to a temporary name, synced and
  renamed into place, so it is never seen torn;
* two record slots, used in turn.  Before a batch of sectors is overwritten
  in place, a record naming it (sequence number, byte position, length)
  and holding either a copy of its original sectors (``journal``) or a
  16-byte digest of each (``checksum``) is written into the older slot and
  synced.  Each record ends with a digest bound to the header's digest
  (:mod:`.disk_seal`), so a record torn by a crash reads as absent and the
  other slot (the batch before, which is complete) takes over.

Format versions (:mod:`.disk_seal`): version 1 (``CAPIDJ01``) seals records
and sectors with SHA-256; version 2 (``CAPIDJ02``, what new jobs write) with
NH-Poly1305 keyed from the header digest.  A journal is resumed in the
version it was created in, so an older run's journal finishes as it began;
an older build refuses a version 2 journal (it does not know its magic)
rather than starting the job over.

Everything before the newest valid record's batch is done; everything after
it is untouched; the batch itself is finished from the record on restart.
When the last batch is synced, a final record (no sectors) marks the job
done and holds a fingerprint of the result.  The journal then stays as a
receipt: rerunning the same command on the same result does nothing
(otherwise a run killed just after finishing would leave the user unable
to tell whether rerunning is safe); any other job on the image replaces it.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import struct
from typing import Optional

import attrs

from crypto_api.dmcrypt import VolumeCipher
from crypto_api.errors import EEXIST, EINVAL, CryptoError

from .disk_io import pread_full, pwrite_full, sync, sync_dir
from .disk_lock import lock_exclusive
from .disk_seal import DIGEST, FORMAT_VERSION, MAGICS, SECTOR_DIGEST, make_seal

SUFFIX = ".crypto-api-journal"
HEADER_SIZE = 4096
MAGIC_BYTES = 8
_VERSIONS = {magics[0]: version for version, magics in MAGICS.items()}     # header magic -> version
_RECORD_HEAD = struct.Struct("<8sQQII")          # magic, seq, pos, nbytes, payload length
RESILIENCE_MODES = ("journal", "checksum")
EUCLEAN = errno.EUCLEAN
_KCV_INPUT = b"crypto-api disk journal: key check value".ljust(64, b".")


def key_check_value(vc: VolumeCipher) -> str:
    """A check value of the key (never the key): a digest of a fixed block
    encrypted under an IV that dm-crypt's plain/plain64 never produce for a
    real sector (all bytes 0xff)."""
    ct = vc.tfm.encrypt(_KCV_INPUT, b"\xff" * vc.tfm.ivsize)
    return hashlib.blake2b(ct, digest_size=16, person=b"capi-disk-kcv").hexdigest()


@attrs.frozen
class JobParams:
    """What a job does; a rerun must ask for exactly the same to resume it."""

    action: str
    algorithm: str
    ivmode: str
    sector_size: int
    skip: int
    iv_large_sectors: bool
    start: int
    length: int
    image_size: int
    key_check: str
    resilience: str

    #: field -> how the command line spells it, for messages
    OPTION = {"action": "action", "algorithm": "--cipher (algorithm)", "ivmode": "--cipher (IV mode)",
              "sector_size": "--sector-size", "skip": "--skip", "iv_large_sectors": "--iv-large-sectors",
              "start": "--offset (bytes)", "length": "--size (bytes)", "image_size": "image size",
              "key_check": "key", "resilience": "--resilience"}

    def differences(self, other: "JobParams") -> list:
        out = []
        for field in attrs.fields(JobParams):
            a, b = getattr(self, field.name), getattr(other, field.name)
            if a != b:
                label = JobParams.OPTION[field.name]
                out.append(f"{label} differs" if field.name == "key_check" else f"{label} {b} here, {a} in the journal")
        return out

    def command(self, image: str) -> str:
        """The command line that started this job (the key file is not known)."""
        words = [f"crypto-api disk {self.action} {image}", f"--cipher 'capi:{self.algorithm}-{self.ivmode}'",
                 "--key-file <the same key>", f"--sector-size {self.sector_size}",
                 f"--offset {self.start // 512}", f"--size {self.length // 512}", f"--skip {self.skip}"]
        if self.iv_large_sectors:
            words.append("--iv-large-sectors")
        words.append(f"--resilience {self.resilience}")
        return " ".join(words)


@attrs.frozen
class Record:
    """A batch in flight: ``nbytes`` bytes at image byte ``pos`` and their originals."""

    seq: int
    pos: int
    nbytes: int
    payload: bytes

    @property
    def end(self) -> int:
        return self.pos + self.nbytes

    @property
    def done(self) -> bool:
        """The job's last record: everything is done; ``payload`` is the result's fingerprint."""
        return self.nbytes == 0


def default_path(image: str) -> str:
    """``IMAGE.crypto-api-journal`` beside the image (beside its target if IMAGE is a symlink,
    so that every name of the image finds the same journal)."""
    return (os.path.realpath(image) if os.path.islink(image) else image) + SUFFIX


def _payload_size(params: JobParams, nbytes: int) -> int:
    if params.resilience == "journal":
        return nbytes
    return nbytes // params.sector_size * SECTOR_DIGEST


class Journal:
    """An open, locked journal file."""

    def __init__(self, path: str, fd: int, params: JobParams, batch_bytes: int, digest: bytes,
                 version: int = FORMAT_VERSION) -> None:
        self.path = path
        self.fd = fd
        self.params = params
        self.batch_bytes = batch_bytes
        self.version = version
        self._record_magic = MAGICS[version][1]
        self._seal = make_seal(version, digest)
        self.slot_size = -(-(_RECORD_HEAD.size + _payload_size(params, batch_bytes) + DIGEST) // 4096) * 4096

    # -- creating and opening ------------------------------------------------
    @classmethod
    def create(cls, path: str, params: JobParams, batch_bytes: int, version: int = FORMAT_VERSION) -> "Journal":
        """Write a new journal (temporary name, synced, renamed, directory synced)
        in format ``version`` (an older one only to test that older journals resume)."""
        body = json.dumps({"params": attrs.asdict(params), "batch_bytes": batch_bytes},
                          sort_keys=True).encode()
        head = MAGICS[version][0] + struct.pack("<I", len(body)) + body
        header = head + hashlib.sha256(head).digest()
        if len(header) > HEADER_SIZE:
            raise CryptoError(EINVAL, f"journal {path}: parameters too long for the header")
        tmp = path + ".new"
        try:
            os.unlink(tmp)                       # left by a run killed while creating it
        except FileNotFoundError:
            pass
        fd = os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
        journal = None
        try:
            lock_exclusive(fd, tmp, "journal")
            journal = cls(path, fd, params, batch_bytes, header[-DIGEST:], version)
            size = HEADER_SIZE + 2 * journal.slot_size
            try:
                os.posix_fallocate(fd, 0, size)  # no ENOSPC later for the journal itself
            except OSError as e:
                if e.errno not in (errno.EOPNOTSUPP, errno.EINVAL):
                    raise CryptoError(e.errno, f"journal {path}: cannot reserve {size} bytes: "
                                               f"{os.strerror(e.errno)}; free space beside the image "
                                               "or choose another place with --journal; the image is unchanged") from None
            pwrite_full(fd, header.ljust(HEADER_SIZE, b"\0"), 0)
            sync(fd)
            os.rename(tmp, path)
            sync_dir(path)
        except BaseException:
            if journal is not None:
                journal.close()
            else:
                os.close(fd)
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
        return journal

    @classmethod
    def open(cls, path: str) -> "Journal":
        """Open and lock an existing journal; EUCLEAN if its header is damaged."""
        fd = os.open(path, os.O_RDWR | os.O_CLOEXEC)
        try:
            lock_exclusive(fd, path, "journal")
            buf = bytearray(HEADER_SIZE)
            try:
                pread_full(fd, buf, 0, f"journal {path}")
            except CryptoError:
                raise CryptoError(EUCLEAN, f"journal {path}: shorter than its header") from None
            (n,) = struct.unpack_from("<I", buf, MAGIC_BYTES)
            end = MAGIC_BYTES + 4 + n
            version = _VERSIONS.get(bytes(buf[:MAGIC_BYTES]))
            if (version is None or end + DIGEST > HEADER_SIZE
                    or hashlib.sha256(buf[:end]).digest() != buf[end:end + DIGEST]):
                raise CryptoError(EUCLEAN, f"journal {path}: not a crypto-api disk journal (of a format "
                                           "this version knows), or its header is damaged")
            data = json.loads(bytes(buf[MAGIC_BYTES + 4:end]))
            params = JobParams(**data["params"])
            return cls(path, fd, params, int(data["batch_bytes"]), bytes(buf[end:end + DIGEST]), version)
        except BaseException:
            os.close(fd)
            raise

    # -- records ----------------------------------------------------------------
    def _slot(self, seq: int) -> int:
        return HEADER_SIZE + (seq % 2) * self.slot_size

    def _mac(self, data) -> bytes:
        return self._seal.record(data)           # bound to this journal's header

    def sector_digest(self, sector) -> bytes:
        """The ``checksum`` digest of one sector, in this journal's format."""
        return self._seal.sector(sector)

    def sector_digests(self, buf, sector_size: int) -> bytes:
        """:meth:`sector_digest` of each sector of ``buf``, concatenated."""
        return self._seal.sectors(buf, sector_size)

    def frame(self, seq: int, pos: int, nbytes: int, payload_len: int, reuse: Optional[bytearray] = None):
        """``(record, payload)``: a record of batch ``seq`` with its head filled
        and ``payload`` (a writable view of its next ``payload_len`` bytes) for
        the caller to fill (reading the originals straight into it saves a
        copy); :meth:`seal` it once filled.  ``reuse``: a record no longer
        needed, refilled if it has the size (saves allocating and faulting in
        a batch's worth of fresh memory).  Touches no file: any thread may
        build records while another writes them."""
        size = _RECORD_HEAD.size + payload_len + DIGEST
        rec = reuse if reuse is not None and len(reuse) == size else bytearray(size)
        _RECORD_HEAD.pack_into(rec, 0, self._record_magic, seq, pos, nbytes, payload_len)
        return rec, memoryview(rec)[_RECORD_HEAD.size:_RECORD_HEAD.size + payload_len]

    def seal(self, rec: bytearray) -> bytearray:
        """Fill the digest at the end of a :meth:`frame`'d record (no file is touched)."""
        with memoryview(rec) as mv:
            mv[-DIGEST:] = self._mac(mv[:-DIGEST])
        return rec

    def put(self, seq: int, rec) -> None:
        """Write the sealed record of batch ``seq`` into its slot and sync the journal."""
        pwrite_full(self.fd, rec, self._slot(seq))
        sync(self.fd)

    def write(self, seq: int, pos: int, nbytes: int, payload) -> None:
        """Record batch ``seq`` durably (before any of its sectors is overwritten)."""
        rec, room = self.frame(seq, pos, nbytes, len(payload))
        room[:] = payload
        room.release()
        self.put(seq, self.seal(rec))

    def _read_slot(self, k: int) -> Optional[Record]:
        buf = bytearray(self.slot_size)
        try:
            pread_full(self.fd, buf, HEADER_SIZE + k * self.slot_size, f"journal {self.path}")
        except CryptoError:
            return None                          # never written
        magic, seq, pos, nbytes, plen = _RECORD_HEAD.unpack_from(buf)
        end = _RECORD_HEAD.size + plen
        if magic != self._record_magic or end + DIGEST > len(buf) or self._mac(buf[:end]) != buf[end:end + DIGEST]:
            return None                          # never written, or torn
        return Record(seq, pos, nbytes, bytes(buf[_RECORD_HEAD.size:end]))

    def latest(self) -> Optional[Record]:
        """The newest complete record, or None when no batch was started."""
        recs = [r for r in (self._read_slot(0), self._read_slot(1)) if r is not None]
        if not recs:
            return None
        rec = max(recs, key=lambda r: r.seq)
        p = self.params
        if rec.done:
            good = rec.pos == p.start + p.length and len(rec.payload) == DIGEST
        else:
            good = (p.start <= rec.pos < rec.end <= p.start + p.length
                    and (rec.pos - p.start) % p.sector_size == 0 and rec.nbytes % p.sector_size == 0
                    and len(rec.payload) == _payload_size(p, rec.nbytes))
        if not good:
            raise CryptoError(EUCLEAN, f"journal {self.path}: record {rec.seq} does not fit the job "
                                       f"(bytes {rec.pos}+{rec.nbytes}); the journal is damaged")
        return rec

    # -- the end -------------------------------------------------------------------
    def close(self) -> None:
        self._seal.close()
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def refuse_mismatch(journal: Journal, wanted: JobParams, image: str) -> CryptoError:
    """The error for a run whose parameters are not the journal's job."""
    diffs = "; ".join(journal.params.differences(wanted))
    return CryptoError(EEXIST, f"{image}: an unfinished job's journal {journal.path} does not match "
                               f"this command ({diffs}); finish that job first by running: "
                               f"{journal.params.command(image)}")
