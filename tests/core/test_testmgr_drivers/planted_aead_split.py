"""Planted bug: rfc7539 that authenticates only the AD in the first scatterlist entry.

It takes the associated data from ``req.src[0]`` instead of walking the
scatterlist, so it is right whenever the first entry holds the whole AD: a
contiguous buffer always does.  Only the split configurations, whose pieces
cut the AD ‖ text stream anywhere, catch it.
"""

import crypto_api as capi
from aead_ref import rfc7539_driver

MODULE_NAME = "planted_aead_split"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("rfc7539-planted-split")


def ad_from_first_entry(req, gathered):
    first = req.src[0].view() if req.src else b""
    return bytes(first[:req.assoclen])      # THE BUG: entry 0 may be shorter than the AD


ALG = rfc7539_driver("rfc7539-planted-split", module=MODULE_NAME, ad_of=ad_from_first_entry)


def module_init():
    capi.crypto_register_aead(ALG)


def module_exit():
    capi.crypto_unregister_aead(ALG)
