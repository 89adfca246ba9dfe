"""nhpoly1305-neon's glue, shared by the arm64 and arm ``nhpoly1305_neon`` modules.

v5.0's arch/arm64/crypto/nhpoly1305-neon-glue.c and its arm twin are the
same (reference §2.6 "exactly §1.8"): init, setkey and final are the
generic ones; update runs the generic code for fewer than 64 bytes or when
SIMD is not usable, else cuts the data into PAGE_SIZE pieces (4 KiB: arm64's
default page, arm32's only one) and runs the generic streaming code with
the NEON NH (a ``neon_hash`` core's nhpoly1305_neon_update) over each piece
inside a NEON section of its own.  The Poly1305 part is always the generic
26-bit code, so the descriptor state moves freely between the two paths.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.algs import nhpoly1305_generic as generic
from crypto_api.algs._poly1305 import ffi as pffi
from crypto_api.arch.common import glue
from crypto_api.errors import ENODEV, CryptoError
from crypto_api.fpu import GENERIC

PAGE_SIZE = 4096                  # v5.0 chunks by PAGE_SIZE (4 KiB)
SIMD_MIN = generic.NH_SIMD_RULE.above + 1   # from the descriptor's simd_rule


def check_layout(core) -> None:
    """The core works on the host's state and key bytes: same sizes or ENODEV."""
    want = (pffi.sizeof("struct nhpoly1305_state"), pffi.sizeof("struct nhpoly1305_key"))
    got = (core.nhpoly1305_neon_state_size(), core.nhpoly1305_neon_key_size())
    if got != want:
        raise CryptoError(ENODEV, f"nhpoly1305-neon: the {core.core.name} core lays out state/key as {got} bytes, "
                                  f"the host as {want}")


def make_alg(core) -> capi.ShashAlg:
    """nhpoly1305-neon (priority 200) over ``core`` (a ``neon_hash`` core of either machine)."""
    base = generic.nhpoly1305_alg("nhpoly1305-neon", 200)
    update_nh = core.nhpoly1305_neon_update

    def update(desc, data):
        n = len(data)
        if base.simd_rule.choice(n) == GENERIC:
            base.update(desc, data)
            return
        view = memoryview(data).cast("B")
        key = desc.tfm.ctx.key
        for pos in range(0, n, PAGE_SIZE):
            piece = view[pos:pos + PAGE_SIZE]
            glue.neon_call(update_nh, desc.state, key, piece, len(piece), nbytes=len(piece))

    return glue.request_path_variant(base, update=update,
                                     digest=glue.digest_by_parts(base, update))
