"""cryptsetup / dm-crypt cipher specifications (``--cipher`` strings).

Used by :class:`crypto_api.dmcrypt.sector.VolumeCipher` and the ``disk`` command.
Parses the two forms the dm-crypt target accepts (drivers/md/dm-crypt.c,
Documentation/admin-guide/device-mapper/dm-crypt.rst) into a crypto API
algorithm name and a dm-crypt IV mode:

* the cryptsetup form ``cipher-chainmode-ivmode``, where ``cipher`` may be a
  comma-separated list: ``xchacha12,aes-adiantum-plain64`` is the algorithm
  ``adiantum(xchacha12,aes)`` with the ``plain64`` IV;
* the kernel crypto API form ``capi:<algorithm>-ivmode``:
  ``capi:adiantum(xchacha12,aes)-plain64`` (the IV mode follows the last
  ``-``, so driver names such as ``xchacha12-generic`` may appear inside).

* ``essiv:<hash>`` as dm-crypt 5.4+ takes it: ``aes-cbc-essiv:sha256`` is
  the algorithm ``essiv(cbc(aes),sha256)`` (the ``essiv`` template encrypts
  the IV) with the IV mode ``essiv``, which hands it the plain64 sector
  number; in the ``capi:`` form the algorithm must be an ``essiv(...)``
  instance (``capi:essiv(cbc(aes),sha256)-essiv``).

Only the IV modes this project implements (:mod:`crypto_api.dmcrypt.ivgen`:
``plain``, ``plain64`` and ``essiv``) are accepted; everything else
(``benbi``, ``lmk``, key counts, other IV options, AEAD ``authenc`` specs)
is refused with EINVAL naming the unsupported part.
"""

from __future__ import annotations

import attrs

from crypto_api.errors import EINVAL, CryptoError
from crypto_api.registry import check_name

from .ivgen import DM_CRYPT_IV_MODES

MAX_SPEC_LENGTH = 256


@attrs.frozen
class CipherSpec:
    """A parsed ``--cipher``: the algorithm to allocate and the IV mode."""

    spec: str
    algorithm: str
    ivmode: str

    @property
    def capi(self) -> str:
        """The same specification in dm-crypt's ``capi:`` form."""
        return f"capi:{self.algorithm}-{self.ivmode}"


def _bad(spec: str, why: str) -> CryptoError:
    return CryptoError(EINVAL, f"cipher specification {spec!r}: {why}")


def _ivmode(spec: str, text: str, options_for: tuple = ()) -> tuple:
    """(mode, options): options only for the modes in ``options_for``."""
    mode, sep, opts = text.partition(":")
    if mode not in DM_CRYPT_IV_MODES:
        raise _bad(spec, f"IV mode {mode!r} is not supported (supported: {', '.join(DM_CRYPT_IV_MODES)})")
    if mode in options_for:
        if not opts:
            raise _bad(spec, f"IV mode {mode!r} needs a hash, e.g. {mode}:sha256")
    elif sep:
        raise _bad(spec, f"IV mode {mode!r} takes no options, got {opts!r}")
    return mode, opts


def parse_cipher_spec(spec) -> CipherSpec:
    """Parse a cryptsetup/dm-crypt cipher specification; CryptoError(EINVAL) if unusable."""
    if not isinstance(spec, str):
        raise TypeError(f"cipher specification must be str, not {type(spec).__name__}")
    if not spec:
        raise _bad(spec, "empty")
    if len(spec) > MAX_SPEC_LENGTH:
        raise _bad(spec[:40] + "...", f"{len(spec)} characters, at most {MAX_SPEC_LENGTH}")
    if not spec.isprintable() or any(c.isspace() for c in spec):
        raise _bad(spec, "contains spaces or control characters")
    if spec.startswith("capi:"):
        body = spec[5:]
        algorithm, sep, iv = body.rpartition("-")
        if not sep or not algorithm:
            raise _bad(spec, "expected capi:<algorithm>-<ivmode>, e.g. capi:adiantum(xchacha12,aes)-plain64")
        ivmode, _ = _ivmode(spec, iv)
        if ivmode == "essiv" and not algorithm.startswith("essiv("):
            raise _bad(spec, "IV mode 'essiv' needs an essiv(...) algorithm, e.g. "
                             "capi:essiv(cbc(aes),sha256)-essiv")
    else:
        parts = spec.split("-")
        if len(parts) < 3:
            raise _bad(spec, "expected <cipher>-<chainmode>-<ivmode>, e.g. xchacha12,aes-adiantum-plain64 "
                             "(dm-crypt's defaults for a missing chain mode or IV mode are not applied)")
        if len(parts) > 3:
            raise _bad(spec, "too many '-' separated fields; use the capi: form for driver names")
        cipher, chainmode, iv = parts
        cipher, sep, keycount = cipher.partition(":")
        if sep and keycount != "1":
            raise _bad(spec, f"key count {keycount!r} is not supported (only one key)")
        if not cipher or not chainmode:
            raise _bad(spec, "empty cipher or chain mode")
        ivmode, hash_name = _ivmode(spec, iv, options_for=("essiv",))
        algorithm = f"{chainmode}({cipher})"
        if ivmode == "essiv":                 # dm-crypt 5.4+: the essiv template
            algorithm = f"essiv({algorithm},{hash_name})"
    try:
        check_name(algorithm, "algorithm")
    except CryptoError as e:
        # a specification that names no usable algorithm is an invalid one, whatever
        # the name's fault (too long: ENAMETOOLONG from the registry's check)
        raise _bad(spec, e.message) from None
    return CipherSpec(spec=spec, algorithm=algorithm, ivmode=ivmode)
