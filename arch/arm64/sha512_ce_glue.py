"""Module sha512_ce: ``sha512-ce`` and ``sha384-ce`` (priority 200), SHA-512
with the ARMv8.2 SHA-512 instructions (arch/arm64/crypto/sha512-ce-glue.c,
5.x).

The kernel loads the module at boot through module_cpu_feature_match(SHA512)
(here ``MODULE_CPU_FEATURE``, also by the aliases ``sha384``/``sha512``); on a
CPU without HWCAP sha512 its init fails with ENODEV, nothing registered.
The descriptor is the generic one (struct sha512_state of
algs/sha512_generic.h, the same layout in the arm64 core, checked at init),
so either compression function may continue it.  While SIMD is usable,
update, final and finup each run the core ``sha512_ce`` in one NEON section
(update even when no block completes, as the kernel's); otherwise the
kernel runs the scalar sha512-arm64 code, here the generic C (same bytes).
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.algs import sha512_generic as generic
from crypto_api.algs._sha512 import ffi, lib
from crypto_api.algs.md_shash import md_shash_alg
from crypto_api.arch.arm64 import neon_glue
from crypto_api.errors import ENODEV, CryptoError

MODULE_ARCH = "arm64"
MODULE_NAME = "sha512_ce"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("sha384", "sha512")
MODULE_CPU_FEATURE = "sha512"             # module_cpu_feature_match(SHA512, ...)

PRIORITY = 200
CORE = "sha512_ce"
BLOCK = generic.SHA512_BLOCK_SIZE
ALGS = []


def make_alg(core, name: str, init, digestsize: int) -> capi.ShashAlg:
    """``<name>-ce`` over the core's update and final."""
    base = md_shash_alg(name=name, driver=f"{name}-ce", priority=PRIORITY, ffi=ffi,
                        state_type="struct sha512_state", blocksize=BLOCK, digestsize=digestsize,
                        init=init, update=lib.sha512_update,
                        final=lambda st, out: lib.sha512_final(st, out, digestsize), module=MODULE_NAME)

    def update(desc, data):
        if not neon_glue.simd_usable():
            return base.update(desc, data)
        neon_glue.neon_call(core.sha512_ce_update, desc.state, data, len(data), nbytes=len(data))

    def finup(desc, data):
        if not neon_glue.simd_usable():
            base.update(desc, data)
            return base.final(desc)
        out = bytearray(digestsize)
        n = len(data)

        def both():
            if n:
                core.sha512_ce_update(desc.state, data, n)
            core.sha512_ce_final(desc.state, out, digestsize)
        neon_glue.neon_call(both, nbytes=n + generic.final_nbytes(
            ffi.from_buffer("struct sha512_state *", desc.state), n))
        return bytes(out)

    def final(desc):
        return finup(desc, b"")

    def digest(desc, data):
        base.init(desc)
        return finup(desc, data)

    return neon_glue.arm64_variant(base, update=update, final=final, finup=finup, digest=digest)


def module_init() -> None:
    neon_glue.require_feature("sha512", MODULE_NAME, "the SHA-512 instructions")
    core = neon_glue.load_core(CORE)
    if core.sha512_ce_desc_size() != ffi.sizeof("struct sha512_state"):
        raise CryptoError(ENODEV, f"sha512-ce: the arm64 core's descriptor is {core.sha512_ce_desc_size()} "
                                  f"bytes, the host's {ffi.sizeof('struct sha512_state')}")
    ALGS[:] = [make_alg(core, "sha384", lib.sha384_init, generic.SHA384_DIGEST_SIZE),
               make_alg(core, "sha512", lib.sha512_init, generic.SHA512_DIGEST_SIZE)]
    for alg in ALGS:
        capi.crypto_register_shash(alg)


def module_exit() -> None:
    while ALGS:
        capi.crypto_unregister_shash(ALGS.pop())
