"""Poly1305 generic shash (crypto/poly1305_generic.c, v5.0 convention).

The v5.0 ``poly1305`` shash has no setkey: the first 32 bytes hashed are the
one-time key r ‖ s.  The descriptor logic is C (algs/poly1305_desc.c); the
Poly1305 core is chosen by an ops table, so the x86_64 driver reuses this
glue with its 64-bit-limb core.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.algs._poly1305 import ffi, lib
from crypto_api.errors import ENOKEY, CryptoError
from crypto_api.direct import digest_direct

MODULE_NAME = "poly1305_generic"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("poly1305", "poly1305-generic")

POLY1305_BLOCK_SIZE = 16
POLY1305_DIGEST_SIZE = 16
GENERIC_OPS = ffi.addressof(lib, "poly1305_generic_ops")
DIGEST_CALL = ffi.addressof(lib, "poly1305_digest_call")
DESCSIZE = ffi.sizeof("struct poly1305_desc")

_from_buffer = ffi.from_buffer


def poly1305_alg(driver: str, priority: int, ops, module: str = None) -> capi.ShashAlg:
    """A ``poly1305`` shash descriptor over the given core ops."""

    def no_key():
        return CryptoError(ENOKEY, f"{driver}: fewer than 32 bytes hashed, so the "
                                   "one-time key r||s is incomplete")

    def init(desc):
        lib.poly1305_desc_init(_from_buffer("struct poly1305_desc *", desc.state))

    def update(desc, data):
        buf = _from_buffer("uint8_t[]", data)
        lib.poly1305_desc_update(_from_buffer("struct poly1305_desc *", desc.state), buf, len(buf), ops)

    def final(desc):
        out = ffi.new("uint8_t[16]")
        if lib.poly1305_desc_final(_from_buffer("struct poly1305_desc *", desc.state), out, ops):
            raise no_key()
        return bytes(ffi.buffer(out))

    def digest(desc, data):
        out = ffi.new("uint8_t[16]")
        buf = _from_buffer("uint8_t[]", data)
        if lib.poly1305_desc_digest(buf, len(buf), out, ops):
            raise no_key()
        return bytes(ffi.buffer(out))

    def direct(tfm):
        """tfm.digest in one C call for any C-contiguous buffer (None: too
        short, so the full path raises ENOKEY).  The C entry point
        (crypto_api.direct.digest_direct); None where it is not built."""
        return digest_direct(DIGEST_CALL, ops, ops, POLY1305_DIGEST_SIZE, min_len=2 * POLY1305_BLOCK_SIZE)

    return capi.ShashAlg(
        cra_name="poly1305", cra_driver_name=driver, cra_priority=priority,
        cra_blocksize=POLY1305_BLOCK_SIZE, cra_module=module,
        digestsize=POLY1305_DIGEST_SIZE, descsize=DESCSIZE,
        init=init, update=update, final=final, digest=digest, direct=direct)


ALG = poly1305_alg("poly1305-generic", 100, GENERIC_OPS)


def module_init() -> None:
    capi.crypto_register_shash(ALG)


def module_exit() -> None:
    capi.crypto_unregister_shash(ALG)
