"""The internal AES-NI mode skciphers of arch/x86/crypto/aesni-intel_glue.c
(v5.0): ``__ecb/__cbc/__ctr/__xts-aes-aesni`` (CRYPTO_ALG_INTERNAL, priority
400, XTS 401), and beyond v5.0 ``__xts/__ctr-aes-vaes-avx2`` (600),
``-vaes-avx10_256`` (700) and ``-vaes-avx10_512`` (800) with the names of
the kernels before 6.16 (which renamed the 512-bit ones ``-vaes-avx512`` and
dropped ``-vaes-avx10_256``), where the CPU has what each needs; the
``__xts/__ctr-aes-aesni-avx`` (500, AVX) on the AES-NI routines; and 6.0's
``__xctr-aes-aesni`` (400, the counter mode of HCTR2, crypto/xctr.c's
XCTR: block i from 1 is E(IV ⊕ le32(i)), the IV left unchanged).
aesni_glue.py registers them with their SIMD wrappers (crypto_api.simd).

FPU behaviour as v5.0: one kernel_fpu_begin/end section for the whole
request (the wrapper only calls them where SIMD is usable); from 5.11
(``aesni.modes_sections`` = "step" in the kernel-version table) ECB, CBC and
CTR open one section per walk step instead (XTS and XCTR keep one: not modelled).  ``tfm.encrypt``
/ ``decrypt`` (new bytes, ``out=`` or in place) take one C call instead
(aesni_mode_direct through crypto_api.direct.skcipher_direct) while SIMD is
usable and no FPU trace records; everything else takes the request path.  XTS as later
kernels: 32-, 48- or 64-byte keys (data key first, tweak key second; equal
halves refused only with CRYPTO_TFM_REQ_FORBID_WEAK_KEYS), lengths of 16
bytes or more with ciphertext stealing (5.12+; before it, ``aesni.xts_stealing``
in the kernel-version table: whole blocks only, 0 bytes a no-op); it leaves the IV untouched (v5.0's
driver overwrote it; no test reads it).  CBC and CTR leave the next IV in
the request, as the templates do.  The C loops are arch/x86/aesni_modes.c
and aesni_vaes.c.
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Tuple

import attrs

import crypto_api as capi
from crypto_api.algs.xts import xts_verify_key   # include/crypto/xts.h: one check for every xts(aes)
from crypto_api.arch.x86._aesni import ffi, lib
from crypto_api.cinterface import CbcEntries, Kind, Offer, XctrEntries, XtsEntries
from crypto_api.errors import EINVAL, CryptoError
from crypto_api.direct import skcipher_direct
from crypto_api.simd_rule import SimdRule
from crypto_api.version_rules import rule
from crypto_api.scatterlist import (as_byte_view, sg_copy_from_bytes, sg_copy_to_bytes,
                                    sg_linear_views)

AES_BLOCK_SIZE = 16
_from_buffer = ffi.from_buffer
_DIRECT_MODES = {"ecb": lib.AESNI_DIRECT_ECB, "cbc": lib.AESNI_DIRECT_CBC,
                  "ctr": lib.AESNI_DIRECT_CTR, "xts": lib.AESNI_DIRECT_XTS,
                  "xctr": lib.AESNI_DIRECT_XCTR}
_direct_crypt_ptr = ffi.addressof(lib, "aesni_mode_direct")
#: The internal drivers have SIMD code only (their wrapper queues to cryptd
#: where SIMD is unusable): the direct path declines anything but SIMD.
SIMD_ONLY = SimdRule(only=True)


@attrs.frozen
class AesMode:
    """One mode: its names, sizes, C entry ``run(ctx, out, in, n, iv, encrypt)``
    and the names of its C routines (encrypt, decrypt) for the one-call path."""
    name: str                       # "ecb", "cbc", "ctr", "xts"
    impl: str                       # "aesni", "vaes-avx2"
    priority: int
    run: Callable[..., int]
    routines: Tuple[str, str]
    blocksize: int = AES_BLOCK_SIZE
    ivsize: int = AES_BLOCK_SIZE
    keys: int = 1                   # XTS: two AES keys
    writes_iv: bool = True
    walksize: int = AES_BLOCK_SIZE
    stem: str = ""                  # the driver's stem where it is not the name ("cts-cbc")
    cra: str = ""                   # the cra_name where it is not "<name>(aes)"

    @property
    def driver(self) -> str:
        return f"__{self.stem or self.name}-aes-{self.impl}"

    @property
    def cra_name(self) -> str:
        return self.cra or f"{self.name}(aes)"

    def bad_length(self, n: int) -> Optional[str]:
        if self.name == "xts" and not xts_stealing():
            return "not a multiple of 16 bytes (no ciphertext stealing before 5.12)" if n % AES_BLOCK_SIZE else None
        if self.name in ("xts", "cts"):
            return None if n >= AES_BLOCK_SIZE else f"{self.name.upper()} needs at least 16 bytes"
        if self.blocksize == AES_BLOCK_SIZE and n % AES_BLOCK_SIZE:
            return "not a multiple of the 16-byte block size"
        return None

    @property
    def min_len(self) -> int:
        """The one-call path's shortest length (shorter: bad_length)."""
        return AES_BLOCK_SIZE if self.name == "xts" and xts_stealing() else 0

    @property
    def align(self) -> int:
        """The one-call path's length multiple (others: bad_length)."""
        if self.name == "xts":
            return 1 if xts_stealing() else AES_BLOCK_SIZE
        return AES_BLOCK_SIZE if self.blocksize == AES_BLOCK_SIZE else 1


def xts_stealing() -> bool:
    """True where the chosen kernel's x86 XTS drivers steal ciphertext (5.12+, the composite's)."""
    return rule("aesni.xts_stealing", "stealing") == "stealing"


def _ecb(ctx, out, inp, n, iv, encrypt):
    (lib.aesni_ecb_encrypt if encrypt else lib.aesni_ecb_decrypt)(ctx.k, out, inp, n // 16)
    return 0


def _cbc(ctx, out, inp, n, iv, encrypt):
    (lib.aesni_cbc_encrypt if encrypt else lib.aesni_cbc_decrypt)(ctx.k, out, inp, n // 16, iv)
    return 0


def _ctr(ctx, out, inp, n, iv, encrypt):
    lib.aesni_ctr_crypt(ctx.k, out, inp, n, iv)
    return 0


def _xctr(ctx, out, inp, n, iv, encrypt):
    lib.aesni_xctr_crypt(ctx.k, out, inp, n, iv)
    return 0


def _vaes_ctr(fn: Callable) -> Callable:
    """A VAES CTR or XCTR routine (same arguments: key, out, in, nbytes, iv) as a mode's run."""
    def run(ctx, out, inp, n, iv, encrypt):
        fn(ctx.k, out, inp, n, iv)
        return 0
    return run


def _vaes_xts(fn: Callable) -> Callable:
    def run(ctx, out, inp, n, iv, encrypt):
        return fn(ctx.k, ctx.k + 1, out, inp, n, iv, 0 if encrypt else 1)
    return run


def _xts(ctx, out, inp, n, iv, encrypt):
    return lib.aesni_xts_crypt(ctx.k, ctx.k + 1, out, inp, n, iv, 0 if encrypt else 1)


def _both(name: str) -> Tuple[str, str]:
    return (name, name)


ECB = AesMode("ecb", "aesni", 400, _ecb, ("aesni_ecb_encrypt", "aesni_ecb_decrypt"), ivsize=0,
              writes_iv=False)
CBC = AesMode("cbc", "aesni", 400, _cbc, ("aesni_cbc_encrypt", "aesni_cbc_decrypt"))
CTR = AesMode("ctr", "aesni", 400, _ctr, _both("aesni_ctr_crypt"), blocksize=1)
XTS = AesMode("xts", "aesni", 401, _xts, _both("aesni_xts_crypt"), keys=2, writes_iv=False)
#: 6.0's __xctr-aes-aesni (HCTR2's counter mode; the kernel registers it only with AVX)
XCTR = AesMode("xctr", "aesni", 400, _xctr, _both("aesni_xctr_crypt"), blocksize=1, writes_iv=False)
#: 6.10's xts-aes-aesni-avx and 6.15's ctr-aes-aesni-avx (500, where AVX is usable), and the
#: xctr-aes-aesni-avx of the glue that defines all three per generation (6.17 read): the kernel's
#: are the AES-NI code VEX-encoded; here the AES-NI routines (this project builds them once)
XTS_AVX = attrs.evolve(XTS, impl="aesni-avx", priority=500)
CTR_AVX = attrs.evolve(CTR, impl="aesni-avx", priority=500)
XCTR_AVX = attrs.evolve(XCTR, impl="aesni-avx", priority=500)
CTR_VAES = AesMode("ctr", "vaes-avx2", 600, _vaes_ctr(lib.aes_vaes_avx2_ctr_crypt),
                   _both("aes_vaes_avx2_ctr_crypt"), blocksize=1)
XTS_VAES = AesMode("xts", "vaes-avx2", 600, _vaes_xts(lib.aes_vaes_avx2_xts_crypt),
                   _both("aes_vaes_avx2_xts_crypt"), keys=2, writes_iv=False)
CTR_AVX10_256 = attrs.evolve(CTR_VAES, impl="vaes-avx10_256", priority=700,
                             run=_vaes_ctr(lib.aes_vaes_avx10_256_ctr_crypt),
                             routines=_both("aes_vaes_avx10_256_ctr_crypt"))
XTS_AVX10_256 = attrs.evolve(XTS_VAES, impl="vaes-avx10_256", priority=700,
                             run=_vaes_xts(lib.aes_vaes_avx10_256_xts_crypt),
                             routines=_both("aes_vaes_avx10_256_xts_crypt"))
CTR_AVX10_512 = attrs.evolve(CTR_VAES, impl="vaes-avx10_512", priority=800,
                             run=_vaes_ctr(lib.aes_vaes_avx10_512_ctr_crypt),
                             routines=_both("aes_vaes_avx10_512_ctr_crypt"))
XTS_AVX10_512 = attrs.evolve(XTS_VAES, impl="vaes-avx10_512", priority=800,
                             run=_vaes_xts(lib.aes_vaes_avx10_512_xts_crypt),
                             routines=_both("aes_vaes_avx10_512_xts_crypt"))
#: the VAES XCTR generations (600, 800; the 512-bit one named -vaes-avx512 by the kernels that have it)
XCTR_VAES = attrs.evolve(XCTR, impl="vaes-avx2", priority=600, run=_vaes_ctr(lib.aes_vaes_avx2_xctr_crypt),
                         routines=_both("aes_vaes_avx2_xctr_crypt"))
XCTR_AVX10_512 = attrs.evolve(XCTR, impl="vaes-avx10_512", priority=800,
                              run=_vaes_ctr(lib.aes_vaes_avx10_512_xctr_crypt),
                              routines=_both("aes_vaes_avx10_512_xctr_crypt"))


def _setkey(mode: AesMode, tfm: Any, key: bytearray) -> None:
    ctx = tfm.ctx
    n = len(key)
    if mode.keys == 2:
        xts_verify_key(tfm, key)
        n //= 2
    old = getattr(ctx, "k", None)
    if old is not None:
        lib.crypto_memzero(old, ffi.sizeof(old))
    k = ctx.k = ffi.new("struct aesni_ctx[]", mode.keys)
    for i in range(mode.keys):
        if lib.aesni_setkey(k + i, _from_buffer("uint8_t[]", key)[i * n:(i + 1) * n], n):
            raise CryptoError(EINVAL, f"{mode.driver}: key is {len(key)} bytes, expected "
                                      + ("32, 48 or 64" if mode.keys == 2 else "16, 24 or 32"))


def _req_crypt(mode: AesMode, req: Any, encrypt: bool) -> int:
    """The request path: one FPU section for the whole request (v5.0), or
    per walk step (5.11+, ECB/CBC/CTR)."""
    tfm = req.tfm
    n = req.cryptlen
    why = mode.bad_length(n)
    if why is not None:
        raise CryptoError(EINVAL, f"{tfm.alg.cra_driver_name}: cryptlen {n}: {why}")
    if not n and mode.name == "xts":
        return 0                        # no stealing (before 5.12): an empty walk, no section
    if mode.name in _STEP_MODES and rule("aesni.modes_sections", "request") == "step":
        return _step_crypt(mode, req, encrypt)
    views = sg_linear_views(req.src, req.dst, n)
    if views is None:
        src, dst = sg_copy_to_bytes(req.src, n), bytearray(n)
    else:
        src, dst = views
    ps = _from_buffer("uint8_t[]", src)
    pd = _from_buffer("uint8_t[]", dst, require_writable=True)
    if len(ps) < n or len(pd) < n:
        raise CryptoError(EINVAL, f"{tfm.alg.cra_driver_name}: buffers shorter than cryptlen {n}")
    iv = ffi.NULL
    if mode.ivsize:
        iv = ffi.new("uint8_t[16]", bytes(as_byte_view(req.iv, "iv")[:AES_BLOCK_SIZE]))
    capi.kernel_fpu_begin()
    try:
        capi.fpu_account(n)
        err = mode.run(tfm.ctx, pd, ps, n, iv, encrypt)
    finally:
        capi.kernel_fpu_end()
    if err:
        raise CryptoError(-err, f"{tfm.alg.cra_driver_name}: request of {n} bytes refused")
    if views is None:
        sg_copy_from_bytes(req.dst, dst)
    if mode.writes_iv:
        as_byte_view(req.iv, "iv")[:AES_BLOCK_SIZE] = ffi.buffer(iv)[:]
    return 0


#: The modes whose sections follow the walk's steps from 5.11 (XTS and XCTR keep one per request:
#: their C routines start from the request's IV, not from where a step ended).
_STEP_MODES = ("ecb", "cbc", "ctr")


def _step_crypt(mode: AesMode, req: Any, encrypt: bool) -> int:
    """5.11+'s ECB/CBC/CTR: a non-atomic walk, one FPU section per step (non-final
    steps whole blocks), the IV carried from step to step."""
    tfm = req.tfm
    iv = ffi.NULL
    if mode.ivsize:
        iv = ffi.new("uint8_t[16]", bytes(as_byte_view(req.iv, "iv")[:AES_BLOCK_SIZE]))
    walk = capi.skcipher_walk_virt(req, atomic=False)
    while walk.nbytes:
        n = walk.nbytes
        if n < walk.total:
            n -= n % AES_BLOCK_SIZE
        pd = _from_buffer("uint8_t[]", walk.dst, require_writable=True)
        ps = _from_buffer("uint8_t[]", walk.src)
        capi.kernel_fpu_begin()
        try:
            capi.fpu_account(n)
            err = mode.run(tfm.ctx, pd, ps, n, iv, encrypt)
        finally:
            capi.kernel_fpu_end()
        if err:
            raise CryptoError(-err, f"{tfm.alg.cra_driver_name}: step of {n} bytes refused")
        capi.skcipher_walk_done(walk, walk.nbytes - n)
    if mode.writes_iv:
        as_byte_view(req.iv, "iv")[:AES_BLOCK_SIZE] = ffi.buffer(iv)[:]
    return 0


def _direct(mode: AesMode, tfm: Any, encrypt: bool) -> Callable:
    """tfm.encrypt/decrypt in one C call (aesni_mode_direct) through the
    skcipher direct path of crypto_api.direct (new bytes, ``out=`` or in
    place), while simd_choice() says SIMD; anything else, and lengths the
    mode refuses, decline to the request path (which says why)."""
    ctx = tfm.ctx
    h = ffi.new("struct aesni_direct *")
    h.ctx = ctx.k                       # kept alive with the function (keep=)
    h.fn = ffi.cast("void (*)(void)", ffi.addressof(lib, mode.routines[0 if encrypt else 1]))
    h.mode = _DIRECT_MODES[mode.name]
    h.dec = 0 if encrypt else 1
    return skcipher_direct(_direct_crypt_ptr, h, h, mode.ivsize, min_len=mode.min_len,
                           align=mode.align, rule=tfm.alg.simd_rule, returns_int=True, keep=ctx.k)


def _xts_entries(mode: AesMode) -> Callable:
    """The XTS offer (crypto_api.cinterface): the mode's C routine on the two
    key schedules; SIMD code only, so nothing without SIMD."""
    crypt = ffi.addressof(lib, mode.routines[0])

    def get(tfm: Any, simd: bool) -> Optional[XtsEntries]:
        k = tfm.ctx.k
        return XtsEntries(crypt=crypt, key=k, tweak_key=k + 1) if simd else None
    return get


def _cbc_entries(mode: AesMode) -> Callable:
    """The CBC offer: the mode's C routines (SIMD code only)."""
    enc, dec = (ffi.addressof(lib, name) for name in mode.routines)

    def get(tfm: Any, simd: bool) -> Optional[CbcEntries]:
        return CbcEntries(encrypt=enc, decrypt=dec, key=tfm.ctx.k) if simd else None
    return get


def _xctr_entries(mode: AesMode) -> Callable:
    """The XCTR offer (HCTR2's counter mode): the mode's C routine (SIMD code only)."""
    crypt = ffi.addressof(lib, mode.routines[0])

    def get(tfm: Any, simd: bool) -> Optional[XctrEntries]:
        return XctrEntries(crypt=crypt, key=tfm.ctx.k) if simd else None
    return get


#: mode name -> (the kind it offers templates, the offer's maker)
_OFFERS = {"xts": (Kind.XTS, _xts_entries), "cbc": (Kind.CBC, _cbc_entries),
           "xctr": (Kind.XCTR, _xctr_entries)}


def mode_alg(mode: AesMode, cra_name: str, driver: str, flags: int) -> capi.SkcipherAlg:
    """The skcipher of ``mode`` under the names given (internal or public)."""
    minkey, maxkey = 16 * mode.keys, 32 * mode.keys
    offer = _OFFERS.get(mode.name)
    return capi.SkcipherAlg(
        cra_name=cra_name, cra_driver_name=driver, cra_priority=mode.priority,
        cra_flags=flags, cra_blocksize=mode.blocksize,
        min_keysize=minkey, max_keysize=maxkey, ivsize=mode.ivsize,
        chunksize=AES_BLOCK_SIZE, walksize=mode.walksize,
        setkey=lambda tfm, key: _setkey(mode, tfm, key),
        encrypt=lambda req: _req_crypt(mode, req, True),
        decrypt=lambda req: _req_crypt(mode, req, False),
        direct=(lambda tfm, encrypt: _direct(mode, tfm, encrypt)) if mode.name in _DIRECT_MODES else None,
        c_entries=() if offer is None else (Offer(offer[0], offer[1](mode)),),
        simd_rule=SIMD_ONLY)


def internal_alg(mode: AesMode) -> capi.SkcipherAlg:
    """The ``__<mode>-aes-<impl>`` internal skcipher (up to 6.15, under its SIMD wrapper)."""
    return mode_alg(mode, "__" + mode.cra_name, mode.driver, capi.CRYPTO_ALG_INTERNAL)


def public_alg(mode: AesMode) -> capi.SkcipherAlg:
    """The ``<mode>-aes-<impl>`` skcipher as 6.16+ registers it: directly,
    synchronous, no SIMD wrapper (kernel-mode FPU taken as usable)."""
    return mode_alg(mode, mode.cra_name, mode.driver[2:], 0)
