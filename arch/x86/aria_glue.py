"""What the three x86 ARIA modules share (the kernel's arch/x86/crypto/
aria_aesni_avx_glue.c, aria_aesni_avx2_glue.c, aria_gfni_avx512_glue.c as of
6.3, with the 6.1-6.15 SIMD wrappers): the internal ``__ecb-aria-<impl>`` and
``__ctr-aria-<impl>`` skciphers (6.16+, rule ``aria.modes_wrapping``: the
public ``ecb-/ctr-aria-<impl>`` registered directly, synchronous, no
wrapper), their walk loops and the module init.

* The key schedule is aria-generic's (the kernel's asm reads the generic
  context); a call of a SIMD function processes exactly its width (16, 32 or
  64 blocks), widest first; what is left of a walk step goes block by block
  through the generic single-block code, outside any FPU section.
* ECB: one kernel_fpu_begin/end section per walk step that holds 16 blocks
  or more, around all of that step's wide calls.
* CTR: one section per wide call; the counter is a 128-bit big-endian
  integer with carry; the final partial block (only at the end of the
  request) is the generic code's, and the IV left in the request is
  IV + ceil(len / 16).
* The S-box method (AES-NI or GFNI) is chosen once, at module init.

Where no FPU section can be observed (fpu.simd_choice() says SIMD), a
request over one contiguous buffer runs as one C call with the same call
sequence (aria_x86_crypt_bytes in arch/x86/aria_x86.c, through the C entry
of crypto_api.direct.skcipher_direct).
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence, Tuple

import attrs

import crypto_api as capi
from crypto_api.algs._aria_generic import lib as glib
from crypto_api.algs.aria_generic import (ARIA_BLOCK_SIZE, ARIA_MAX_KEY_SIZE, ARIA_MIN_KEY_SIZE,
                                          aria_setkey, aria_wipe)
from crypto_api.arch.x86.cpufeature import boot_cpu_has
from crypto_api.errors import EINVAL, CryptoError
from crypto_api.direct import skcipher_direct
from crypto_api.scatterlist import as_byte_view
from crypto_api.version_rules import rule
from crypto_api.walk import skcipher_walk_done, skcipher_walk_virt

BLOCK = ARIA_BLOCK_SIZE
ECB_FPU_MIN_BLOCKS = 16         # all three modules open a section from 16 blocks


def _lib():
    from crypto_api.arch.x86._aria import ffi, lib
    return ffi, lib


@attrs.frozen
class AriaImpl:
    """One module's drivers: ``impl`` names them (avx, avx2, avx512),
    ``level`` says which widths it calls (1: 16; 2: 32, 16; 3: 64, 32, 16),
    ``gfni`` which S-box code runs."""
    impl: str
    priority: int
    level: int
    gfni: bool
    ctr_walksize: int = BLOCK

    @property
    def widths(self) -> List[Tuple[int, Callable, Callable]]:
        """(blocks, ecb, ctr) per SIMD function, widest first."""
        _, lib = _lib()
        sbox = "gfni" if self.gfni else "aesni"
        names = ["avx", "avx2", "avx512"][:self.level]
        return [(16 << i, getattr(lib, f"aria_{n}_{sbox}_ecb"), getattr(lib, f"aria_{n}_{sbox}_ctr"))
                for i, n in reversed(list(enumerate(names)))]


def _views(w) -> Tuple[Any, Any]:
    ffi, _ = _lib()
    return ffi.from_buffer("uint8_t[]", w.src), ffi.from_buffer("uint8_t[]", w.dst, require_writable=True)


def ecb_crypt(impl: AriaImpl, req: Any, encrypt: bool) -> int:
    """The ECB walk: per step, one FPU section around the wide calls (when
    the step holds 16 blocks or more), then the generic code per block."""
    ctx = req.tfm.ctx.aria
    widths = impl.widths
    flag = 1 if encrypt else 0
    w = skcipher_walk_virt(req)
    while w.nbytes:
        nblocks = w.nbytes // BLOCK
        src, dst = _views(w)
        done = 0
        if nblocks >= ECB_FPU_MIN_BLOCKS:
            capi.kernel_fpu_begin()
            try:
                for width, ecb, _ in widths:
                    calls = (nblocks - done) // width
                    if calls:
                        ecb(ctx, dst + BLOCK * done, src + BLOCK * done, calls, flag)
                        done += calls * width
                capi.fpu_account(BLOCK * done)
            finally:
                capi.kernel_fpu_end()
        if nblocks > done:
            glib.aria_ecb_generic(ctx, dst + BLOCK * done, src + BLOCK * done, nblocks - done, flag)
        skcipher_walk_done(w, w.nbytes - BLOCK * nblocks)
    return 0


def ctr_crypt(impl: AriaImpl, req: Any) -> int:
    """The CTR walk: one FPU section per wide call, whole remaining blocks
    and the final partial block through the generic code."""
    ffi, _ = _lib()
    ctx = req.tfm.ctx.aria
    widths = impl.widths
    w = skcipher_walk_virt(req)
    iv = ffi.new("uint8_t[16]", bytes(as_byte_view(w.iv, "iv")[:BLOCK])) if w.nbytes else None
    while w.nbytes:
        n = w.nbytes
        src, dst = _views(w)
        done = 0
        for width, _, ctr in widths:
            size = width * BLOCK
            while n - done >= size:
                capi.kernel_fpu_begin()
                try:
                    ctr(ctx, dst + done, src + done, 1, iv)
                    capi.fpu_account(size)
                finally:
                    capi.kernel_fpu_end()
                done += size
        tail = n - done if n == w.total else (n - done) // BLOCK * BLOCK
        if tail:
            glib.aria_ctr_generic(ctx, dst + done, src + done, tail, iv)
        if n - done - tail == n:            # nothing processed: the walk needs a whole block
            raise CryptoError(EINVAL, f"{req.tfm.alg.cra_driver_name}: walk step of {n} bytes")
        as_byte_view(w.iv, "iv")[:BLOCK] = ffi.buffer(iv)      # the walk hands it back at the end
        skcipher_walk_done(w, n - done - tail)
    return 0


def _direct_handle(impl: AriaImpl, aria: Any, mode: int, level: int) -> Any:
    """The handle of aria_x86_direct_bytes: the key ``aria`` (a ``struct
    aria_ctx *``), ``mode``, and the code of ``level`` (0: generic only)
    with the module's S-boxes."""
    ffi, _ = _lib()
    h = ffi.new("struct aria_x86_direct *")
    h.key = ffi.cast("const struct aria_ctx *", ffi.cast("uintptr_t", aria))
    h.level, h.gfni, h.mode = level, impl.gfni, mode
    return h


def _direct(impl: AriaImpl, tfm: Any, mode: int, ivsize: int) -> Optional[Callable]:
    """tfm.encrypt/decrypt over one contiguous buffer in one C call
    (aria_x86_direct_bytes): the module's widths when SIMD is usable, the
    generic code alone otherwise."""
    ffi, lib = _lib()
    aria = tfm.ctx.aria
    generic = _direct_handle(impl, aria, mode, 0)
    simd = _direct_handle(impl, aria, mode, impl.level)
    # ECB: whole blocks, at least one (the full path refuses the rest)
    return skcipher_direct(ffi.addressof(lib, "aria_x86_direct_bytes"), generic, simd, ivsize,
                           min_len=0 if ivsize else BLOCK, align=1 if ivsize else BLOCK, keep=aria)


def direct_registration() -> bool:
    """True where the followed kernel registers the ARIA modes directly (rule
    ``aria.modes_wrapping``: 6.16+), False where they are internal algorithms
    under the SIMD wrapper (6.1-6.15, and the composite registry)."""
    return rule("aria.modes_wrapping", "simd") == "direct"


def names(mode: str, impl: str, direct: bool) -> Tuple[str, str, int]:
    """(cra_name, driver, flags) of ``mode``'s driver: ``__<mode>(aria)`` /
    ``__<mode>-aria-<impl>`` (CRYPTO_ALG_INTERNAL) under the SIMD wrapper, the
    public names with no flag when registered directly."""
    pre = "" if direct else "__"
    return (f"{pre}{mode}(aria)", f"{pre}{mode}-aria-{impl}", 0 if direct else capi.CRYPTO_ALG_INTERNAL)


def mode_algs(impl: AriaImpl, direct: bool) -> List[capi.SkcipherAlg]:
    """The ECB and CTR drivers, internal (SIMD-wrapped) or public (``direct``)."""
    common = dict(cra_priority=impl.priority, min_keysize=ARIA_MIN_KEY_SIZE,
                  max_keysize=ARIA_MAX_KEY_SIZE, chunksize=BLOCK, exit=lambda tfm: aria_wipe(tfm.ctx))
    ecb_name, ecb_drv, flags = names("ecb", impl.impl, direct)
    ctr_name, ctr_drv, _ = names("ctr", impl.impl, direct)
    ecb = capi.SkcipherAlg(
        cra_name=ecb_name, cra_driver_name=ecb_drv, cra_flags=flags, cra_blocksize=BLOCK,
        ivsize=0, walksize=BLOCK,
        setkey=lambda tfm, key: aria_setkey(tfm.ctx, key, ecb_drv),
        encrypt=lambda req: ecb_crypt(impl, req, True),
        decrypt=lambda req: ecb_crypt(impl, req, False),
        direct=lambda tfm, encrypt: _direct(impl, tfm, 1 if encrypt else 0, 0), **common)
    ctr = capi.SkcipherAlg(
        cra_name=ctr_name, cra_driver_name=ctr_drv, cra_flags=flags, cra_blocksize=1,
        ivsize=BLOCK, walksize=impl.ctr_walksize,
        setkey=lambda tfm, key: aria_setkey(tfm.ctx, key, ctr_drv),
        encrypt=lambda req: ctr_crypt(impl, req), decrypt=lambda req: ctr_crypt(impl, req),
        direct=lambda tfm, encrypt: _direct(impl, tfm, 2, BLOCK), **common)
    return [ecb, ctr]


def ymm_usable() -> bool:
    """OSXSAVE and the OS saving SSE and YMM state (cpu_has_xfeatures)."""
    return boot_cpu_has("osxsave") and boot_cpu_has("xsave_ymm")


class AriaModule:
    """One module's registered state: its algorithms (internal, or public where
    registered directly) and their wrappers (none where direct)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.internal: List[capi.SkcipherAlg] = []
        self.wrappers: List[capi.SkcipherAlg] = []
        self.impl: Optional[AriaImpl] = None         # what init chose (None: not registered)

    def init(self, checks: Sequence[Tuple[bool, str]], impl: AriaImpl,
             more: Sequence[Callable[[AriaImpl, bool], capi.SkcipherAlg]] = ()) -> None:
        """ENODEV (nothing registered) on the first failing check, else
        register the algorithms (the kernel's two, then one per ``more``:
        this project's, such as arch/x86/aria_xts_glue.py's): internal with
        their SIMD wrappers, or 6.16+ directly (synchronous, no wrapper)."""
        for ok, why in checks:
            capi.require_cpu(ok, f"{impl.impl} ARIA ({self.name})", why)
        from crypto_api.simd import simd_register_skciphers_compat
        direct = direct_registration()
        algs = mode_algs(impl, direct) + [make(impl, direct) for make in more]
        if direct:
            capi.crypto_register_skciphers(algs)
            self.wrappers = []
        else:
            self.wrappers = simd_register_skciphers_compat(algs)
        self.internal, self.impl = algs, impl

    def exit(self) -> None:
        from crypto_api.simd import simd_unregister_skciphers
        simd_unregister_skciphers(self.internal, self.wrappers)
        self.internal, self.wrappers, self.impl = [], [], None
