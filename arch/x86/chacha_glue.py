"""ChaCha20/XChaCha20/XChaCha12 SIMD skciphers (arch/x86/crypto/chacha_glue.c, v5.0).

Module ``chacha_x86_64`` registers ``chacha20-simd``, ``xchacha20-simd`` and
``xchacha12-simd`` at priority 300 when the CPU has SSSE3 (else ENODEV and
nothing is registered).  The block code is chosen at init: AVX-512VL (with
AVX512BW) 2/4/8-block, else AVX2 2/4/8-block with SSSE3 for the tail, else
SSSE3 1/4-block.  Beyond v5.0 (which stops at the 8-block ymm code), a CPU
that also has AVX-512F gets 16-block zmm code for 1024-byte chunks, with the
AVX-512VL code for short tails: same bytes, about 1.5x the 8-block speed.

v5.0 request rules: a request of 64 bytes or less, or one made while
crypto_simd_usable() is false, runs the generic code for the whole request
(the descriptors' ``simd_rule``, chacha_generic.CHACHA_SIMD_RULE).
Otherwise the walk is atomic inside one kernel_fpu_begin/end; each non-final
step is rounded down to 64 bytes and decrements a 4096-byte budget, and when
the budget is used up the FPU is released and taken again (a preemption
point), so a page-aligned request of k pages shows k FPU sections of 4096
bytes in fpu_trace().  HChaCha for XChaCha runs with the SSSE3 code inside the
section.

That is the rule of 5.0-5.4 (``chacha.sections`` = "walk" in the kernel-version
table, crypto_api.version_rules).  From 5.5 ("step") the walk is not atomic
and each step has a kernel_fpu_begin/end of its own, SIMD decided per step
(a step made while SIMD is unusable runs the generic code), and XChaCha's
HChaCha has a section of its own before the walk; no yields.  From 6.16
("library") the drivers are crypto/chacha.c's over the x86 ChaCha library:
named ``*-x86`` in 6.16-6.17 and ``*-lib`` from 6.18 (registered here, in
place of the generic module's, so the default kernel's ChaCha runs this
code); each walk step goes to the library, which runs a step of 64 bytes or
less, or one made while SIMD is unusable, with the generic code and a longer
one in pieces of at most 4096 bytes, each in a section of its own (the rules
every machine's library shares: crypto_api.algs.chacha_library).
"""

from __future__ import annotations

import logging

import crypto_api as capi
from crypto_api.algs import chacha_generic as generic
from crypto_api.algs import chacha_library
from crypto_api.algs._chacha_generic import ffi as gffi
from crypto_api.arch.x86._chacha_glue import ffi as _wffi
from crypto_api.arch.x86._chacha_glue import lib as _wlib
from crypto_api.arch.x86.cpufeature import boot_cpu_has
from crypto_api.fpu import DECLINE, GENERIC
from crypto_api.scatterlist import sg_linear_views
from crypto_api.version_rules import rule

log = logging.getLogger("crypto_api")

_glue_crypt = _wlib.chacha_glue_crypt_contiguous
_wfb = _wffi.from_buffer
_fpu_begin = capi.kernel_fpu_begin
_fpu_end = capi.kernel_fpu_end
_NULL = _wffi.NULL

MODULE_ARCH = "x86_64"
MODULE_NAME = "chacha_x86_64"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO(
    "chacha20", "chacha20-simd", "xchacha20", "xchacha20-simd", "xchacha12", "xchacha12-simd")

FPU_YIELD_BYTES = 4096
#: crypto_api.version_rules: "walk" (5.0-5.4, the composite's), "step" (5.5-6.15),
#: "library" (6.16+)
SECTIONS_RULE = "chacha.sections"


def per_step() -> bool:
    """True where the chosen kernel's glue opens sections per walk step (5.5+)."""
    return rule(SECTIONS_RULE, "walk") != "walk"
_from_buffer = gffi.from_buffer


class _Impl:
    """The block code chosen at module init."""

    name = ""
    dosimd = None
    hchacha = None
    c_stream = None        # (dosimd, hchacha) function pointers offered to templates (C entries)
    c_lanes = None         # (hchacha_lanes, stream_lanes): eight streams at once, AVX2
    dosimd_ptr = None      # the same two routines as pointers of the C glue loop's types
    hchacha_ptr = None


impl = _Impl()


def select_impl() -> str:
    """Pick the widest usable code path (v5.0: use_avx512vl > use_avx2 > SSSE3;
    beyond v5.0, AVX-512F on top of the AVX-512VL conditions adds the 16-block zmm code)."""
    use_avx2 = boot_cpu_has("avx") and boot_cpu_has("avx2") and boot_cpu_has("xsave_ymm")
    use_avx512vl = use_avx2 and boot_cpu_has("avx512vl") and boot_cpu_has("avx512bw") and boot_cpu_has("xsave_zmm")
    if use_avx512vl and boot_cpu_has("avx512f"):
        from crypto_api.arch.x86._chacha_avx512 import ffi, lib
        impl.name = "avx512"
    elif use_avx512vl:
        from crypto_api.arch.x86._chacha_avx512vl import ffi, lib
        impl.name = "avx512vl"
    elif use_avx2:
        from crypto_api.arch.x86._chacha_avx2 import ffi, lib
        impl.name = "avx2"
    else:
        from crypto_api.arch.x86._chacha_ssse3 import ffi, lib
        impl.name = "ssse3"
    dosimd = "chacha_dosimd_" + impl.name
    impl.dosimd = getattr(lib, dosimd)
    impl.hchacha = lib.hchacha_block_ssse3
    impl.c_stream = (ffi.addressof(lib, dosimd), ffi.addressof(lib, "hchacha_block_ssse3"))
    # the glue loop takes the worker, which leaves the stack wipe to it (once per request)
    impl.dosimd_ptr = _wffi.cast("chacha_crypt_fn", ffi.addressof(lib, "chacha_%s_blocks" % impl.name))
    impl.hchacha_ptr = _wffi.cast("hchacha_fn", impl.c_stream[1])
    impl.c_lanes = None
    if use_avx2:
        from crypto_api.arch.x86._chacha_avx2 import ffi as lffi, lib as llib
        impl.c_lanes = (lffi.addressof(llib, "hchacha_lanes_avx2"),
                        lffi.addressof(llib, "chacha_lanes_xor_avx2"))
    return impl.name


def simd_c_stream(simd: bool):
    """The STREAM C entries offered to templates: the SIMD code when usable, else generic."""
    if not simd:
        return generic.GENERIC_C_STREAM
    return impl.c_stream


def simd_c_stream_lanes(simd: bool):
    """Eight streams at once for templates over many messages (Adiantum
    over sectors): the AVX2 lanes code (also on AVX-512 machines) when SIMD is
    usable and the CPU has AVX2, else None (one message at a time)."""
    return impl.c_lanes if simd else None


def _simd_state(ctx, iv, xchacha: bool):
    return generic.arch_state(ctx, iv, xchacha, impl.hchacha)


def _glue_loop(ctx, iv, xchacha: bool, src, dst, n: int, src_off: int, dst_off: int) -> None:
    """One contiguous src and dst: state set-up (HChaCha with the SSSE3 code)
    and the glue loop run in C (chacha_glue_walk.c) inside one FPU section,
    and the sections the loop made are replayed into the FPU model."""
    tracing = capi.fpu_tracing()
    maxsec = n // FPU_YIELD_BYTES + 2
    sections = _wffi.new("uint32_t[]", maxsec) if tracing else _wffi.NULL
    _fpu_begin()
    try:
        nsec = _glue_crypt(impl.dosimd_ptr, impl.hchacha_ptr if xchacha else _wffi.NULL, ctx.key,
                           _wfb("uint8_t[]", iv), _wfb("uint8_t[]", dst, require_writable=True),
                           _wfb("uint8_t[]", src), n, src_off, dst_off, ctx.nrounds, sections, maxsec)
        if tracing:
            for i in range(nsec):
                capi.fpu_account(sections[i])
                if i + 1 < nsec:
                    capi.kernel_fpu_yield()
    finally:
        if capi.in_kernel_fpu():
            capi.kernel_fpu_end()


def _x86_blocks(state, dst, src, n: int, nrounds: int) -> None:
    impl.dosimd(state, _from_buffer("uint8_t[]", dst), _from_buffer("uint8_t[]", src), n, nrounds)


#: the x86 ChaCha library (chacha_crypt_arch, hchacha_block_arch): the block code
#: chosen at init, HChaCha with the SSSE3 code, each in its own kernel_fpu_begin/end
LIBRARY = chacha_library.ArchLibrary(present=lambda: impl.dosimd is not None, begin=_fpu_begin,
                                     end=_fpu_end, blocks=_x86_blocks,
                                     hchacha=lambda state, out, nrounds: impl.hchacha(state, out, nrounds))
#: 5.5+'s hchacha_block_arch: the SSSE3 HChaCha in a section of its own where
#: SIMD is usable, else the generic one
_hchacha_own_section = chacha_library.hchacha_block_arch(LIBRARY)


def _step_walk(req, ctx, xchacha: bool) -> None:
    """5.5+: SIMD decided per walk step; 5.5-6.15 one section per step, 6.16+
    the library's rules (crypto_api.algs.chacha_library)."""
    if rule(SECTIONS_RULE, "walk") == chacha_library.LIBRARY:
        chacha_library.library_stream(LIBRARY, req, xchacha)
        return
    generic.stream_steps(req, xchacha, _hchacha_own_section, _one_section_step)


def _one_section_step(state, dst, src, nbytes: int, nrounds: int) -> None:
    """5.5-6.15: a walk step in one FPU section, or the generic code where SIMD is unusable."""
    d, s = _from_buffer("uint8_t[]", dst), _from_buffer("uint8_t[]", src)
    if capi.simd_choice() == GENERIC:
        generic.generic_crypt(state, d, s, nbytes, nrounds)
        return
    _fpu_begin()
    try:
        impl.dosimd(state, d, s, nbytes, nrounds)
        capi.fpu_account(nbytes)
    finally:
        _fpu_end()


def _simd_walk(req, ctx, xchacha: bool) -> None:
    if per_step():
        _step_walk(req, ctx, xchacha)
        return
    views = sg_linear_views(req.src, req.dst, req.cryptlen)
    if views is not None:
        _glue_loop(ctx, req.iv, xchacha, views[0], views[1], req.cryptlen,
                   req.src[0].offset, req.dst[0].offset)
        return
    walk = capi.skcipher_walk_virt(req, atomic=True)
    state = None
    capi.kernel_fpu_begin()
    try:
        state = _simd_state(ctx, req.iv, xchacha)
        nrounds = ctx.nrounds
        dosimd = impl.dosimd
        budget = FPU_YIELD_BYTES
        while walk.nbytes:
            nbytes = walk.nbytes
            if nbytes < walk.total:
                nbytes -= nbytes % walk.stride
                budget -= nbytes
            dosimd(state, _from_buffer("uint8_t[]", walk.dst), _from_buffer("uint8_t[]", walk.src), nbytes, nrounds)
            capi.fpu_account(nbytes)
            if budget <= 0:
                capi.kernel_fpu_yield()
                budget = FPU_YIELD_BYTES
            capi.skcipher_walk_done(walk, walk.nbytes - nbytes)
    finally:
        if state is not None:
            generic.wipe_state(state)
        if capi.in_kernel_fpu():
            capi.kernel_fpu_end()


def chacha_simd(req) -> None:
    tfm = req.tfm
    if tfm.alg.simd_rule.choice(req.cryptlen) == GENERIC:     # 64 bytes or less, or no SIMD
        generic.crypto_chacha_crypt(req)
        return
    _simd_walk(req, tfm.ctx, False)


def xchacha_simd(req) -> None:
    tfm = req.tfm
    if tfm.alg.simd_rule.choice(req.cryptlen) == GENERIC:
        generic.crypto_xchacha_crypt(req)
        return
    _simd_walk(req, tfm.ctx, True)


def simd_contiguous(tfm, src, dst, n, iv) -> bool:
    """Linear entry point with the request path's rules and trace: the
    generic code where the descriptor's ``simd_rule`` says (64 bytes or
    less, or no SIMD), one C call in one section when nothing records, else
    the glue loop replaying its sections."""
    choice = tfm.alg.simd_rule.choice(n)
    if choice == GENERIC:
        return generic.chacha_contiguous(tfm, src, dst, n, iv)
    xchacha = len(iv) == generic.XCHACHA_IV_SIZE
    if choice == DECLINE:
        if per_step():
            return False                # the request path makes the steps' sections
        _glue_loop(tfm.ctx, iv, xchacha, src, dst, n, 0, 0)
        return True
    ctx = tfm.ctx
    # bytes go to C as they are (const pointers); other buffers through from_buffer
    d = _wfb("uint8_t[]", dst, require_writable=True)
    s = src if type(src) is bytes else _wfb("uint8_t[]", src)
    _fpu_begin()
    try:
        _glue_crypt(impl.dosimd_ptr, impl.hchacha_ptr if xchacha else _NULL,
                    ctx.key, iv if type(iv) is bytes else _wfb("uint8_t[]", iv), d, s,
                    n, 0, 0, ctx.nrounds, _NULL, 0)
    finally:
        _fpu_end()
    return True


ALGS = (
    generic.chacha_alg("chacha20", "chacha20-simd", 300, False, 20, chacha_simd, c_stream=simd_c_stream,
                       contiguous=simd_contiguous),
    generic.chacha_alg("xchacha20", "xchacha20-simd", 300, True, 20, xchacha_simd, c_stream=simd_c_stream,
                       contiguous=simd_contiguous, c_stream_lanes=simd_c_stream_lanes),
    generic.chacha_alg("xchacha12", "xchacha12-simd", 300, True, 12, xchacha_simd, c_stream=simd_c_stream,
                       contiguous=simd_contiguous, c_stream_lanes=simd_c_stream_lanes),
)


REGISTERED: list = []


def module_init() -> None:
    ssse3 = boot_cpu_has("ssse3")
    if not ssse3 and chacha_library.library_followed() and chacha_library.library_registers(False):
        # 6.18+: crypto/chacha.c's *-lib are registered on every CPU; without SSSE3 the
        # x86 library has no code, so every call is the generic C (library_stream)
        impl.dosimd = None
        REGISTERED[:] = chacha_library.library_algs("-simd", 300, lambda: LIBRARY, MODULE_NAME)
    else:
        capi.require_cpu(ssse3, "chacha_x86_64", "the CPU lacks SSSE3")
        select_impl()
        log.debug("chacha_x86_64: using the %s code", impl.name)
        REGISTERED[:] = ALGS
    capi.crypto_register_skciphers(REGISTERED)


def module_exit() -> None:
    capi.crypto_unregister_skciphers(REGISTERED)
    REGISTERED.clear()
