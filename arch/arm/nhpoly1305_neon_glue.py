"""nhpoly1305-neon of the arm machine (arch/arm/crypto/nhpoly1305-neon-glue.c, v5.0).

Module ``nhpoly1305_neon``, priority 200, needs HWCAP ``neon`` (else ENODEV);
loads ``nhpoly1305`` (``nhpoly1305-generic``) as v5.0 does.  The glue is
arm64's (crypto_api.arch.common.nhpoly1305_neon, reference §2.6 "exactly §1.8"):
generic update under 64 bytes or without SIMD, else 4 KiB pieces (arm32's
PAGE_SIZE is always 4 KiB), one NEON section each, over the arm core
``neon_hash``.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.algs import nhpoly1305_generic as generic
from crypto_api.arch.common import glue
from crypto_api.arch.common import nhpoly1305_neon as shared
from crypto_api.machine import backend

MODULE_ARCH = "arm"
MODULE_NAME = "nhpoly1305_neon"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("nhpoly1305", "nhpoly1305-neon")
ALGS = []


def module_init() -> None:
    glue.require_feature("neon", MODULE_NAME, "NEON")
    core = backend.load("arm", "neon_hash")
    shared.check_layout(core)
    glue.ensure_module(generic.MODULE_NAME)
    ALGS[:] = [shared.make_alg(core)]
    capi.crypto_register_shash(ALGS[0])


def module_exit() -> None:
    capi.crypto_unregister_shash(ALGS.pop())
