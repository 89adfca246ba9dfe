"""nhpoly1305-neon (arch/arm64/crypto/nhpoly1305-neon-glue.c, v5.0).

Module ``nhpoly1305_neon``, priority 200, needs ASIMD (else ENODEV); as in
v5.0 it uses the generic module's exported helpers, so loading it loads
``nhpoly1305`` (``nhpoly1305-generic``) too.  init, setkey and final are the
generic ones; update runs the generic code for fewer than 64 bytes or when
SIMD is not usable, else cuts the data into PAGE_SIZE pieces (4 KiB, the
arm64 default page) and runs the generic streaming code with the NEON NH
(core ``neon_hash``: nh_neon) over each piece inside a NEON section of its
own.  The Poly1305 part is always the generic 26-bit code, so the
descriptor state moves freely between the two paths.  The glue is the one
the arm machine's module shares (crypto_api.arch.common.nhpoly1305_neon).
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.algs import nhpoly1305_generic as generic
from crypto_api.arch.arm64 import neon_glue
from crypto_api.arch.common.nhpoly1305_neon import PAGE_SIZE, SIMD_MIN, check_layout, make_alg  # noqa: F401

MODULE_ARCH = "arm64"
MODULE_NAME = "nhpoly1305_neon"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("nhpoly1305", "nhpoly1305-neon")

ALGS = []
_core = None


def module_init() -> None:
    global _core
    neon_glue.require_feature("asimd", MODULE_NAME, "ASIMD")
    _core = neon_glue.load_core("neon_hash")
    check_layout(_core)
    neon_glue.ensure_module(generic.MODULE_NAME)
    ALGS[:] = [make_alg(_core)]
    capi.crypto_register_shash(ALGS[0])


def module_exit() -> None:
    capi.crypto_unregister_shash(ALGS.pop())
