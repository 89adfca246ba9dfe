"""xctr-aes-neon: XCTR with table-lookup AES on plain NEON (arch/arm64/crypto/aes-glue.c
built as aes-neon-blk, the XCTR driver 6.0 added).

Module ``aes_neon_blk``, alias ``xctr(aes)``; the kernel's NEON build has
no CPU device table (plain module_init), so it is loaded on demand, by the
alias, not at boot.  Of the module's modes only ``xctr(aes)`` /
``xctr-aes-neon`` (priority 200) is modelled, with the descriptor and
request walk of the CE build (arch/arm64/xctr_glue.py).  The kernel
registers the NEON build's ecb/cbc/ctr/xts/xctr only in a kernel built
without the bit-sliced aes-neonbs driver (CONFIG_CRYPTO_AES_ARM64_BS):
this project's arm64 machine has no aes-neonbs, which is that
configuration.  setkey is the AES library's key expansion (the generic
one, outside any NEON section); the core ``aes_neon_xctr`` runs the blocks
(TBL-based AES, arch/arm64/aes_neon_xctr.c) and needs HWCAP asimd (ENODEV
without it; the kernel runs NEON code on every arm64 CPU it supports).
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.algs._aes_generic import ffi as gffi
from crypto_api.algs._aes_generic import lib as glib
from crypto_api.arch.arm64 import neon_glue, xctr_glue
from crypto_api.errors import EINVAL, CryptoError

MODULE_ARCH = "arm64"
MODULE_NAME = "aes_neon_blk"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("xctr(aes)")
PRIORITY = 200
ALGS = []


def _setkey(tfm, key) -> None:
    aes = xctr_glue.aes_ctx(tfm.ctx)
    if glib.aes_expandkey_generic(aes, gffi.from_buffer("uint8_t[]", key), len(key)):
        raise CryptoError(EINVAL, f"xctr-aes-neon: key is {len(key)} bytes, expected 16, 24 or 32")


def module_init() -> None:
    neon_glue.require_feature("asimd", MODULE_NAME, "Advanced SIMD (NEON)")
    core = neon_glue.load_core("aes_neon_xctr")
    ALGS[:] = [xctr_glue.make_xctr_alg("neon", PRIORITY, _setkey, core.aes_neon_xctr)]
    capi.crypto_register_skcipher(ALGS[0])


def module_exit() -> None:
    capi.crypto_unregister_skcipher(ALGS.pop())
