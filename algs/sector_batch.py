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
from crypto_api.algs.simd_blocks import block_runner
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


def _sha256_blocks() -> Any:
    """The SIMD block function the registry's ``sha256`` runs: SHA-NI's where it
    is ``sha256-ni``, the SHA-256 library's code where it is ``sha256-lib`` and
    the machine has some (crypto_api.algs.sha_library); else None."""
    with capi.crypto_alloc_shash("sha256") as tfm:
        driver = tfm.driver_name
    if driver == "sha256-ni":
        from crypto_api.arch.x86._sha256_ni import ffi as nffi, lib as nlib
        return nffi.addressof(nlib, "sha256_blocks_ni")
    if driver == "sha256-lib":
        arch = sha_library.arch_library("sha256")
        return arch.blocks if arch is not None else None
    return None


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
    code = _sha256_blocks() if capi.simd_choice() != capi.GENERIC else None
    generic = ffi.addressof(lib, "sha256_blocks_generic")
    simd = generic if code is None else ffi.cast("void (*)(uint32_t *, const uint8_t *, size_t)", code)
    block_runner(code is not None, simd, generic)(
        lambda blocks: lib.sector_sha256_digests(blocks, out, digest_len, src, sector_size, count), len(src))
    return ffi.buffer(out, count * digest_len)[:]


def nhpoly1305_sector_digests(tfm: Any, data: Any, sector_size: int) -> Optional[bytes]:
    """The keyed ``nhpoly1305`` shash ``tfm``'s digest of each ``sector_size``-byte
    sector of ``data``, concatenated, in one C call on the C entries its driver
    offers (crypto_api.cinterface NHPOLY1305): its SIMD NH in one FPU section
    where SIMD is usable (simd_choice() is not GENERIC), else its generic
    code; None where the driver offers none (another keyed hash, a plug-in)."""
    generic = entries(tfm, Kind.NHPOLY1305, False)
    if generic is None:
        return None
    fast = entries(tfm, Kind.NHPOLY1305, True) if capi.simd_choice() != capi.GENERIC else None
    src, count = _sectors(data, sector_size, tfm.driver_name)
    out = ffi.new("uint8_t[]", count * NHPOLY1305_DIGEST or 1)
    block_runner(fast is not None, _nh_hash(fast or generic), _nh_hash(generic))(
        lambda nh: lib.sector_nhpoly1305_digests(nh, out, src, sector_size, count), len(src))
    return ffi.buffer(out, count * NHPOLY1305_DIGEST)[:]


def _nh_hash(h: Any) -> Any:
    """algs/sector_batch.h's ``struct sector_nh_hash`` of an NHPOLY1305 record."""
    nh = ffi.new("struct sector_nh_hash *")
    nh.key, nh.poly = ffi.cast("void *", h.key), ffi.cast("void *", h.poly)
    nh.nh_bulk, nh.nh_small = ffi.cast(_NH_FN, h.nh_bulk), ffi.cast(_NH_FN, h.nh_small)
    return nh


def module_init() -> None:
    register_sector_batch_planner(plan_sector_batch)
    register_sector_digests(sha256_sector_digests)
    register_sector_digests(nhpoly1305_sector_digests, KEYED)


def module_exit() -> None:
    unregister_sector_digests(nhpoly1305_sector_digests, KEYED)
    unregister_sector_digests(sha256_sector_digests)
    unregister_sector_batch_planner(plan_sector_batch)
