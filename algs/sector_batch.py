"""Module ``sector_batch``: the batch planners of crypto_api.dmcrypt.sector_batch.

Fills algs/sector_batch.c's description for the drivers whose per-request C
entry point it knows, so that a run of sectors goes through that very entry
point in one C call (the role dm-crypt's ``crypt_convert`` loop plays over
one request per sector, drivers/md/dm-crypt.c):

* an ``adiantum(...)`` instance with its one-call path (algs/adiantum.py's
  SIMD ``struct adiantum_fast`` over the spawned inner drivers,
  algs/adiantum_core.c ``adiantum_crypt_many``: eight sectors at a time,
  their HChaCha and streams made together where the stream cipher has lanes
  code);
* the x86 AES-NI XTS drivers ``xts-aes-aesni``, ``xts-aes-vaes-avx2`` and ``-avx10_256/512``
  (the SIMD wrappers or their internal ``__`` algorithms): the C XTS loop
  each one runs (arch/x86/aesni_modes.c, aesni_vaes.c);
* ``essiv(<cbc>,<hash>)`` over the AES-NI CBC driver, the ESSIV cipher's C
  block function (crypto_api.cinterface ``c_block``) encrypting each IV.

A tfm of any other driver gets no plan (one request per sector instead).
crypto_api.dmcrypt requests this module by the alias ``crypto-sector-batch``;
it registers no algorithm.

:func:`sha256_sector_digests` gives the disk journal's per-sector digests
(resilience ``checksum``) in one C call, on the registry's ``sha256`` block
function where it is the SHA-NI one and SIMD is usable; module_init registers
it with crypto_api.dmcrypt.sector_digests.
"""

from __future__ import annotations

from typing import Any, Optional, Tuple

import crypto_api as capi
from crypto_api.algs._sector_batch import ffi, lib
from crypto_api.errors import EINVAL, CryptoError
from crypto_api.dmcrypt.sector_batch import (SECTOR_BATCH_ALIAS, SectorBatchPlan, register_sector_batch_planner,
                                             simd_internal_tfm, unregister_sector_batch_planner)
from crypto_api.dmcrypt.sector_digests import register_sector_digests, unregister_sector_digests

MODULE_NAME = "sector_batch"
MODULE_ALIASES = (SECTOR_BATCH_ALIAS,)

#: dm-crypt IV mode -> the C IV layout (essiv hands its template the plain64 bytes).
_IV_LAYOUT = {"plain": lib.SECTOR_IV_PLAIN, "plain64": lib.SECTOR_IV_PLAIN64,
              "essiv": lib.SECTOR_IV_PLAIN64}

#: AES-NI internal driver -> its C entry point(s) in crypto_api.arch.x86._aesni.
AESNI_XTS = {"__xts-aes-aesni": "aesni_xts_crypt", "__xts-aes-vaes-avx2": "aes_vaes_avx2_xts_crypt",
             "__xts-aes-vaes-avx10_256": "aes_vaes_avx10_256_xts_crypt",
             "__xts-aes-vaes-avx10_512": "aes_vaes_avx10_512_xts_crypt"}
AESNI_CBC = {"__cbc-aes-aesni": ("aesni_cbc_encrypt", "aesni_cbc_decrypt")}

Found = Optional[Tuple[str, Tuple[Any, ...]]]


def _aesni():
    try:
        from crypto_api.arch.x86._aesni import ffi as affi, lib as alib
    except ImportError:                 # not built here
        return None
    return affi, alib


def _aesni_keys(inner: Any, table: dict):
    """``(aesni ffi, lib, struct aesni_ctx[])`` of an AES-NI internal tfm named in ``table``."""
    if inner is None or inner.alg.cra_driver_name not in table:
        return None
    aes = _aesni()
    k = getattr(inner.ctx, "k", None)
    if aes is None or k is None:
        return None
    return aes[0], aes[1], k


def _adiantum(tfm: Any, desc: Any) -> Found:
    from crypto_api.algs import adiantum
    if tfm.alg.encrypt is not adiantum.adiantum_encrypt_req:
        return None
    fast = getattr(tfm.ctx, "fast", None)
    if not isinstance(fast, dict) or True not in fast:
        return None                     # an inner driver publishes no C entry point
    from crypto_api.algs._adiantum import ffi as affi, lib as alib
    desc.kind = lib.SECTOR_WIDE
    desc.wide = ffi.cast("sector_wide_fn", affi.addressof(alib, "adiantum_crypt"))
    desc.wide_many = ffi.cast("sector_wide_many_fn", affi.addressof(alib, "adiantum_crypt_many"))
    desc.ctx = ffi.cast("void *", fast[True])
    return tfm.alg.cra_driver_name, (fast,)


def _xts(tfm: Any, desc: Any) -> Found:
    inner = simd_internal_tfm(tfm)
    found = _aesni_keys(inner, AESNI_XTS)
    if found is None:
        return None
    affi, alib, k = found
    desc.kind = lib.SECTOR_XTS
    desc.xts = ffi.cast("sector_xts_fn", affi.addressof(alib, AESNI_XTS[inner.alg.cra_driver_name]))
    desc.ctx = ffi.cast("void *", k)
    desc.ctx2 = ffi.cast("void *", k + 1)
    return inner.alg.cra_driver_name, (k,)


def _essiv(tfm: Any, desc: Any) -> Found:
    from crypto_api.algs import essiv
    if tfm.alg.encrypt is not essiv.essiv_encrypt:
        return None
    ctx = tfm.ctx
    inner = simd_internal_tfm(ctx.child)
    found = _aesni_keys(inner, AESNI_CBC)
    cipher = ctx.essiv_cipher
    c_block = getattr(cipher.ctx, "c_block", None)
    if found is None or c_block is None or cipher.alg.cra_blocksize != 16:
        return None
    affi, alib, k = found
    enc_name, dec_name = AESNI_CBC[inner.alg.cra_driver_name]
    iv_enc, _, iv_ctx = c_block(True)
    desc.kind = lib.SECTOR_CBC
    desc.cbc_encrypt = ffi.cast("sector_cbc_fn", affi.addressof(alib, enc_name))
    desc.cbc_decrypt = ffi.cast("sector_cbc_fn", affi.addressof(alib, dec_name))
    desc.ctx = ffi.cast("void *", k)
    desc.iv_encrypt = ffi.cast("sector_block_fn", iv_enc)
    desc.iv_ctx = ffi.cast("void *", iv_ctx)
    return f"{tfm.alg.cra_driver_name} over {inner.alg.cra_driver_name}", (k, iv_ctx)


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
    ``sha256-ni`` and simd_choice() says SIMD, else the generic C one."""
    if capi.simd_choice() == capi.SIMD:
        with capi.crypto_alloc_shash("sha256") as tfm:
            driver = tfm.driver_name
        if driver == "sha256-ni":
            from crypto_api.arch.x86._sha256_ni import ffi as nffi, lib as nlib
            return ffi.cast("void (*)(uint32_t *, const uint8_t *, size_t)",
                            nffi.addressof(nlib, "sha256_blocks_ni")), True
    return ffi.addressof(lib, "sha256_blocks_generic"), False


def sha256_sector_digests(data: Any, sector_size: int, digest_len: int) -> bytes:
    """The first ``digest_len`` bytes of SHA-256 of each ``sector_size``-byte
    sector of ``data``, concatenated (equal to hashlib's, sector by sector)."""
    src = ffi.from_buffer("uint8_t[]", data)
    n = len(src)
    if sector_size <= 0 or n % sector_size or not 0 < digest_len <= 32:
        raise CryptoError(EINVAL, f"sector digests: {n} bytes in {sector_size}-byte sectors, "
                                  f"{digest_len}-byte digests")
    count = n // sector_size
    out = ffi.new("uint8_t[]", count * digest_len or 1)
    blocks, simd = _sha256_blocks()
    if simd:
        capi.kernel_fpu_begin()
    try:
        lib.sector_sha256_digests(blocks, out, digest_len, src, sector_size, count)
        if simd:
            capi.fpu_account(n)
    finally:
        if simd:
            capi.kernel_fpu_end()
    return ffi.buffer(out, count * digest_len)[:]


def module_init() -> None:
    register_sector_batch_planner(plan_sector_batch)
    register_sector_digests(sha256_sector_digests)


def module_exit() -> None:
    unregister_sector_digests(sha256_sector_digests)
    unregister_sector_batch_planner(plan_sector_batch)
