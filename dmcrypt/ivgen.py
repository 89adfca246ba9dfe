"""IV conventions of the kernel's users of the crypto API.

Small helpers that build the IV (the Adiantum "tweak") that dm-crypt and
fscrypt pass to ``crypto_skcipher_encrypt`` for a given sector or data unit,
so that data written here can be read by the kernel and the other way round.

* dm-crypt (drivers/md/dm-crypt.c, Documentation/admin-guide/device-mapper/
  dm-crypt.rst) IV generators:

  - ``plain``: the sector number as a 32-bit little-endian integer (the high
    bits are dropped, so it wraps every 2 TiB of 512-byte sectors), the rest
    of the IV zero;
  - ``plain64``: the sector number as a 64-bit little-endian integer, the
    rest of the IV zero.  For Adiantum (ivsize 32) that is
    ``le64(sector) || 24 zero bytes``.
  - ``essiv`` (5.4+): the same bytes as ``plain64``; the encryption of the
    IV under the salt H(key) is done by the ``essiv`` template that
    dm-crypt allocates for it (``aes-cbc-essiv:sha256`` is
    ``essiv(cbc(aes),sha256)``; :mod:`crypto_api.dmcrypt.cipher_spec`).

  The sector number is the one dm-crypt computes: 512-byte units plus the
  table's ``iv_offset`` (or sector-size units with ``iv_large_sectors``);
  :func:`dm_crypt_iv_sector` does that arithmetic.

* fscrypt (fs/crypto/, Documentation/filesystems/fscrypt.rst) with the
  DIRECT_KEY policy flag (the recommended policy for Adiantum): the file's
  contents are encrypted directly with the master key and the IV carries the
  per-file nonce: ``le64(data-unit index) || 16-byte nonce || 8 zero bytes``
  (32 bytes).
"""

from __future__ import annotations

import struct

from crypto_api.errors import EINVAL, CryptoError

#: Adiantum's (and XChaCha's) IV size in bytes: dm-crypt and fscrypt fill all of it.
ADIANTUM_IV_SIZE = 32
FSCRYPT_FILE_NONCE_SIZE = 16
FSCRYPT_DIRECT_KEY_IV_SIZE = 32
SECTOR_SIZE = 512

_U32_MASK = 0xFFFFFFFF
_U64_MAX = (1 << 64) - 1


def _check_int(value, what: str, who: str, limit: int = _U64_MAX) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{who}: {what} must be an int, not {type(value).__name__}")
    if value < 0 or value > limit:
        raise CryptoError(EINVAL, f"{who}: {what} {value} outside 0..{limit}")
    return value


def _check_ivsize(ivsize, need: int, who: str) -> int:
    _check_int(ivsize, "ivsize", who, 4096)
    if ivsize < need:
        raise CryptoError(EINVAL, f"{who}: ivsize {ivsize} is too small, at least {need} bytes are needed")
    return ivsize


def plain_iv(sector: int, ivsize: int = ADIANTUM_IV_SIZE) -> bytes:
    """dm-crypt ``plain``: le32(sector mod 2^32), zero-padded to ``ivsize`` bytes.

    The sector is truncated to its low 32 bits, as dm-crypt does (``plain64``
    exists because this wraps).  ``sector`` must fit in 64 bits.
    """
    _check_int(sector, "sector", "plain")
    _check_ivsize(ivsize, 4, "plain")
    return struct.pack("<I", sector & _U32_MASK) + bytes(ivsize - 4)


def plain64_iv(sector: int, ivsize: int = ADIANTUM_IV_SIZE) -> bytes:
    """dm-crypt ``plain64``: le64(sector), zero-padded to ``ivsize`` bytes.

    For Adiantum (the default ``ivsize`` 32) this is le64(sector) || 24 zero bytes.
    """
    _check_int(sector, "sector", "plain64")
    _check_ivsize(ivsize, 8, "plain64")
    return struct.pack("<Q", sector) + bytes(ivsize - 8)


#: IV mode name -> (generator, the fewest IV bytes it needs).  ``essiv``
#: hands the essiv template the plain64 sector number (dm-crypt 5.4+).
DM_CRYPT_IV_MODES = {
    "plain": (plain_iv, 4),
    "plain64": (plain64_iv, 8),
    "essiv": (plain64_iv, 8),
}


def dm_crypt_iv_mode(mode: str):
    """``(generator, fewest IV bytes)`` of IV mode ``mode``; EINVAL if it is not supported."""
    entry = DM_CRYPT_IV_MODES.get(mode)
    if entry is None:
        raise CryptoError(EINVAL, f"dm-crypt: IV mode {mode!r} is not supported "
                                  f"(supported: {', '.join(DM_CRYPT_IV_MODES)})")
    return entry


def dm_crypt_iv(mode: str, sector: int, ivsize: int = ADIANTUM_IV_SIZE) -> bytes:
    """The IV of dm-crypt IV mode ``mode`` (``plain``, ``plain64`` or ``essiv``) for ``sector``."""
    return dm_crypt_iv_mode(mode)[0](sector, ivsize)


def dm_crypt_iv_packer(mode: str, ivsize: int = ADIANTUM_IV_SIZE):
    """A fast ``number -> IV`` function for IV mode ``mode``, for loops over many sectors.

    Gives the same bytes as :func:`dm_crypt_iv` without checking each call:
    the caller checks that its largest sector number is in 0..2^64-1 (e.g.
    with one :func:`dm_crypt_iv` call on it).
    """
    _check_ivsize(ivsize, dm_crypt_iv_mode(mode)[1], mode)
    if mode == "plain":
        pack32 = struct.Struct(f"<I{ivsize - 4}x").pack
        return lambda sector: pack32(sector & _U32_MASK)
    return struct.Struct(f"<Q{ivsize - 8}x").pack


def dm_crypt_iv_sector(index: int, sector_size: int = SECTOR_SIZE, iv_offset: int = 0,
                       iv_large_sectors: bool = False) -> int:
    """The sector number dm-crypt hands its IV generator for encryption unit ``index``.

    ``index`` counts ``sector_size``-byte units from the start of the device;
    ``iv_offset`` is the table's ``<iv_offset>``, in 512-byte units.  dm-crypt
    counts in 512-byte units: unit ``index`` starts at 512-byte sector
    ``index * (sector_size / 512)`` and its IV sector is that plus
    ``iv_offset``.  With ``iv_large_sectors`` the result is divided by
    ``sector_size / 512``, i.e. ``index + iv_offset / (sector_size / 512)``
    (for 4096-byte sectors, the second sector's plain64 IV is 8 without the
    flag and 1 with it).  ``iv_offset`` must be a multiple of
    ``sector_size / 512`` when ``iv_large_sectors`` is set.
    """
    who = "dm-crypt"
    _check_int(index, "sector index", who)
    _check_int(iv_offset, "iv_offset", who)
    if sector_size not in (512, 1024, 2048, 4096):
        raise CryptoError(EINVAL, f"{who}: sector size {sector_size!r} must be 512, 1024, 2048 or 4096")
    per = sector_size // SECTOR_SIZE
    if iv_large_sectors:
        if iv_offset % per:
            raise CryptoError(EINVAL, f"{who}: iv_offset {iv_offset} is not a multiple of the "
                                      f"sector size in 512-byte units ({per})")
        return index + iv_offset // per
    return index * per + iv_offset


def fscrypt_direct_key_iv(index: int, nonce) -> bytes:
    """fscrypt DIRECT_KEY IV: le64(data-unit index) || 16-byte file nonce || 8 zero bytes.

    ``index`` is the data unit's index in the file (the logical block number
    for v1/v2 policies whose data unit is the filesystem block); ``nonce``
    is the file's 16-byte nonce from its encryption context.
    """
    _check_int(index, "data unit index", "fscrypt")
    if isinstance(nonce, str):
        raise TypeError("fscrypt: nonce must be a bytes-like object, not str")
    try:
        nv = memoryview(nonce).cast("B")
    except TypeError:
        raise TypeError(f"fscrypt: nonce must be a bytes-like object, not {type(nonce).__name__}") from None
    if len(nv) != FSCRYPT_FILE_NONCE_SIZE:
        raise CryptoError(EINVAL, f"fscrypt: file nonce is {len(nv)} bytes, expected {FSCRYPT_FILE_NONCE_SIZE}")
    return struct.pack("<Q", index) + bytes(nv) + bytes(8)
