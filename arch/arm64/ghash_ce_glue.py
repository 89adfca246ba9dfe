"""Module ghash_ce: ``ghash-ce`` (shash ``ghash``, priority 200),
``ghash-neon`` (shash ``ghash``, 150), ``gcm-aes-ce`` (aead ``gcm(aes)``,
priority 300) and its ESP form ``rfc4106-gcm-aes-ce`` (aead
``rfc4106(gcm(aes))``, 300, Linux 6.3+), GHASH and AES-GCM with the ARMv8
Crypto Extensions or plain ASIMD (arch/arm64/crypto/ghash-ce-glue.c, v5.0;
the ESP form as 6.3 added it).

module_init: ENODEV without HWCAP asimd.  With pmull it registers
``ghash-ce`` and both AEADs; ``ghash-neon`` (the 8-bit PMULL shash, core
``ghash_neon``) it registers on every CPU in v5.0-5.8 and in the composite
registry, only on a CPU without pmull from 5.9 on (after "crypto:
arm64/ghash - drop PMULL based shash" the module registers either the AEADs
or ghash-neon): the kernel-version rule ``ghash.neon_shash``.  Its priority
was 100 until "crypto: arm64/ghash-neon - bump priority to 150" (the
kernel-version table renames it per version).  The kernel loads the module
at boot from its CPU device table (PMULL, ``MODULE_CPU_FEATURE``) and by the
alias ``ghash``, which is how a CPU without pmull gets ghash-neon.

``ghash-ce`` and ``ghash-neon``: the key, descriptor state and partial-block
handling are the generic core's (crypto_api.algs.ghash_generic.ghash_alg,
the same struct layouts on both sides, checked at init), so either block
function may continue a descriptor.  An update that completes a block runs
the core in NEON sections when SIMD is usable (ghash-ce one per update,
ghash-neon one per 64 KiB of it, the kernel's MAX_BLOCKS in the 5.4-era and
6.x trees read), else the generic block function (the kernel's fallback); an
update that completes no block only buffers, with no section, as does a
final with no partial block.  The AEADs are :mod:`gcm_aes_ce`'s.
"""

from __future__ import annotations

from typing import Optional

import crypto_api as capi
from crypto_api.algs import ghash_generic as generic
from crypto_api.algs._ghash_generic import ffi
from crypto_api.arch.arm64 import gcm_aes_ce, neon_glue
from crypto_api.errors import ENODEV, CryptoError
from crypto_api.machine import current_machine
from crypto_api.version_rules import rule

MODULE_ARCH = "arm64"
MODULE_NAME = "ghash_ce"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("ghash")
MODULE_CPU_FEATURE = "pmull"              # MODULE_DEVICE_TABLE(cpu, ghash_cpu_feature)

GHASH_PRIORITY = 200
NEON_PRIORITY = 150
CORE = "ghash_ce"
NEON_CORE = "ghash_neon"
#: The kernel-version rule: is ghash-neon registered beside ghash-ce on a CPU with pmull?
NEON_RULE = "ghash.neon_shash"
#: ghash-neon's section size: the kernel's MAX_BLOCKS (64 KiB of blocks).
NEON_CHUNK = 64 * 1024
SHASHES = []
AEADS = []


def _load_checked(name: str):
    """Core ``name`` (functions ``<name>_update/_final/_layout``), its struct
    layouts checked against the host's."""
    core = neon_glue.load_core(name)
    got = getattr(core, name + "_layout")()
    if got != generic.layout():
        raise CryptoError(ENODEV, f"{name}: the arm64 core's descriptor/key layout "
                                  f"{got:#x} differs from the host's {generic.layout():#x}")
    return core


def make_shash(core, driver: str = "ghash-ce", priority: int = GHASH_PRIORITY, prefix: str = CORE,
               chunk: Optional[int] = None) -> capi.ShashAlg:
    """``driver`` over the core's ``<prefix>_update`` and ``_final``; an update
    runs in sections of at most ``chunk`` bytes (None: one section)."""
    base = generic.ghash_alg(driver, priority, module=MODULE_NAME)
    core_update = getattr(core, prefix + "_update")
    core_final = getattr(core, prefix + "_final")

    def state(desc):
        return ffi.from_buffer("struct ghash_desc_ctx *", desc.state)

    def key_bytes(desc):
        key = desc.tfm.ctx.key
        return ffi.buffer(key, ffi.sizeof(key[0]))

    def update(desc, data):
        n = len(data)
        if state(desc).pending + n < generic.GHASH_BLOCK_SIZE or not neon_glue.simd_usable():
            base.update(desc, data)
            return
        step = chunk or n
        view = memoryview(data)
        for pos in range(0, n, step):
            piece = view[pos:pos + step]
            if state(desc).pending + len(piece) < generic.GHASH_BLOCK_SIZE:
                base.update(desc, piece)             # a tail that completes no block
            else:
                neon_glue.neon_call(core_update, desc.state, key_bytes(desc), piece, len(piece),
                                    nbytes=len(piece))

    def final(desc):
        if not state(desc).pending or not neon_glue.simd_usable():
            return base.final(desc)
        out = bytearray(generic.GHASH_DIGEST_SIZE)
        neon_glue.neon_call(core_final, desc.state, key_bytes(desc), out,
                            nbytes=generic.GHASH_BLOCK_SIZE)
        return bytes(out)

    def digest(desc, data):
        base.init(desc)
        update(desc, data)
        return final(desc)

    return neon_glue.arm64_variant(base, update=update, final=final, digest=digest)


def _register_pmull_drivers() -> None:
    core = _load_checked(CORE)
    gcm_core = neon_glue.load_core(gcm_aes_ce.CORE)
    neon_glue.ensure_module(gcm_aes_ce.SCALAR_MODULE)
    shash = make_shash(core)
    capi.crypto_register_shash(shash)
    SHASHES.append(shash)
    aeads = gcm_aes_ce.make_aeads(gcm_core)
    capi.crypto_register_aeads(aeads)         # registers all or none
    AEADS[:] = aeads


def _register_neon_shash() -> None:
    core = _load_checked(NEON_CORE)
    shash = make_shash(core, "ghash-neon", NEON_PRIORITY, NEON_CORE, NEON_CHUNK)
    capi.crypto_register_shash(shash)
    SHASHES.append(shash)


def module_init() -> None:
    neon_glue.require_feature("asimd", MODULE_NAME, "ASIMD")
    pmull = current_machine().has("pmull")
    try:
        if pmull:
            _register_pmull_drivers()
        if not pmull or rule(NEON_RULE, "beside-pmull") == "beside-pmull":
            _register_neon_shash()
    except CryptoError:
        module_exit()
        raise


def module_exit() -> None:
    if AEADS:
        capi.crypto_unregister_aeads(AEADS)
        AEADS.clear()
    while SHASHES:
        capi.crypto_unregister_shash(SHASHES.pop())
