"""aes-neon-blk: the AES modes with table-lookup AES on plain NEON
(arch/arm64/crypto/aes-glue.c built without USE_V8_CRYPTO_EXTENSIONS).

Module ``aes_neon_blk``; the kernel's NEON build has no CPU device table
(plain module_init), so it is loaded on demand, by an alias, not at boot.
Priority 200: ``ecb/cbc/ctr/xts-aes-neon``, ``cts-cbc-aes-neon``, 5.4+
``essiv-cbc-aes-sha256-neon`` (201), SIMD-wrapped up to 5.13
(arch/arm64/aes_blk_modes.py, core ``aes_neon_blk``), and 6.0+
``xctr-aes-neon`` (arch/arm64/xctr_glue.py, core ``aes_neon_xctr``).  The
kernel registers the NEON build's ecb/cbc/ctr/xts/xctr (and their aliases)
only in a kernel built without the bit-sliced aes-neonbs driver
(CONFIG_CRYPTO_AES_ARM64_BS): this project's arm64 machine has no
aes-neonbs, which is that configuration.  setkey is the AES library's key
expansion (the generic one, outside any NEON section).  The cores need
HWCAP asimd (ENODEV without it; the kernel runs NEON code on every arm64
CPU it supports).  The aliases are the 5.4+ kernel's (v5.0's lacked
cts(cbc(aes)), which had no essiv).
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.algs._aes_generic import ffi as gffi
from crypto_api.algs._aes_generic import lib as glib
from crypto_api.arch.arm64 import aes_blk_modes, neon_glue, xctr_glue
from crypto_api.errors import EINVAL, CryptoError

MODULE_ARCH = "arm64"
MODULE_NAME = "aes_neon_blk"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("ecb(aes)", "cbc(aes)", "ctr(aes)", "xts(aes)", "xctr(aes)",
                                          "cts(cbc(aes))", "essiv(cbc(aes),sha256)")
PRIORITY = 200
MODES = aes_blk_modes.Registered()


def expandkey(holder, key, driver: str) -> None:
    """The AES library's key expansion into ``holder.aes``: EINVAL naming
    ``driver`` unless the key is 16, 24 or 32 bytes."""
    aes = xctr_glue.aes_ctx(holder)
    if glib.aes_expandkey_generic(aes, gffi.from_buffer("uint8_t[]", key), len(key)):
        raise CryptoError(EINVAL, f"{driver}: key is {len(key)} bytes, expected 16, 24 or 32")


def _setkey(tfm, key) -> None:
    expandkey(tfm.ctx, key, "xctr-aes-neon")


def module_init() -> None:
    neon_glue.require_feature("asimd", MODULE_NAME, "Advanced SIMD (NEON)")
    xctr = neon_glue.load_core("aes_neon_xctr")
    modes = neon_glue.load_core("aes_neon_blk")
    MODES.register("neon", PRIORITY, expandkey, modes,
                   [xctr_glue.make_xctr_alg("neon", PRIORITY, _setkey, xctr.aes_neon_xctr)])


def module_exit() -> None:
    MODES.unregister()
