"""poly1305-neon (arch/arm64/crypto/poly1305-glue.c, as 5.5 added it).

Module ``poly1305_neon``, priority 200, blocksize 16, no setkey (the first
32 bytes hashed are r ‖ s, as ``poly1305-generic``; final without them is
ENOKEY).  5.5's module registers nothing without ASIMD; here module_init
returns ENODEV then, which also registers nothing.  update uses NEON iff
SIMD is usable and the update is longer than 128 bytes, and then the whole
update runs in one NEON section (no 4 KiB split on the shash path): core
``neon_hash``'s poly1305_neon_update, the descriptor logic of
algs/poly1305_desc.c over the radix-2^26 NEON block function.  Otherwise the
scalar code runs (here the generic 26-bit core, whose descriptor layout the
NEON code shares).
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.algs import poly1305_generic as generic
from crypto_api.arch.arm64 import neon_glue
from crypto_api.errors import ENODEV, CryptoError

MODULE_ARCH = "arm64"
MODULE_NAME = "poly1305_neon"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("poly1305", "poly1305-neon")

NEON_ABOVE = 128
ALGS = []
_core = None


def make_alg() -> capi.ShashAlg:
    base = generic.poly1305_alg("poly1305-neon", 200, generic.GENERIC_OPS)
    update_neon = _core.poly1305_neon_update

    def update(desc, data):
        n = len(data)
        if n > NEON_ABOVE and neon_glue.simd_usable():
            neon_glue.neon_call(update_neon, desc.state, data, n, nbytes=n)
        else:
            base.update(desc, data)

    return neon_glue.arm64_variant(base, update=update, digest=neon_glue.digest_by_parts(base, update))


def module_init() -> None:
    global _core
    neon_glue.require_feature("asimd", MODULE_NAME, "ASIMD")
    _core = neon_glue.load_core("neon_hash")
    if _core.poly1305_neon_desc_size() != generic.DESCSIZE:
        raise CryptoError(ENODEV, f"poly1305-neon: the arm64 core's descriptor is "
                                  f"{_core.poly1305_neon_desc_size()} bytes, the host's {generic.DESCSIZE}")
    ALGS[:] = [make_alg()]
    capi.crypto_register_shash(ALGS[0])


def module_exit() -> None:
    capi.crypto_unregister_shash(ALGS.pop())
