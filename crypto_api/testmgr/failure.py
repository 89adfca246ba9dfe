"""How a failed self-test is reported: a CryptoError with the kernel's words."""

from __future__ import annotations

import logging

from ..errors import EINVAL, CryptoError

log = logging.getLogger("crypto_api")


def fail(msg: str, err: int = EINVAL) -> None:
    """Log ``msg`` (e.g. "alg: skcipher: X encryption test failed ...") and raise."""
    log.error("%s", msg)
    raise CryptoError(err, msg)
