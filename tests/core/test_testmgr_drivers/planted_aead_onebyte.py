"""Planted bug: rfc7539 whose encryption gets the last tag byte wrong.

Every encryption is wrong, so the first vector under the first default
configuration catches it.
"""

import crypto_api as capi
from aead_ref import rfc7539_driver

MODULE_NAME = "planted_aead_onebyte"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("rfc7539-planted-onebyte")


def flip_last_byte(tag):
    return tag[:-1] + bytes([tag[-1] ^ 1])      # THE BUG


ALG = rfc7539_driver("rfc7539-planted-onebyte", module=MODULE_NAME, tag_out=flip_last_byte)


def module_init():
    capi.crypto_register_aead(ALG)


def module_exit():
    capi.crypto_unregister_aead(ALG)
