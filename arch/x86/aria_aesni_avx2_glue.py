"""ARIA, 32 blocks per call with AVX2 (arch/x86/crypto/aria_aesni_avx2_glue.c).

Module ``aria_aesni_avx2_x86_64`` (loads ``aria_aesni_avx_x86_64`` first, as
its Kconfig dependency does): needs AVX, AVX2, AES-NI, OSXSAVE and SSE+YMM
state, else ENODEV.  With GFNI the GFNI S-box code runs at both widths, else
the AES-NI one.  Registers ``__ecb-aria-avx2`` / ``__ctr-aria-avx2``
(internal, 500; walksize 16) and the wrappers ``ecb-aria-avx2`` /
``ctr-aria-avx2`` (6.16+ the public drivers directly).  Each request uses 32-block calls, then 16-block calls,
then the generic code.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.arch.x86.aria_glue import AriaImpl, AriaModule, ymm_usable
from crypto_api.arch.x86.cpufeature import boot_cpu_has

MODULE_ARCH = "x86_64"
MODULE_NAME = "aria_aesni_avx2_x86_64"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("aria", "aria-aesni-avx2")
MODULE = AriaModule(MODULE_NAME)


def module_init() -> None:
    capi.request_module("aria-aesni-avx")
    MODULE.init([(boot_cpu_has("avx") and boot_cpu_has("avx2") and boot_cpu_has("aes"),
                  "the CPU lacks AVX, AVX2 or AES-NI"),
                 (ymm_usable(), "the OS does not save SSE and YMM state")],
                AriaImpl("avx2", 500, 2, boot_cpu_has("gfni")))


def module_exit() -> None:
    MODULE.exit()
