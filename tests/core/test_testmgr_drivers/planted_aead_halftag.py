"""Planted bug: rfc7539 whose decryption compares only the last 8 bytes of the tag.

Every authentic message opens, and the official inauthentic vector (its last
tag bit flipped) is refused, so the fast self-tests pass; a message whose
change lies only in the first half of the tag is accepted.  Only inauthentic
inputs (level full) catch it.
"""

import hmac

import crypto_api as capi
from aead_ref import rfc7539_driver

MODULE_NAME = "planted_aead_halftag"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("rfc7539-planted-halftag")


def last_half_equal(given, expected):
    return hmac.compare_digest(given[8:], expected[8:])      # THE BUG


ALG = rfc7539_driver("rfc7539-planted-halftag", module=MODULE_NAME, tags_equal=last_half_equal)


def module_init():
    capi.crypto_register_aead(ALG)


def module_exit():
    capi.crypto_unregister_aead(ALG)
