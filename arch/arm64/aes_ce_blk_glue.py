"""xctr-aes-ce: XCTR with the ARMv8 Crypto Extensions (arch/arm64/crypto/aes-glue.c
built as aes-ce-blk, the XCTR driver 6.0 added).

Module ``aes_ce_blk``, alias ``xctr(aes)``, loaded at boot through
module_cpu_feature_match(AES) (here ``MODULE_CPU_FEATURE``); ENODEV
(nothing registered) on a CPU without the AES feature.  Of the module's
modes only ``xctr(aes)`` / ``xctr-aes-ce`` (priority 300) is modelled, with
the descriptor and request walk the NEON build shares
(arch/arm64/xctr_glue.py).  setkey is aes-ce's exported key expansion (one
NEON section), so loading this module loads ``aes_ce_cipher``.  The core
``aes_ce_xctr`` runs the blocks.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.arch.arm64 import aes_ce_cipher_glue as aes_ce
from crypto_api.arch.arm64 import neon_glue, xctr_glue

MODULE_ARCH = "arm64"
MODULE_NAME = "aes_ce_blk"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("xctr(aes)")
MODULE_CPU_FEATURE = "aes"                # module_cpu_feature_match(AES, aes_init)
PRIORITY = 300
ALGS = []


def _setkey(tfm, key) -> None:
    aes_ce.ce_aes_expandkey(tfm.ctx, key, "xctr-aes-ce")


def module_init() -> None:
    neon_glue.require_feature("aes", MODULE_NAME, "the AES crypto extension")
    core = neon_glue.load_core("aes_ce_xctr")
    neon_glue.ensure_module(aes_ce.MODULE_NAME)
    ALGS[:] = [xctr_glue.make_xctr_alg("ce", PRIORITY, _setkey, core.aes_ce_xctr)]
    capi.crypto_register_skcipher(ALGS[0])


def module_exit() -> None:
    capi.crypto_unregister_skcipher(ALGS.pop())
