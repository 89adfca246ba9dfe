"""Sector encryption as dm-crypt does it: ``VolumeCipher``.

The high-level helper for the common case "encrypt or decrypt sector *n* of
a dm-crypt volume" (drivers/md/dm-crypt.c with the table cryptsetup builds
for ``cryptsetup open --type plain``): one object holds the keyed skcipher,
the IV mode and dm-crypt's sector numbering, and transforms sectors by
number.  ``crypto-api disk`` is built on it.

Numbering (dm-crypt.rst): ``n`` counts ``sector_size``-byte sectors from the
start of the volume's data (the mapping's sector 0, i.e. cryptsetup's
``--offset`` on the device).  The IV generator gets ``n * (sector_size/512)
+ iv_offset``, or ``n + iv_offset / (sector_size/512)`` with
``iv_large_sectors``; ``iv_offset`` is the table's ``<iv_offset>``, which is
cryptsetup plain's ``--skip`` (512-byte units, a multiple of
``sector_size/512``, as dm-crypt requires).

Only ciphers that suit sector encryption are accepted (see
:func:`check_sector_cipher`): length-preserving wide-block ciphers and known
block modes.  A stream cipher (block size 1) is refused: a sector rewritten
in place is encrypted again with the same keystream, and where the IV also
carries the block counter (``chacha20``), neighbouring sectors share
keystream.
"""

from __future__ import annotations

import weakref
from typing import List, Optional

from crypto_api.alg import BytesLike, WritableBuffer
from crypto_api.errors import EINVAL, CryptoError
from crypto_api.fpu import fpu_tracing
from crypto_api.scatterlist import partly_overlapping
from crypto_api.skcipher import CryptoSkcipher, crypto_alloc_skcipher

from .cipher_spec import parse_cipher_spec
from .ivgen import SECTOR_SIZE, dm_crypt_iv_mode, dm_crypt_iv_packer, dm_crypt_iv_sector
from .sector_batch import SectorBatchPlan, export_source, export_sectors, sector_batch_plan
from .sector_workers import SectorWorkers

#: dm-crypt's sector sizes (``sector_size:<n>``).
SECTOR_SIZES = (512, 1024, 2048, 4096)

#: The most threads one VolumeCipher runs a batch on (``jobs``).
MAX_JOBS = 64


#: Templates whose instances are length-preserving wide-block ciphers
#: (any length of at least one block; the whole sector is one block).
WIDE_BLOCK_TEMPLATES = ("adiantum", "hctr2")

#: Templates of block-cipher modes that dm-crypt and fscrypt use for sectors:
#: length-preserving on whole blocks, the IV makes equal sectors differ.
#: ``ecb`` is not one of them: it ignores the IV and shows equal blocks.
SECTOR_BLOCK_MODES = ("xts", "lrw", "cbc", "essiv", "cts")


def _template(name: str) -> Optional[str]:
    return name.split("(", 1)[0] if "(" in name else None


def sector_cipher_problem(tfm: CryptoSkcipher) -> Optional[str]:
    """Why ``tfm`` is unsafe for sector encryption, or None if it suits.

    Decided from the algorithm's properties: a ``cra_blocksize`` of 1 is a
    stream cipher; a wide-block template (adiantum, hctr2) suits; a block
    cipher (``cra_blocksize`` >= 8) suits under a known sector mode template.
    """
    name = tfm.alg.cra_name
    template = _template(name)
    if template in WIDE_BLOCK_TEMPLATES:
        return None
    if tfm.blocksize <= 1:
        return ("a stream cipher (block size 1): a sector written twice reuses its keystream, "
                "and with an IV that carries the block counter neighbouring sectors share keystream")
    if template in SECTOR_BLOCK_MODES and tfm.blocksize >= 8:
        return None
    return (f"not a length-preserving wide-block cipher ({', '.join(WIDE_BLOCK_TEMPLATES)}) "
            f"nor a sector block mode ({', '.join(SECTOR_BLOCK_MODES)})")


def check_sector_cipher(tfm: CryptoSkcipher, allow_unsafe: bool = False,
                        override: str = "allow_unsafe=True") -> None:
    """Refuse (EINVAL) a cipher unsafe for sector encryption unless ``allow_unsafe``.

    ``override`` names the way to force it in the message (the command line
    passes its flag's name).
    """
    problem = sector_cipher_problem(tfm)
    if problem is not None and not allow_unsafe:
        raise CryptoError(EINVAL, f"{tfm.alg.cra_name}: {problem}; refused for sector encryption "
                                  f"({override} forces it, unsafe)")


def _check_sector_size(tfm: CryptoSkcipher, sector_size) -> None:
    if sector_size not in SECTOR_SIZES:
        raise CryptoError(EINVAL, f"sector size {sector_size!r}: must be one of "
                                  f"{', '.join(map(str, SECTOR_SIZES))}")
    bs = tfm.blocksize
    wide = _template(tfm.alg.cra_name) in WIDE_BLOCK_TEMPLATES
    if sector_size < bs or (not wide and bs > 1 and sector_size % bs):
        raise CryptoError(EINVAL, f"{tfm.alg.cra_name}: a {sector_size}-byte sector is not whole "
                                  f"{bs}-byte blocks")


class VolumeCipher:
    """Encrypt or decrypt the sectors of a dm-crypt volume by number.

    ``cipher`` is a cryptsetup cipher specification
    (``xchacha12,aes-adiantum-plain64``) or dm-crypt's kernel form
    (``capi:adiantum(xchacha12,aes)-plain64``); ``key`` the raw key (as
    ``cryptsetup --type plain --hash plain`` or a dmsetup table take it).
    ``sector_size``, ``iv_offset`` (cryptsetup ``--skip``, 512-byte units)
    and ``iv_large_sectors`` have dm-crypt's meaning.

    ``allow_unsafe`` accepts a cipher :func:`check_sector_cipher` refuses
    (``override`` and ``key_name`` only change how errors name things).

    ``jobs`` (default 1): :meth:`crypt_sectors` spreads a run of sectors over
    that many threads (the caller's and ``jobs - 1`` workers), each making one
    C call over its share (crypto_api.dmcrypt.sector_batch: the GIL is released
    there).  A driver without a sector batch plan but with a C direct path
    runs the run's sectors through ``tfm.encrypt_batch`` on ``jobs`` native
    worker threads (crypto_api/batch.py); any other runs its sectors one by
    one in the caller's thread.

    One object uses one tfm: use it from one thread at a time.  Close it
    (or use ``with``) to free the tfm, wipe its key and stop its workers.
    """

    def __init__(self, cipher: str, key: BytesLike, *, sector_size: int = SECTOR_SIZE, iv_offset: int = 0,
                 iv_large_sectors: bool = False, allow_unsafe: bool = False,
                 override: str = "allow_unsafe=True", key_name: str = "key", jobs: int = 1) -> None:
        if not isinstance(jobs, int) or isinstance(jobs, bool) or not 1 <= jobs <= MAX_JOBS:
            raise CryptoError(EINVAL, f"jobs {jobs!r}: must be an int from 1 to {MAX_JOBS}")
        spec = parse_cipher_spec(cipher)
        try:
            tfm = crypto_alloc_skcipher(spec.algorithm)
        except CryptoError as e:
            raise CryptoError(e.errno, f"cipher specification {spec.spec!r}: {e.message}") from None
        try:
            check_sector_cipher(tfm, allow_unsafe, override)
            gen, need = dm_crypt_iv_mode(spec.ivmode)
            if tfm.ivsize < need:
                raise CryptoError(EINVAL, f"{tfm.alg.cra_name}: IV mode {spec.ivmode} needs an IV of at "
                                          f"least {need} bytes, the cipher's IV is {tfm.ivsize} bytes")
            _check_sector_size(tfm, sector_size)
            per = sector_size // SECTOR_SIZE
            if not isinstance(iv_offset, int) or iv_offset % per:
                raise CryptoError(EINVAL, f"iv_offset (--skip) {iv_offset}: not a multiple of the sector "
                                          f"size in 512-byte units ({per} for {sector_size}-byte sectors)")
            dm_crypt_iv_sector(0, sector_size, iv_offset, iv_large_sectors)   # range checks
            try:
                tfm.setkey(key)
            except CryptoError as e:
                raise CryptoError(e.errno, f"{key_name}: {e.message}") from None
        except BaseException:
            tfm.free()
            raise
        self.spec = spec
        self.tfm = tfm
        self.sector_size = sector_size
        self.iv_offset = iv_offset
        self.iv_large_sectors = bool(iv_large_sectors)
        self._gen = gen
        self._pack = dm_crypt_iv_packer(spec.ivmode, tfm.ivsize)
        # the IV number of sector n is n * step + base
        self._step = 1 if iv_large_sectors else per
        self._base = iv_offset // per if iv_large_sectors else iv_offset
        self.jobs = jobs
        self._workers: Optional[SectorWorkers] = None

    # -- description --------------------------------------------------------
    @property
    def algorithm(self) -> str:
        """The crypto API name, e.g. ``adiantum(xchacha12,aes)``."""
        return self.spec.algorithm

    @property
    def ivmode(self) -> str:
        return self.spec.ivmode

    @property
    def driver_name(self) -> str:
        return self.tfm.driver_name

    @property
    def batch_driver(self) -> Optional[str]:
        """The driver whose C entry point :meth:`crypt_sectors` calls once per
        run of sectors here and now, or None (one request per sector)."""
        plan = sector_batch_plan(self.tfm, self.spec.ivmode)
        return None if plan is None else plan.driver

    def iv_sector(self, n: int) -> int:
        """The number dm-crypt hands its IV generator for sector ``n``."""
        return n * self._step + self._base

    def iv(self, n: int) -> bytes:
        """The IV of sector ``n`` (EINVAL if its number does not fit the IV mode)."""
        if not isinstance(n, int) or n < 0:
            raise CryptoError(EINVAL, f"sector number {n!r}: must be a non-negative int")
        return self._gen(self.iv_sector(n), self.tfm.ivsize)

    # -- one sector -----------------------------------------------------------
    def _one(self, n: int, data: BytesLike, encrypt: bool) -> bytes:
        iv = self.iv(n)
        if len(memoryview(data).cast("B")) != self.sector_size:
            raise CryptoError(EINVAL, f"sector {n}: {len(memoryview(data).cast('B'))} bytes, "
                                      f"expected {self.sector_size}")
        return self.tfm.encrypt(data, iv) if encrypt else self.tfm.decrypt(data, iv)

    def encrypt_sector(self, n: int, data: BytesLike) -> bytes:
        """Sector ``n``'s plaintext (``sector_size`` bytes) -> its ciphertext."""
        return self._one(n, data, True)

    def decrypt_sector(self, n: int, data: BytesLike) -> bytes:
        """Sector ``n``'s ciphertext -> its plaintext."""
        return self._one(n, data, False)

    # -- many sectors ----------------------------------------------------------------
    def crypt_sectors(self, first: int, buf: WritableBuffer, encrypt: bool,
                      src: Optional[BytesLike] = None) -> None:
        """Transform ``buf`` (writable, whole sectors, the first is sector ``first``) in place;
        with ``src`` (as long as ``buf``, not partly overlapping it), transform
        ``src`` into ``buf`` and leave ``src`` as it was (saves a copy).

        One C call per thread over the whole run where the driver has a batch
        path (crypto_api.dmcrypt.sector_batch), else one request per sector; the same
        bytes either way.
        """
        ss = self.sector_size
        view, count = export_sectors(buf, ss)     # exported first: its length cannot change now
        sview = None if src is None else export_source(src, count * ss)
        if not count:
            return
        dst_mv = memoryview(buf).cast("B")
        src_mv = dst_mv if src is None else memoryview(src).cast("B")
        if partly_overlapping(src_mv, dst_mv):
            raise CryptoError(EINVAL, f"{self.tfm.alg.cra_name}: the source sectors partly overlap "
                                      "the buffer written (use the same buffer, or separate ones)")
        self.iv(first)
        self.iv(first + count - 1)                # every IV number of the run fits the IV mode
        plan = sector_batch_plan(self.tfm, self.spec.ivmode)
        if plan is None:
            self._per_sector(first, src_mv, dst_mv, count, encrypt)
        else:
            self._batch(plan, view, first, count, encrypt, sview)

    def _per_sector(self, first: int, src: memoryview, dst: memoryview, count: int, encrypt: bool) -> None:
        ss = self.sector_size
        pack, step, base = self._pack, self._step, self._base
        if self.tfm._direct_enc is None or fpu_tracing():
            # no C direct path, or a trace records (it shows each request's own
            # sections, as the batch plans decline then): one call per sector
            fn = self.tfm.encrypt if encrypt else self.tfm.decrypt
            for k in range(count):
                fn(src[k * ss:(k + 1) * ss], pack((first + k) * step + base), dst[k * ss:(k + 1) * ss])
            return
        # the tfm's batch entry point: every sector in one C call, on ``jobs`` native workers
        ins = [src[k * ss:(k + 1) * ss] for k in range(count)]
        outs = ins if src is dst else [dst[k * ss:(k + 1) * ss] for k in range(count)]
        ivs = [pack((first + k) * step + base) for k in range(count)]
        fn = self.tfm.encrypt_batch if encrypt else self.tfm.decrypt_batch
        fn(ins, ivs, outs, workers=self.jobs)

    def _shares(self, count: int) -> List[tuple]:
        """``(first index, count)`` of each thread's contiguous share of ``count`` sectors."""
        parts = min(self.jobs, count)
        size, extra = divmod(count, parts)
        out, at = [], 0
        for i in range(parts):
            n = size + (i < extra)
            out.append((at, n))
            at += n
        return out

    def _batch(self, plan: SectorBatchPlan, view, first: int, count: int, encrypt: bool, sview=None) -> None:
        ss, step = self.sector_size, self._step
        number = first * step + self._base

        def run(share: tuple) -> None:
            at, n = share
            plan.crypt(view, at * ss, ss, n, number + at * step, step, encrypt, sview)

        shares = self._shares(count)
        if len(shares) == 1:
            run(shares[0])
            return
        if self._workers is None or not self._workers.alive:       # none yet, or a forked child
            self._workers = SectorWorkers(self.jobs - 1)
            weakref.finalize(self, self._workers.close)     # an object never closed stops them too
        # the caller's own share here, share i on worker i
        self._workers.run(lambda: run(shares[0]), [lambda s=s: run(s) for s in shares[1:]])

    def encrypt_sectors(self, first: int, buf: WritableBuffer) -> None:
        """Encrypt whole sectors in place; ``buf[0:sector_size]`` is sector ``first``."""
        self.crypt_sectors(first, buf, True)

    def decrypt_sectors(self, first: int, buf: WritableBuffer) -> None:
        """Decrypt whole sectors in place; ``buf[0:sector_size]`` is sector ``first``."""
        self.crypt_sectors(first, buf, False)

    # -- lifetime ------------------------------------------------------------------
    def close(self) -> None:
        """Stop the workers, free the tfm (its key is wiped)."""
        if self._workers is not None:
            self._workers.close()
            self._workers = None
        self.tfm.free()

    def __enter__(self) -> "VolumeCipher":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
