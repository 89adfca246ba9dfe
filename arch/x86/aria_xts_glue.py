"""XTS ARIA on the x86 ARIA cores: ``__xts-aria-avx512`` and its SIMD wrapper
``xts-aria-avx512`` (6.3-6.15; from 6.16 ``xts-aria-avx512`` registered
directly, as the module's ECB and CTR are).  No kernel counterpart: the kernel has no x86 XTS ARIA
driver (it answers ``xts(aria)`` with the ``xts`` template over
``ecb-aria-*``); this project registers one beside the AVX-512 module's ECB
and CTR, at priority 601, one above that template instance (600), on purpose
(the kernel table marks it as a project driver).

* Keys: K1 ‖ K2, 32, 48 or 64 bytes; ``xts_verify_key`` first (the
  template's rule: odd lengths, FIPS lengths, equal halves when weak keys
  are forbidden), then each half as an ARIA key.
* T_0 = E_K2(IV); the tweaks of a wide call are computed in vector
  registers (arch/x86/aria_simd.h); C_i = E_K1(P_i ⊕ T_i) ⊕ T_i.
* Request path: one kernel_fpu_begin/end section per walk step that holds
  16 blocks or more, around its wide calls, as the module's ECB does; the
  rest of a step block by block through the generic code, and a length
  that is not whole blocks ends with ciphertext stealing (the last full
  block and the partial one, gathered, generic code) as the 5.4+ template.
* Direct path (one contiguous buffer where no FPU section is observed):
  aria_x86_xts_direct_bytes in arch/x86/aria_xts.c, one C call.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, Callable, Optional

import crypto_api as capi
from crypto_api.algs._aria_generic import lib as glib
from crypto_api.algs.aria_generic import ARIA_BLOCK_SIZE, ARIA_MAX_KEY_SIZE, ARIA_MIN_KEY_SIZE, aria_setkey, aria_wipe
from crypto_api.algs.xts import stealing, xts_verify_key, xts_walk_blocks
from crypto_api.arch.x86.aria_glue import ECB_FPU_MIN_BLOCKS, AriaImpl, _lib, _views, names
from crypto_api.direct import skcipher_direct
from crypto_api.errors import EINVAL, CryptoError
from crypto_api.scatterlist import as_byte_view

BLOCK = ARIA_BLOCK_SIZE
#: one above the xts template over the same module's ecb (xts(ecb-aria-avx512), 600)
PRIORITY_ABOVE_TEMPLATE = 1


def _setkey(tfm: Any, key: Any, driver: str) -> None:
    key = memoryview(key).cast("B")
    xts_verify_key(tfm, key)
    n = len(key)
    if n // 2 not in (16, 24, 32):
        raise CryptoError(EINVAL, f"{driver}: key is {n} bytes, expected 32, 48 or 64 (two ARIA keys)")
    aria_setkey(tfm.ctx, key[:n // 2], driver)
    if getattr(tfm.ctx, "tweak", None) is None:
        tfm.ctx.tweak = SimpleNamespace()
    aria_setkey(tfm.ctx.tweak, key[n // 2:], driver)


def _wipe(tfm: Any) -> None:
    aria_wipe(tfm.ctx)
    if getattr(tfm.ctx, "tweak", None) is not None:
        aria_wipe(tfm.ctx.tweak)


def xts_crypt(impl: AriaImpl, req: Any, encrypt: bool) -> int:
    """The request path (see the module docstring)."""
    ffi, lib = _lib()
    tfm = req.tfm
    name = tfm.alg.cra_driver_name
    n = req.cryptlen
    if n < BLOCK:
        raise CryptoError(EINVAL, f"{name}: request of {n} bytes; XTS needs at least {BLOCK}")
    if n % BLOCK and not stealing():
        raise CryptoError(EINVAL, f"{name}: request of {n} bytes is not a multiple of {BLOCK}; this "
                                  f"kernel's xts has no ciphertext stealing (5.4+)")
    ctx, flag = tfm.ctx.aria, 1 if encrypt else 0
    t = ffi.new("uint8_t[16]")
    glib.aria_encrypt(tfm.ctx.tweak.aria, t, bytes(as_byte_view(req.iv, "iv")[:BLOCK]))

    def blocks(w: Any, k: int) -> None:
        nblocks = k // BLOCK
        src, dst = _views(w)
        done = 0
        if nblocks >= ECB_FPU_MIN_BLOCKS:
            done = nblocks - nblocks % ECB_FPU_MIN_BLOCKS
            capi.kernel_fpu_begin()
            try:
                lib.aria_x86_xts_blocks(ctx, impl.level, impl.gfni, flag, dst, src, done, t)
                capi.fpu_account(BLOCK * done)
            finally:
                capi.kernel_fpu_end()
        if nblocks > done:
            lib.aria_x86_xts_blocks(ctx, 0, impl.gfni, flag, dst + BLOCK * done, src + BLOCK * done,
                                    nblocks - done, t)

    def steal(buf: bytearray, r: int) -> None:
        p = ffi.from_buffer("uint8_t[]", buf)
        lib.aria_x86_xts_steal(ctx, flag, p, p, r, t)

    xts_walk_blocks(req, blocks, steal)
    ffi.memmove(t, bytes(BLOCK), BLOCK)
    return 0


def _direct(impl: AriaImpl, tfm: Any, encrypt: bool) -> Optional[Callable]:
    """tfm.encrypt/decrypt over one contiguous buffer in one C call; none
    where this kernel's xts does not steal (the request path refuses)."""
    if not stealing():
        return None
    ffi, lib = _lib()
    keys = (tfm.ctx.aria, tfm.ctx.tweak.aria)

    def handle(level: int) -> Any:
        h = ffi.new("struct aria_x86_xts_direct *")
        h.key, h.tweak_key = (ffi.cast("const struct aria_ctx *", ffi.cast("uintptr_t", k)) for k in keys)
        h.level, h.gfni, h.encrypt = level, impl.gfni, encrypt
        return h

    return skcipher_direct(ffi.addressof(lib, "aria_x86_xts_direct_bytes"), handle(0), handle(impl.level),
                           BLOCK, min_len=BLOCK, keep=keys)


def xts_alg(impl: AriaImpl, direct: bool) -> capi.SkcipherAlg:
    """``__xts(aria)`` / ``__xts-aria-<impl>`` (CRYPTO_ALG_INTERNAL, under the
    SIMD wrapper), or where the module's drivers are registered directly
    (``direct``, 6.16+) ``xts(aria)`` / ``xts-aria-<impl>``."""
    name, drv, flags = names("xts", impl.impl, direct)
    return capi.SkcipherAlg(
        cra_name=name, cra_driver_name=drv, cra_flags=flags,
        cra_priority=impl.priority + PRIORITY_ABOVE_TEMPLATE, cra_blocksize=BLOCK,
        min_keysize=2 * ARIA_MIN_KEY_SIZE, max_keysize=2 * ARIA_MAX_KEY_SIZE, ivsize=BLOCK,
        chunksize=BLOCK, walksize=BLOCK,
        setkey=lambda tfm, key: _setkey(tfm, key, drv), exit=_wipe,
        encrypt=lambda req: xts_crypt(impl, req, True), decrypt=lambda req: xts_crypt(impl, req, False),
        direct=lambda tfm, encrypt: _direct(impl, tfm, encrypt))
