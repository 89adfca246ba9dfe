"""HKDF (RFC 5869) over an ``hmac(<hash>)`` shash: the role of crypto/hkdf.c
(6.14+; before it fs/crypto/hkdf.c did the same for fscrypt with
hmac(sha512)).

:func:`hkdf_extract` keys the HMAC transform with the salt and returns
PRK = HMAC(salt, IKM) (an empty salt is the RFC's string of zeros: HMAC
pads the key with zeros either way); :func:`hkdf_expand` takes a transform
keyed with the PRK and returns T(1) ‖ T(2) ‖ … cut to the length asked for,
T(i) = HMAC(PRK, T(i-1) ‖ info ‖ i); more than 255 hash lengths is EINVAL.
:func:`hkdf` allocates ``hmac(<hash>)`` and does both.
"""

from __future__ import annotations

from .errors import EINVAL, CryptoError
from .scatterlist import as_byte_view
from .shash import CryptoShash, crypto_alloc_shash


def hkdf_extract(hmac_tfm: CryptoShash, ikm, salt=b"") -> bytes:
    """PRK = HMAC(salt, IKM); leaves ``hmac_tfm`` keyed with the salt."""
    hmac_tfm.setkey(salt)
    return hmac_tfm.digest(ikm)


def hkdf_expand(hmac_tfm: CryptoShash, info, length: int) -> bytes:
    """``length`` bytes of output keying material from ``hmac_tfm`` (keyed with the PRK)."""
    name = hmac_tfm.alg.cra_driver_name
    ds = hmac_tfm.digestsize
    if not isinstance(length, int) or length < 0 or length > 255 * ds:
        raise CryptoError(EINVAL, f"hkdf: {name}: {length!r} bytes asked for; HKDF gives 0 to "
                                  f"{255 * ds} (255 digests)")
    info = bytes(as_byte_view(info, f"hkdf: {name}: info"))
    okm = bytearray()
    prev = b""
    desc = hmac_tfm.desc()
    try:
        for i in range(1, -(-length // ds) + 1):
            prev = desc.init().update(prev).update(info).finup(bytes([i]))
            okm += prev
        return bytes(okm[:length])
    finally:
        okm[:] = bytes(len(okm))


def hkdf(hash_name: str, ikm, salt=b"", info=b"", length: int = 0) -> bytes:
    """Extract then expand with ``hmac(<hash_name>)``, e.g. ``hkdf("sha512", ...)``."""
    with crypto_alloc_shash(f"hmac({hash_name})") as tfm:
        prk = bytearray(hkdf_extract(tfm, ikm, salt))
        try:
            tfm.setkey(prk)
        finally:
            prk[:] = bytes(len(prk))
        return hkdf_expand(tfm, info, length)
