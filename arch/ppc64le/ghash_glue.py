"""p8_ghash: the shash ``ghash`` with the POWER8 vector polynomial multiply
(drivers/crypto/vmx/ghash.c; arch/powerpc/crypto/ghash.c from 6.8).

Priority 1000, block size 16, digest 16, a 16-byte key.  setkey computes the
core's key in one VSX section and keeps the key for the software path too.
An update that completes a buffered partial block multiplies that block in
one VSX section, its remaining whole blocks in one more, and buffers the
rest without a section; final multiplies a zero-padded partial block in one
section (none when nothing is pending).  The core ``ghash_p8`` works on the
generic C's descriptor and key structs (checked at module init), so a
descriptor may move between it and the generic block function.

Without SIMD, by version (the kernel-version rule ``p8.ghash_fallback``):

* "manual" (5.2+, after "crypto: vmx - ghash: do nosimd fallback
  manually"): the same descriptor goes on in software (the generic block
  function, as the kernel's gf128mul_lle); flags none.  6.16 moved the
  partial-block buffering into the API (CRYPTO_AHASH_ALG_BLOCK_ONLY): the
  driver then sees whole blocks, in the same sections as here.
* "tfm" (5.0, 5.1): CRYPTO_ALG_NEED_FALLBACK; tfm init allocates a fallback
  ``ghash`` shash (mask NEED_FALLBACK: ghash-generic), setkey keys it, init
  starts a fallback descriptor beside the VSX one, and each update or final
  made without SIMD goes to the fallback descriptor only, so a hash whose
  calls change context mixes two states (the bug the 5.2 change fixed,
  found by 5.2's new no-SIMD self-tests; v5.0's testmgr had none, so under
  ``--kernel 5.0`` this driver passes the registration tests and fails the
  full ones' no-SIMD configurations, as that kernel would have).  export
  and import carry both states (the kernel's default export copied the
  whole descriptor context, the fallback's descriptor inside it).
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.algs import ghash_generic as generic
from crypto_api.algs._ghash_generic import ffi
from crypto_api.arch.common.glue import request_path_variant
from crypto_api.arch.ppc64le import vsx_glue
from crypto_api.errors import ENODEV, CryptoError
from crypto_api.version_rules import rule

DRIVER = "p8_ghash"
PRIORITY = 1000
CORE = "ghash_p8"
#: the kernel-version rule: how the driver hashes without SIMD ("manual" or "tfm")
FALLBACK_RULE = "p8.ghash_fallback"
BLOCK = generic.GHASH_BLOCK_SIZE


def load_core():
    """The core, its struct layouts checked against the host's."""
    core = vsx_glue.load_core(CORE)
    got = core.ghash_p8_layout()
    if got != generic.layout():
        raise CryptoError(ENODEV, f"{DRIVER}: the ppc64le core's descriptor/key layout {got:#x} "
                                  f"differs from the host's {generic.layout():#x}")
    return core


def make_alg(core) -> capi.ShashAlg:
    base = generic.ghash_alg(DRIVER, PRIORITY, module="vmx_crypto")
    with_tfm = rule(FALLBACK_RULE, "manual") == "tfm"

    def pending(desc) -> int:
        return ffi.from_buffer("struct ghash_desc_ctx *", desc.state).pending

    def init_tfm(tfm):
        tfm.ctx.fallback = (capi.crypto_alloc_shash("ghash", 0, capi.CRYPTO_ALG_NEED_FALLBACK)
                            if with_tfm else None)

    def exit_tfm(tfm):
        base.exit_tfm(tfm)
        htable = getattr(tfm.ctx, "htable", None)
        if htable is not None:
            htable[:] = bytes(len(htable))
        fb = getattr(tfm.ctx, "fallback", None)
        if fb is not None:
            capi.crypto_free_shash(fb)
            tfm.ctx.fallback = None

    def setkey(tfm, key):
        base.setkey(tfm, key)                       # the software key (EINVAL unless 16 bytes)
        htable = bytearray(ffi.sizeof("struct ghash_key"))
        vsx_glue.vsx_call(core.ghash_p8_setkey, htable, bytes(key))
        tfm.ctx.htable = htable
        if tfm.ctx.fallback is not None:
            tfm.ctx.fallback.setkey(key)

    def init(desc):
        base.init(desc)
        desc.ctx.fallback = desc.tfm.ctx.fallback.desc().init() if with_tfm else None

    def vsx_update(desc, data, nbytes):
        vsx_glue.vsx_call(core.ghash_p8_update, desc.state, bytes(desc.tfm.ctx.htable), bytes(data),
                          len(data), nbytes=nbytes)

    def update(desc, data):
        if not vsx_glue.simd_usable():
            if with_tfm:
                desc.ctx.fallback.update(data)
            else:
                base.update(desc, data)
            return
        view = memoryview(data)
        have = pending(desc)
        if have:
            if have + len(view) < BLOCK:
                base.update(desc, view)            # only buffered
                return
            vsx_update(desc, view[:BLOCK - have], BLOCK)
            view = view[BLOCK - have:]
        whole = len(view) - len(view) % BLOCK
        if whole:
            vsx_update(desc, view[:whole], whole)
        if whole < len(view):
            base.update(desc, view[whole:])        # buffered, no block completed

    def final(desc):
        if not vsx_glue.simd_usable():
            return desc.ctx.fallback.final() if with_tfm else base.final(desc)
        if not pending(desc):
            return base.final(desc)
        out = bytearray(generic.GHASH_DIGEST_SIZE)
        vsx_glue.vsx_call(core.ghash_p8_final, desc.state, bytes(desc.tfm.ctx.htable), out, nbytes=BLOCK)
        return bytes(out)

    def digest(desc, data):
        init(desc)
        update(desc, data)
        return final(desc)

    def export(desc):
        return bytes(desc.state) + desc.ctx.fallback.export()

    def import_(desc, state):
        desc.state[:] = state[:generic.DESCSIZE]
        desc.ctx.fallback = desc.tfm.ctx.fallback.desc().import_(state[generic.DESCSIZE:])

    extra = dict(cra_flags=capi.CRYPTO_ALG_NEED_FALLBACK, statesize=2 * generic.DESCSIZE,
                 export=export, import_=import_) if with_tfm else {}
    return request_path_variant(
        base, init_tfm=init_tfm, exit_tfm=exit_tfm, setkey=setkey, init=init, update=update, final=final,
        digest=digest, **extra)
