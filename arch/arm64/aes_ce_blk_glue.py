"""aes-ce-blk: the AES modes with the ARMv8 Crypto Extensions (arch/arm64/crypto/aes-glue.c
built with USE_V8_CRYPTO_EXTENSIONS).

Module ``aes_ce_blk``, loaded at boot through module_cpu_feature_match(AES)
(here ``MODULE_CPU_FEATURE``); ENODEV (nothing registered) on a CPU
without the AES feature.  Priority 300: ``ecb/cbc/ctr/xts-aes-ce``,
``cts-cbc-aes-ce``, 5.4+ ``essiv-cbc-aes-sha256-ce`` (301), SIMD-wrapped up
to 5.13 (arch/arm64/aes_blk_modes.py, core ``aes_ce_blk``), and 6.0+
``xctr-aes-ce`` (arch/arm64/xctr_glue.py, core ``aes_ce_xctr``).  setkey is
aes-ce's exported key expansion (one NEON section), so loading this module
loads ``aes_ce_cipher``.  The aliases are the 5.4+ kernel's (the v5.0
build declared none: it is found by its CPU feature alone, as here).
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.arch.arm64 import aes_blk_modes, neon_glue, xctr_glue
from crypto_api.arch.arm64 import aes_ce_cipher_glue as aes_ce

MODULE_ARCH = "arm64"
MODULE_NAME = "aes_ce_blk"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("ecb(aes)", "cbc(aes)", "ctr(aes)", "xts(aes)", "xctr(aes)",
                                          "cts(cbc(aes))", "essiv(cbc(aes),sha256)")
MODULE_CPU_FEATURE = "aes"                # module_cpu_feature_match(AES, aes_init)
PRIORITY = 300
MODES = aes_blk_modes.Registered()


def _setkey(tfm, key) -> None:
    aes_ce.ce_aes_expandkey(tfm.ctx, key, "xctr-aes-ce")


def module_init() -> None:
    neon_glue.require_feature("aes", MODULE_NAME, "the AES crypto extension")
    xctr = neon_glue.load_core("aes_ce_xctr")
    modes = neon_glue.load_core("aes_ce_blk")
    neon_glue.ensure_module(aes_ce.MODULE_NAME)
    MODES.register("ce", PRIORITY, aes_ce.ce_aes_expandkey, modes,
                   [xctr_glue.make_xctr_alg("ce", PRIORITY, _setkey, xctr.aes_ce_xctr)])


def module_exit() -> None:
    MODES.unregister()
