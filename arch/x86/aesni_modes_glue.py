"""The internal AES-NI mode skciphers of arch/x86/crypto/aesni-intel_glue.c
(v5.0): ``__ecb/__cbc/__ctr/__xts-aes-aesni`` (CRYPTO_ALG_INTERNAL, priority
400, XTS 401), and beyond v5.0 ``__xts/__ctr-aes-vaes-avx2`` (600),
``-vaes-avx10_256`` (700) and ``-vaes-avx10_512`` (800) with the names of
the kernels before 6.16 (which renamed the 512-bit ones ``-vaes-avx512`` and
dropped ``-vaes-avx10_256``), where the CPU has what each needs.
aesni_glue.py registers them with their SIMD wrappers (crypto_api.simd).

FPU behaviour as v5.0: one kernel_fpu_begin/end section for the whole
request (the wrapper only calls them where SIMD is usable).  XTS as later
kernels: 32-, 48- or 64-byte keys (data key first, tweak key second; equal
halves refused only with CRYPTO_TFM_REQ_FORBID_WEAK_KEYS), lengths of 16
bytes or more with ciphertext stealing; it leaves the IV untouched (v5.0's
driver overwrote it; no test reads it).  CBC and CTR leave the next IV in
the request, as the templates do.  The C loops are arch/x86/aesni_modes.c
and aesni_vaes.c.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

import attrs

import crypto_api as capi
from crypto_api.algs.xts import xts_verify_key   # include/crypto/xts.h: one check for every xts(aes)
from crypto_api.arch.x86._aesni import ffi, lib
from crypto_api.errors import EINVAL, CryptoError
from crypto_api.oneshot import (DIRECT_MIN, SCRATCH_MAX, OutputScratch, new_uninit_bytes,
                                output_scratch)
from crypto_api.scatterlist import (as_byte_view, sg_copy_from_bytes, sg_copy_to_bytes,
                                    sg_linear_views)

AES_BLOCK_SIZE = 16
_from_buffer = ffi.from_buffer
_simd_choice = capi.simd_choice
_SIMD = capi.SIMD


@attrs.frozen
class AesMode:
    """One mode: its names, sizes and C entry ``run(ctx, out, in, n, iv, encrypt)``."""
    name: str                       # "ecb", "cbc", "ctr", "xts"
    impl: str                       # "aesni", "vaes-avx2"
    priority: int
    run: Callable[..., int]
    blocksize: int = AES_BLOCK_SIZE
    ivsize: int = AES_BLOCK_SIZE
    keys: int = 1                   # XTS: two AES keys
    writes_iv: bool = True

    @property
    def driver(self) -> str:
        return f"__{self.name}-aes-{self.impl}"

    def bad_length(self, n: int) -> Optional[str]:
        if self.name == "xts":
            return None if n >= AES_BLOCK_SIZE else "XTS needs at least 16 bytes"
        if self.blocksize == AES_BLOCK_SIZE and n % AES_BLOCK_SIZE:
            return "not a multiple of the 16-byte block size"
        return None


def _ecb(ctx, out, inp, n, iv, encrypt):
    (lib.aesni_ecb_encrypt if encrypt else lib.aesni_ecb_decrypt)(ctx.k, out, inp, n // 16)
    return 0


def _cbc(ctx, out, inp, n, iv, encrypt):
    (lib.aesni_cbc_encrypt if encrypt else lib.aesni_cbc_decrypt)(ctx.k, out, inp, n // 16, iv)
    return 0


def _ctr(ctx, out, inp, n, iv, encrypt):
    lib.aesni_ctr_crypt(ctx.k, out, inp, n, iv)
    return 0


def _vaes_ctr(fn: Callable) -> Callable:
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


ECB = AesMode("ecb", "aesni", 400, _ecb, ivsize=0, writes_iv=False)
CBC = AesMode("cbc", "aesni", 400, _cbc)
CTR = AesMode("ctr", "aesni", 400, _ctr, blocksize=1)
XTS = AesMode("xts", "aesni", 401, _xts, keys=2, writes_iv=False)
CTR_VAES = AesMode("ctr", "vaes-avx2", 600, _vaes_ctr(lib.aes_vaes_avx2_ctr_crypt), blocksize=1)
XTS_VAES = AesMode("xts", "vaes-avx2", 600, _vaes_xts(lib.aes_vaes_avx2_xts_crypt), keys=2,
                   writes_iv=False)
CTR_AVX10_256 = attrs.evolve(CTR_VAES, impl="vaes-avx10_256", priority=700,
                             run=_vaes_ctr(lib.aes_vaes_avx10_256_ctr_crypt))
XTS_AVX10_256 = attrs.evolve(XTS_VAES, impl="vaes-avx10_256", priority=700,
                             run=_vaes_xts(lib.aes_vaes_avx10_256_xts_crypt))
CTR_AVX10_512 = attrs.evolve(CTR_VAES, impl="vaes-avx10_512", priority=800,
                             run=_vaes_ctr(lib.aes_vaes_avx10_512_ctr_crypt))
XTS_AVX10_512 = attrs.evolve(XTS_VAES, impl="vaes-avx10_512", priority=800,
                             run=_vaes_xts(lib.aes_vaes_avx10_512_xts_crypt))


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
    """The request path: one FPU section for the whole request (v5.0)."""
    tfm = req.tfm
    n = req.cryptlen
    why = mode.bad_length(n)
    if why is not None:
        raise CryptoError(EINVAL, f"{tfm.alg.cra_driver_name}: cryptlen {n}: {why}")
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


def _oneshot(mode: AesMode, tfm: Any, encrypt: bool) -> Callable:
    """tfm.encrypt/decrypt in one C call for bytes in, new bytes out, while
    simd_choice() says SIMD; everything else declines to the request path."""
    ctx, run, ivsize, bad = tfm.ctx, mode.run, mode.ivsize, mode.bad_length

    def fast(data, iv, out):
        if out is not None or type(data) is not bytes or _simd_choice() != _SIMD:
            return None
        if ivsize:
            if type(iv) is not bytes or len(iv) != ivsize:
                return None
            ivb = ffi.new("uint8_t[16]", iv)          # the caller's IV is not changed
        elif iv is not None:
            return None
        else:
            ivb = ffi.NULL
        n = len(data)
        if bad(n) is not None:
            return None
        if not n:
            return b""
        if n >= direct_min:                 # written straight into the bytes returned
            res = new_bytes(None, n)
            if run(ctx, _from_buffer("uint8_t[]", res), _from_buffer("uint8_t[]", data), n, ivb,
                   encrypt):
                return None
            return res
        try:
            state = take()                  # the tfm's reusable output buffer
            pooled = True
        except IndexError:                  # in use (another thread): a fresh one
            state, pooled = (None, None, 0), False
        if state[2] < n:
            state = grow(state, n)
        try:
            if run(ctx, ffi.cast("uint8_t *", state[0]), _from_buffer("uint8_t[]", data), n, ivb,
                   encrypt):
                return None
            return state[1][:n]             # new bytes
        finally:
            if pooled:                      # a huge buffer is not kept
                give(state if state[2] <= SCRATCH_MAX else (None, None, 0))
    scratch = output_scratch(ctx)
    take, give, grow = scratch.pool.pop, scratch.pool.append, OutputScratch.grow
    new_bytes = new_uninit_bytes
    direct_min = DIRECT_MIN if new_bytes is not None else SCRATCH_MAX + 1
    return fast


def internal_alg(mode: AesMode) -> capi.SkcipherAlg:
    """The ``__<mode>-aes-<impl>`` internal skcipher."""
    minkey, maxkey = 16 * mode.keys, 32 * mode.keys
    return capi.SkcipherAlg(
        cra_name=f"__{mode.name}(aes)", cra_driver_name=mode.driver, cra_priority=mode.priority,
        cra_flags=capi.CRYPTO_ALG_INTERNAL, cra_blocksize=mode.blocksize,
        min_keysize=minkey, max_keysize=maxkey, ivsize=mode.ivsize,
        chunksize=AES_BLOCK_SIZE, walksize=AES_BLOCK_SIZE,
        setkey=lambda tfm, key: _setkey(mode, tfm, key),
        encrypt=lambda req: _req_crypt(mode, req, True),
        decrypt=lambda req: _req_crypt(mode, req, False),
        oneshot=lambda tfm, encrypt: _oneshot(mode, tfm, encrypt))
