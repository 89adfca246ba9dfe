"""ARIA, 16 blocks per call with AVX (arch/x86/crypto/aria_aesni_avx_glue.c).

Module ``aria_aesni_avx_x86_64``: needs AVX, AES-NI, OSXSAVE and the OS
saving SSE and YMM state, else ENODEV and nothing is registered.  With GFNI
the GFNI S-box code runs, else the AES-NI one.  Registers ``__ecb-aria-avx``
and ``__ctr-aria-avx`` (internal, priority 400; the CTR walksize is 256, 16
blocks) and their SIMD wrappers ``ecb-aria-avx`` / ``ctr-aria-avx``; 6.16+
the public drivers directly (aria_glue.AriaModule).
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.arch.x86.aria_glue import AriaImpl, AriaModule, ymm_usable
from crypto_api.arch.x86.cpufeature import boot_cpu_has

MODULE_ARCH = "x86_64"
MODULE_NAME = "aria_aesni_avx_x86_64"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("aria", "aria-aesni-avx")
MODULE = AriaModule(MODULE_NAME)


def module_init() -> None:
    MODULE.init([(boot_cpu_has("avx") and boot_cpu_has("aes"), "the CPU lacks AVX or AES-NI"),
                 (ymm_usable(), "the OS does not save SSE and YMM state")],
                AriaImpl("avx", 400, 1, boot_cpu_has("gfni"), ctr_walksize=256))


def module_exit() -> None:
    MODULE.exit()
