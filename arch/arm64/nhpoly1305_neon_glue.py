"""nhpoly1305-neon (arch/arm64/crypto/nhpoly1305-neon-glue.c, v5.0).

Module ``nhpoly1305_neon``, priority 200, needs ASIMD (else ENODEV); as in
v5.0 it uses the generic module's exported helpers, so loading it loads
``nhpoly1305`` (``nhpoly1305-generic``) too.  init, setkey and final are the
generic ones; update runs the generic code for fewer than 64 bytes or when
SIMD is not usable, else cuts the data into PAGE_SIZE pieces (4 KiB, the
arm64 default page) and runs the generic streaming code with the NEON NH
(core ``neon_hash``: nh_neon) over each piece inside a NEON section of its
own.  The Poly1305 part is always the generic 26-bit code, so the
descriptor state moves freely between the two paths.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.algs import nhpoly1305_generic as generic
from crypto_api.algs._poly1305 import ffi as pffi
from crypto_api.arch.arm64 import neon_glue
from crypto_api.errors import ENODEV, CryptoError

MODULE_ARCH = "arm64"
MODULE_NAME = "nhpoly1305_neon"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("nhpoly1305", "nhpoly1305-neon")

PAGE_SIZE = 4096                  # v5.0 chunks by PAGE_SIZE (arm64 default 4 KiB)
SIMD_MIN = 64
ALGS = []
_core = None


def check_layout(core) -> None:
    """The core works on the host's state and key bytes: same sizes or ENODEV."""
    want = (pffi.sizeof("struct nhpoly1305_state"), pffi.sizeof("struct nhpoly1305_key"))
    got = (core.nhpoly1305_neon_state_size(), core.nhpoly1305_neon_key_size())
    if got != want:
        raise CryptoError(ENODEV, f"nhpoly1305-neon: the {core.core.name} core lays out state/key as {got} bytes, "
                                  f"the host as {want}")


def make_alg(core) -> capi.ShashAlg:
    """nhpoly1305-neon over ``core`` (a ``neon_hash`` core: the arm machine's too)."""
    base = generic.nhpoly1305_alg("nhpoly1305-neon", 200)
    update_nh = core.nhpoly1305_neon_update

    def setkey(tfm, key):
        base.setkey(tfm, key)
        neon_glue.drop_c_entry(tfm.ctx, "c_nhpoly1305")

    def update(desc, data):
        n = len(data)
        if n < SIMD_MIN or not neon_glue.simd_usable():
            base.update(desc, data)
            return
        view = memoryview(data).cast("B")
        key = desc.tfm.ctx.key
        for pos in range(0, n, PAGE_SIZE):
            piece = view[pos:pos + PAGE_SIZE]
            neon_glue.neon_call(update_nh, desc.state, key, piece, len(piece), nbytes=len(piece))

    return neon_glue.arm64_variant(base, setkey=setkey, update=update,
                                   digest=neon_glue.digest_by_parts(base, update))


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
