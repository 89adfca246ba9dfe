"""Field setters shared by the request types (include/crypto/skcipher.h, include/crypto/aead.h).

The kernel's ``skcipher_request_set_*`` and ``aead_request_set_*`` inline
helpers fill the same fields of their requests (the tfm, the completion and
the src/dst/cryptlen/iv data); here both frontends bind these functions
under their kernel names.  They only store: checks run when the request is
submitted.
"""

from __future__ import annotations

from typing import Any, List, Optional

from . import alg as A
from .scatterlist import Scatterlist


def request_set_tfm(req: Any, tfm: Any) -> None:
    """Point the request at ``tfm`` (a transform of the request's type)."""
    req.tfm = tfm


def request_set_callback(req: Any, flags: int, complete: A.Callback = None,
                         data: Any = None) -> None:
    """Request flags (MAY_SLEEP, MAY_BACKLOG) and the completion ``complete(req, err)``."""
    req.flags = flags
    req.complete = complete
    req.data = data


def request_set_crypt(req: Any, src: List[Scatterlist], dst: List[Scatterlist],
                      cryptlen: int, iv: Optional[A.WritableBuffer]) -> None:
    """The data: src/dst scatterlists, ``cryptlen`` and the IV buffer.

    For an AEAD, src/dst = assoc ‖ text (‖ tag) and ``cryptlen`` counts the
    text (and, decrypting, the tag); the AD length is set apart.
    """
    req.src = src
    req.dst = dst
    req.cryptlen = cryptlen
    req.iv = iv
