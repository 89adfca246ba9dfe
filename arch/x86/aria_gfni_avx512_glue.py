"""ARIA, 64 blocks per call with GFNI and AVX-512 (arch/x86/crypto/aria_gfni_avx512_glue.c).

Module ``aria_gfni_avx512_x86_64`` (loads the AVX and AVX2 modules first, as
its Kconfig dependencies do; each registers its own algorithms if its CPU
check passes): needs AVX, AVX2, AVX-512 F and VL, GFNI, OSXSAVE and the OS
saving SSE, YMM and AVX-512 state, else ENODEV.  This userspace core also
needs AVX-512 BW (its byte unpacks and shuffles on zmm), which every CPU with
AVX-512 and GFNI has.  Always the GFNI S-box code: 64-, then 32-, then
16-block calls, then the generic code.  Registers ``__ecb-aria-avx512`` /
``__ctr-aria-avx512`` (internal, 600; walksize 16) and their wrappers, and
this project's ``__xts-aria-avx512`` (601, no kernel counterpart:
arch/x86/aria_xts_glue.py) with its wrapper; 6.16+ (rule
``aria.modes_wrapping``) the public ``ecb-/ctr-/xts-aria-avx512`` directly.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.arch.x86.aria_glue import AriaImpl, AriaModule, ymm_usable
from crypto_api.arch.x86.aria_xts_glue import xts_alg
from crypto_api.arch.x86.cpufeature import boot_cpu_has

MODULE_ARCH = "x86_64"
MODULE_NAME = "aria_gfni_avx512_x86_64"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("aria", "aria-gfni-avx512")
MODULE = AriaModule(MODULE_NAME)


def module_init() -> None:
    capi.request_module("aria-aesni-avx")
    capi.request_module("aria-aesni-avx2")
    MODULE.init([(all(boot_cpu_has(f) for f in ("avx", "avx2", "avx512f", "avx512vl", "gfni")),
                  "the CPU lacks AVX, AVX2, AVX-512 F/VL or GFNI"),
                 (boot_cpu_has("avx512bw"), "the CPU lacks AVX-512 BW"),
                 (ymm_usable() and boot_cpu_has("xsave_zmm"),
                  "the OS does not save SSE, YMM and AVX-512 state")],
                AriaImpl("avx512", 600, 3, True), more=(xts_alg,))


def module_exit() -> None:
    MODULE.exit()
