"""Module ``sector_batch``: the batch planners of crypto_api.dmcrypt.sector_batch.

Fills algs/sector_batch.c's description from the C entries the tfm's
driver offers (crypto_api.cinterface), so that a run of sectors goes
through that very code in one C call (the role dm-crypt's ``crypt_convert``
loop plays over one request per sector, drivers/md/dm-crypt.c):

* WIDE (an ``adiantum(...)`` instance whose inner drivers all offer theirs:
  algs/adiantum_core.c ``adiantum_crypt_many``, eight sectors at a time,
  their HChaCha and streams made together where the stream cipher has lanes
  code);
* XTS (the x86 AES-NI XTS drivers ``xts-aes-aesni``, ``xts-aes-vaes-avx2``
  and ``-avx10_256/512``, through the SIMD wrapper's Delegate while it would
  call its internal ``__`` algorithm directly: arch/x86/aesni_modes.c,
  aesni_vaes.c);
* ESSIV_CBC (``essiv(<cbc>,<hash>)`` whose CBC child offers CBC entries,
  the ESSIV cipher's block entries encrypting each IV).

A tfm whose driver offers none of these gets no plan (one request per
sector instead).
crypto_api.dmcrypt requests this module by the alias ``crypto-sector-batch``;
it registers no algorithm.

:func:`sha256_sector_digests` gives the disk journal's per-sector digests
(resilience ``checksum``, journal format 1) in one C call, on the registry's
``sha256`` block function where it is SHA-NI's or the SHA-256 library's and
SIMD is usable; :func:`nhpoly1305_sector_digests` those of format 2 (a keyed
``nhpoly1305`` tfm's, on the C entries its driver offers); module_init
registers both with crypto_api.dmcrypt.sector_digests.
"""

from __future__ import annotations

from typing import Any, Optional, Tuple

import crypto_api as capi
from crypto_api.algs import sha_library
from crypto_api.algs._sector_batch import ffi, lib
from crypto_api.cinterface import Kind, entries, offering_tfm
from crypto_api.errors import EINVAL, CryptoError
from crypto_api.dmcrypt.sector_batch import (SECTOR_BATCH_ALIAS, SectorBatchPlan, register_sector_batch_planner,
                                             unregister_sector_batch_planner)
from crypto_api.dmcrypt.sector_digests import KEYED, register_sector_digests, unregister_sector_digests

MODULE_NAME = "sector_batch"
NHPOLY1305_DIGEST = 16
_NH_FN = "void (*)(const uint32_t *, const uint8_t *, size_t, uint8_t *)"
MODULE_ALIASES = (SECTOR_BATCH_ALIAS,)

#: dm-crypt IV mode -> the C IV layout (essiv hands its template the plain64 bytes).
_IV_LAYOUT = {"plain": lib.SECTOR_IV_PLAIN, "plain64": lib.SECTOR_IV_PLAIN64,
              "essiv": lib.SECTOR_IV_PLAIN64}

Found = Optional[Tuple[str, Tuple[Any, ...]]]


def _adiantum(tfm: Any, desc: Any) -> Found:
    e = entries(tfm, Kind.WIDE, True)
    if e is None:
        return None                     # not a wide-block driver, or an inner one offers no C entries
    desc.kind = lib.SECTOR_WIDE
    desc.wide = ffi.cast("sector_wide_fn", e.crypt)
    desc.wide_many = ffi.cast("sector_wide_many_fn", e.crypt_many)
    desc.ctx = ffi.cast("void *", e.handle)
    return offering_tfm(tfm, Kind.WIDE).alg.cra_driver_name, (e,)


def _xts(tfm: Any, desc: Any) -> Found:
    e = entries(tfm, Kind.XTS, True)
    if e is None:
        return None
    desc.kind = lib.SECTOR_XTS
    desc.xts = ffi.cast("sector_xts_fn", e.crypt)
    desc.ctx = ffi.cast("void *", e.key)
    desc.ctx2 = ffi.cast("void *", e.tweak_key)
    return offering_tfm(tfm, Kind.XTS).alg.cra_driver_name, (e,)


def _essiv(tfm: Any, desc: Any) -> Found:
    e = entries(tfm, Kind.ESSIV_CBC, True)
    if e is None or tfm.ivsize != 16:
        return None
    desc.kind = lib.SECTOR_CBC
    desc.cbc_encrypt = ffi.cast("sector_cbc_fn", e.cbc.encrypt)
    desc.cbc_decrypt = ffi.cast("sector_cbc_fn", e.cbc.decrypt)
    desc.ctx = ffi.cast("void *", e.cbc.key)
    desc.iv_encrypt = ffi.cast("sector_block_fn", e.iv.encrypt)
    desc.iv_ctx = ffi.cast("void *", e.iv.key)
    return f"{tfm.alg.cra_driver_name} over {e.cbc_driver}", (e,)


def plan_sector_batch(tfm: Any, ivmode: str) -> Optional[SectorBatchPlan]:
    """The plan for a keyed ``tfm`` of a driver named above, or None."""
    layout = _IV_LAYOUT.get(ivmode)
    if layout is None or not 0 < tfm.ivsize <= lib.SECTOR_MAX_IV:
        return None
    desc = ffi.new("struct sector_batch *")
    desc.ivmode = layout
    desc.ivsize = tfm.ivsize
    for plan in (_adiantum, _xts, _essiv):
        found = plan(tfm, desc)
        if found is not None:
            return SectorBatchPlan(lib.sector_batch_crypt, desc, found[0], found[1])
    return None


def _sha256_blocks():
    """``(block function, simd)``: SHA-NI's where the registry's sha256 is
    ``sha256-ni``, the library's code where it is ``sha256-lib`` over the
    machine's SHA-256 library (crypto_api.algs.sha_library), and
    SIMD is usable (simd_choice() is not GENERIC); else the generic C one."""
    if capi.simd_choice() != capi.GENERIC:
        with capi.crypto_alloc_shash("sha256") as tfm:
            driver = tfm.driver_name
        code = None
        if driver == "sha256-ni":
            from crypto_api.arch.x86._sha256_ni import ffi as nffi, lib as nlib
            code = nffi.addressof(nlib, "sha256_blocks_ni")
        elif driver == "sha256-lib" and sha_library.followed():
            arch = sha_library.arch_library("sha256")
            code = arch.blocks if arch is not None else None
        if code is not None:
            return ffi.cast("void (*)(uint32_t *, const uint8_t *, size_t)", code), True
    return ffi.addressof(lib, "sha256_blocks_generic"), False


def _in_section(simd: bool, nbytes: int, work) -> None:
    """``work()`` inside one FPU section of ``nbytes`` where ``simd``, else as it is."""
    if not simd:
        work()
        return
    capi.kernel_fpu_begin()
    try:
        work()
        capi.fpu_account(nbytes)
    finally:
        capi.kernel_fpu_end()


def _sectors(data: Any, sector_size: int, what: str):
    """(``data`` as a cffi buffer, its sector count); EINVAL unless whole sectors."""
    src = ffi.from_buffer("uint8_t[]", data)
    n = len(src)
    if sector_size <= 0 or n % sector_size:
        raise CryptoError(EINVAL, f"sector digests: {n} bytes are not whole {sector_size}-byte sectors "
                                  f"({what})")
    return src, n // sector_size


def sha256_sector_digests(data: Any, sector_size: int, digest_len: int) -> bytes:
    """The first ``digest_len`` bytes of SHA-256 of each ``sector_size``-byte
    sector of ``data``, concatenated (equal to hashlib's, sector by sector)."""
    if not 0 < digest_len <= 32:
        raise CryptoError(EINVAL, f"sector digests: {digest_len}-byte SHA-256 digests (1 to 32)")
    src, count = _sectors(data, sector_size, "sha256")
    out = ffi.new("uint8_t[]", count * digest_len or 1)
    blocks, simd = _sha256_blocks()
    _in_section(simd, len(src), lambda: lib.sector_sha256_digests(blocks, out, digest_len, src, sector_size,
                                                                  count))
    return ffi.buffer(out, count * digest_len)[:]


def nhpoly1305_sector_digests(tfm: Any, data: Any, sector_size: int) -> Optional[bytes]:
    """The keyed ``nhpoly1305`` shash ``tfm``'s digest of each ``sector_size``-byte
    sector of ``data``, concatenated, in one C call on the C entries its driver
    offers (crypto_api.cinterface NHPOLY1305): its SIMD NH in one FPU section
    where SIMD is usable (simd_choice() is not GENERIC), else its generic
    code; None where the driver offers none (another keyed hash, a plug-in)."""
    simd = capi.simd_choice() != capi.GENERIC
    h = entries(tfm, Kind.NHPOLY1305, simd) if simd else None
    if h is None:
        simd = False
        h = entries(tfm, Kind.NHPOLY1305, False)
    if h is None:
        return None
    src, count = _sectors(data, sector_size, tfm.driver_name)
    out = ffi.new("uint8_t[]", count * NHPOLY1305_DIGEST or 1)
    nh = ffi.new("struct sector_nh_hash *")
    nh.key, nh.poly = ffi.cast("void *", h.key), ffi.cast("void *", h.poly)
    nh.nh_bulk, nh.nh_small = ffi.cast(_NH_FN, h.nh_bulk), ffi.cast(_NH_FN, h.nh_small)
    _in_section(simd, len(src), lambda: lib.sector_nhpoly1305_digests(nh, out, src, sector_size, count))
    return ffi.buffer(out, count * NHPOLY1305_DIGEST)[:]


def module_init() -> None:
    register_sector_batch_planner(plan_sector_batch)
    register_sector_digests(sha256_sector_digests)
    register_sector_digests(nhpoly1305_sector_digests, KEYED)


def module_exit() -> None:
    unregister_sector_digests(nhpoly1305_sector_digests, KEYED)
    unregister_sector_digests(sha256_sector_digests)
    unregister_sector_batch_planner(plan_sector_batch)
