"""Which kernel version the /proc/crypto records follow where versions differ.

The drivers register the types of the kernels after v5.0 (the mode templates
``ecb`` and ``ctr`` are skciphers, as from 5.1/5.2 on), and that is what
/proc/crypto shows by default ("5.2").  With the emulated version set to
"5.0" (``CRYPTO_API_KERNEL_VERSION=5.0`` in the environment, or
:func:`set_kernel_version` / :func:`emulated_kernel`), the instances of the
templates that v5.0 built as legacy blkciphers (crypto/ecb.c and
crypto/ctr.c of 5.0: ``crypto_blkcipher_type``) show v5.0's blkcipher record
(crypto/blkcipher.c ``crypto_blkcipher_show``): ``type : blkcipher`` and a
``geniv`` line in place of the skcipher lines.  Nothing else changes with it.

This is the older, narrower switch, kept as it was: the kernel version the
whole registry follows (drivers, names, priorities) is crypto_api.kernels'
(``CRYPTO_API_KERNEL``, ``--kernel``, ``crypto_api.boot``), and choosing
"5.0" there sets this one to "5.0" too (any other version, to "5.2"), unless
the user set this one (in the environment or by :func:`set_kernel_version`):
then it stays as set.
"""

from __future__ import annotations

import contextlib
import os
from typing import Any, Iterator

from .errors import EINVAL, CryptoError

KERNEL_VERSIONS = ("5.0", "5.2")
DEFAULT_KERNEL_VERSION = "5.2"
#: Templates whose v5.0 instances were blkciphers (aead-modes reference §4).
V50_BLKCIPHER_TEMPLATES = frozenset({"ecb", "ctr"})


def _checked(version: str) -> str:
    if version not in KERNEL_VERSIONS:
        raise CryptoError(EINVAL, f"kernel version {version!r}: not one of {', '.join(KERNEL_VERSIONS)}")
    return version


ENV = "CRYPTO_API_KERNEL_VERSION"
_version = _checked(os.environ.get(ENV, "") or DEFAULT_KERNEL_VERSION)
#: True once the user chose the version (the environment, set_kernel_version)
_chosen = bool(os.environ.get(ENV, ""))


def kernel_version() -> str:
    """The emulated kernel version for /proc/crypto ("5.0" or "5.2")."""
    return _version


def set_kernel_version(version: str) -> str:
    """Set the emulated version (EINVAL for an unknown one); returns the old one."""
    global _version, _chosen
    old, _version, _chosen = _version, _checked(version), True
    return old


def follow(version: str) -> str:
    """The version crypto_api.kernels' choice implies: set it unless the user
    chose one; returns the version in effect."""
    global _version
    if not _chosen:
        _version = _checked(version)
    return _version


@contextlib.contextmanager
def emulated_kernel(version: str) -> Iterator[None]:
    """Show /proc/crypto as ``version`` inside the block."""
    global _version, _chosen
    saved = (_version, _chosen)
    set_kernel_version(version)
    try:
        yield
    finally:
        _version, _chosen = saved


def shows_as_blkcipher(alg: Any) -> bool:
    """True if ``alg`` (a registered skcipher) is an instance that the emulated
    kernel registered as a blkcipher."""
    inst = getattr(alg, "instance", None)
    return (_version == "5.0" and inst is not None
            and inst.record.tmpl.name in V50_BLKCIPHER_TEMPLATES)
