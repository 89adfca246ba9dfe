"""Planted bug: rfc7539 that pads an empty AD to a whole zero block when there is text.

RFC 8439 pads the AD to a multiple of 16 bytes, which for no AD is nothing.
This driver feeds 16 zero bytes instead when the AD is empty and the text is
not: no official vector has that shape, so only fuzzing against the generic
instance (level full) catches it.
"""

import crypto_api as capi
from aead_ref import mac_input, rfc7539_driver

MODULE_NAME = "planted_aead_noad"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("rfc7539-planted-noad")


def mac_with_a_pad_block_for_no_ad(ad, ct):
    if not ad and ct:
        return bytes(16) + mac_input(ad, ct)         # THE BUG
    return mac_input(ad, ct)


ALG = rfc7539_driver("rfc7539-planted-noad", module=MODULE_NAME, mac=mac_with_a_pad_block_for_no_ad)


def module_init():
    capi.crypto_register_aead(ALG)


def module_exit():
    capi.crypto_unregister_aead(ALG)
