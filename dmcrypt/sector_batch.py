"""Many sectors in one C call: the batch path of :class:`crypto_api.dmcrypt.sector.VolumeCipher`.

dm-crypt (drivers/md/dm-crypt.c, ``crypt_convert``) makes one skcipher
request per sector; from Python a request costs far more than a 512-byte
sector's cipher work.  A *batch plan* transforms a whole run of sectors in
one C call (algs/sector_batch.c) that builds each sector's IV from its
number and calls the C entry point of **the driver the registry picked for
the tfm** (same bytes as one request per sector).

The package knows no driver: planners are registered by the ``sector_batch``
module (crypto_api.algs.sector_batch, loaded on first use through the alias
:data:`SECTOR_BATCH_ALIAS`), each ``planner(tfm, ivmode) -> plan or None``.
Where no planner knows the tfm's driver (a plug-in, another machine's
driver), there is no plan and the caller runs one request per sector.

The FPU model decides as for a request (:func:`crypto_api.fpu.simd_choice`):
a plan is offered only where it says SIMD (where SIMD is unusable the
per-sector path takes the generic code or cryptd; while a trace records, the
per-sector path makes the sections it shows), and not where the SIMD wrapper
would queue to cryptd (its C entries are then none: crypto_api.simd's
``simd_direct_child``).  Each call runs in one
FPU section of the thread that makes it, with the GIL released (cffi does so
for every call), so threads may run disjoint parts of a buffer at once.

A plan holds raw pointers into the tfm's key contexts: make one per run of
sectors (it is cheap), keep it no longer, and set no key meanwhile.
"""

from __future__ import annotations

import threading
from typing import Any, Callable, List, Optional, Tuple

import attrs
import cffi

from crypto_api.errors import EINVAL, CryptoError
from crypto_api.fpu import SIMD, fpu_account, kernel_fpu_begin, kernel_fpu_end, simd_choice
from crypto_api.registry import crypto_request_module

#: The alias the core requests to load the planners' module.
SECTOR_BATCH_ALIAS = "crypto-sector-batch"

_ffi = cffi.FFI()
_U64 = (1 << 64) - 1


@attrs.define
class SectorBatchPlan:
    """A filled C description of how to transform sectors with one keyed tfm.

    ``call`` is the C batch function (algs/sector_batch.c
    ``sector_batch_crypt``), ``desc`` its description, ``driver`` the driver
    whose entry point it runs, ``keep`` the cdata its pointers lead into.
    """

    call: Callable[..., int]
    desc: Any
    driver: str
    keep: Tuple[Any, ...] = ()

    def crypt(self, buf: Any, offset: int, sector_size: int, count: int, iv_first: int,
              iv_step: int, encrypt: bool, src: Any = None) -> None:
        """Transform ``count`` sectors of ``buf`` (from :func:`export_sectors`) in place,
        from byte ``offset``; the first gets IV number ``iv_first``, each next one
        ``iv_step`` more.  With ``src`` (from :func:`export_source`, as long as
        ``buf``) the sectors are read from ``src`` and written to ``buf``.

        Runs in the calling thread inside one FPU section (the GIL is released
        for the C call).  The caller checked that ``buf`` holds the sectors and
        that every IV number fits in 64 bits.
        """
        ptr = buf + offset
        sptr = ptr if src is None else src + offset
        kernel_fpu_begin()
        try:
            err = self.call(self.desc, ptr, sptr, sector_size, count, iv_first & _U64, iv_step,
                            1 if encrypt else 0)
            fpu_account(count * sector_size)
        finally:
            kernel_fpu_end()
        if err:
            raise CryptoError(-err, f"{self.driver}: a batch of {count} sectors of {sector_size} "
                                    "bytes was refused")


Planner = Callable[[Any, str], Optional[SectorBatchPlan]]
_planners: List[Planner] = []
_lock = threading.Lock()


def register_sector_batch_planner(planner: Planner) -> None:
    """Offer ``planner(tfm, ivmode)`` to every later :func:`sector_batch_plan`."""
    with _lock:
        if planner not in _planners:
            _planners.append(planner)


def unregister_sector_batch_planner(planner: Planner) -> None:
    with _lock:
        if planner in _planners:
            _planners.remove(planner)


def sector_batch_plan(tfm: Any, ivmode: str) -> Optional[SectorBatchPlan]:
    """The batch plan for the keyed ``tfm`` and dm-crypt IV mode ``ivmode`` here and now, or None.

    None where simd_choice() is not SIMD or no registered planner knows the
    tfm's driver: the caller then makes one request per sector.
    """
    if simd_choice() != SIMD:
        return None
    if not _planners:
        crypto_request_module(SECTOR_BATCH_ALIAS)
    with _lock:
        planners = list(_planners)
    for planner in planners:
        plan = planner(tfm, ivmode)
        if plan is not None:
            return plan
    return None


def export_sectors(buf: Any, sector_size: int) -> Tuple[Any, int]:
    """``(uint8_t[] over buf, sector count)``: ``buf`` is exported first (from
    then on it cannot be resized), then its length read; EINVAL unless it is
    writable and whole sectors.  Keep the result while C uses the sectors."""
    try:
        view = _ffi.from_buffer("uint8_t[]", buf, require_writable=True)
    except (TypeError, BufferError):
        raise CryptoError(EINVAL, "the sectors buffer is read-only or not a buffer; "
                                  "pass a bytearray") from None
    n = len(view)
    if n % sector_size:
        raise CryptoError(EINVAL, f"buffer of {n} bytes is not whole {sector_size}-byte sectors")
    return view, n // sector_size


def export_source(buf: Any, length: int) -> Any:
    """``uint8_t[]`` over ``buf`` (read-only is fine), the source of an
    out-of-place transform; EINVAL unless it is ``length`` bytes."""
    try:
        view = _ffi.from_buffer("uint8_t[]", buf)
    except (TypeError, BufferError):
        raise CryptoError(EINVAL, "the source sectors are not a buffer") from None
    if len(view) != length:
        raise CryptoError(EINVAL, f"source of {len(view)} bytes for {length} bytes of sectors")
    return view
