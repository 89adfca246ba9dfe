"""Module ghash_ce: ``ghash-ce`` (shash ``ghash``, priority 200),
``gcm-aes-ce`` (aead ``gcm(aes)``, priority 300) and its ESP form
``rfc4106-gcm-aes-ce`` (aead ``rfc4106(gcm(aes))``, 300, Linux 6.3+), GHASH
and AES-GCM with the ARMv8 Crypto Extensions (arch/arm64/crypto/ghash-ce-glue.c,
v5.0; the ESP form as 6.3 added it).

module_init: ENODEV without HWCAP asimd; with pmull it registers all three
drivers.  v5.0 registers ``ghash-neon`` (150, the 8-bit PMULL shash) as
well, and only that one on a CPU without pmull; this project does not model
``ghash-neon``, so a CPU without pmull gets ENODEV here (nothing
registered).  The kernel loads the module at boot from its CPU device table
(PMULL, ``MODULE_CPU_FEATURE``) and by the alias ``ghash``.

``ghash-ce``: the key, descriptor state and partial-block handling are the
generic core's (crypto_api.algs.ghash_generic.ghash_alg, the same
struct layouts on both sides, checked at init), so either block function
may continue a descriptor.  An update that completes a block runs the
PMULL code (core ``ghash_ce``) in one NEON section when SIMD is usable,
else the generic block function (v5.0's ghash_do_update fallback); an
update that completes no block only buffers, with no section, as does a
final with no partial block.  The AEADs are :mod:`gcm_aes_ce`'s.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.algs import ghash_generic as generic
from crypto_api.algs._ghash_generic import ffi
from crypto_api.arch.arm64 import gcm_aes_ce, neon_glue
from crypto_api.errors import ENODEV, CryptoError

MODULE_ARCH = "arm64"
MODULE_NAME = "ghash_ce"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("ghash")
MODULE_CPU_FEATURE = "pmull"              # MODULE_DEVICE_TABLE(cpu, ghash_cpu_feature)

GHASH_PRIORITY = 200
CORE = "ghash_ce"
SHASHES = []
AEADS = []


def _layout() -> int:
    return (generic.DESCSIZE << 8) | ffi.sizeof("struct ghash_key")


def make_shash(core) -> capi.ShashAlg:
    """``ghash-ce`` over the ``ghash_ce`` core's update and final."""
    base = generic.ghash_alg("ghash-ce", GHASH_PRIORITY, module=MODULE_NAME)

    def state(desc):
        return ffi.from_buffer("struct ghash_desc_ctx *", desc.state)

    def key_bytes(desc):
        key = desc.tfm.ctx.key
        return ffi.buffer(key, ffi.sizeof(key[0]))

    def update(desc, data):
        n = len(data)
        if state(desc).pending + n < generic.GHASH_BLOCK_SIZE or not neon_glue.simd_usable():
            base.update(desc, data)
        else:
            neon_glue.neon_call(core.ghash_ce_update, desc.state, key_bytes(desc), data, n, nbytes=n)

    def final(desc):
        if not state(desc).pending or not neon_glue.simd_usable():
            return base.final(desc)
        out = bytearray(generic.GHASH_DIGEST_SIZE)
        neon_glue.neon_call(core.ghash_ce_final, desc.state, key_bytes(desc), out,
                            nbytes=generic.GHASH_BLOCK_SIZE)
        return bytes(out)

    def digest(desc, data):
        base.init(desc)
        update(desc, data)
        return final(desc)

    return neon_glue.arm64_variant(base, update=update, final=final, digest=digest)


def module_init() -> None:
    neon_glue.require_feature("asimd", MODULE_NAME, "ASIMD")
    neon_glue.require_feature("pmull", MODULE_NAME,
                              "PMULL (ghash-neon, v5.0's shash for such CPUs, is not modelled)")
    core = neon_glue.load_core(CORE)
    if core.ghash_ce_layout() != _layout():
        raise CryptoError(ENODEV, f"ghash-ce: the arm64 core's descriptor/key layout "
                                  f"{core.ghash_ce_layout():#x} differs from the host's {_layout():#x}")
    gcm_core = neon_glue.load_core(gcm_aes_ce.CORE)
    neon_glue.ensure_module(gcm_aes_ce.SCALAR_MODULE)
    SHASHES[:] = [make_shash(core)]
    capi.crypto_register_shash(SHASHES[0])
    AEADS[:] = gcm_aes_ce.make_aeads(gcm_core)
    try:
        capi.crypto_register_aeads(AEADS)
    except CryptoError:
        capi.crypto_unregister_shash(SHASHES.pop())
        AEADS.clear()
        raise


def module_exit() -> None:
    if AEADS:
        capi.crypto_unregister_aeads(AEADS)
        AEADS.clear()
    while SHASHES:
        capi.crypto_unregister_shash(SHASHES.pop())
