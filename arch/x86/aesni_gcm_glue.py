"""The AES-NI GCM AEADs of arch/x86/crypto/aesni-intel_glue.c: one
descriptor per form, core and name.

v5.0's internal ``__driver-generic-gcm-aes-aesni`` (cra_name
``__generic-gcm-aes-aesni``, GCM with a 12-byte IV) and
``__driver-gcm-aes-aesni`` (``__gcm-aes-aesni``, RFC 4106: key = AES key ‖
4-byte salt, IV 8 bytes, AD 16 or 20 bytes ending with an unauthenticated
IV copy), both CRYPTO_ALG_INTERNAL, priority 0, block size 1, tags up to 16
bytes (:func:`internal_alg`); aesni_gcm_wrapper.py puts the public
``generic-gcm-aesni`` / ``rfc4106-gcm-aesni`` (400) over them, as v5.0's
gcmaes_wrapper does.  :func:`gcm_alg` builds the later forms (the
generation's names and priority, internal under the SIMD helper or, 6.16+,
registered directly); aesni_gcm_generations.py says which exist in which
kernel.  The IV, tag and assoclen rules and their refusals are those of
algs/gcm.py (tags 4, 8, 12..16 for GCM, 8/12/16 for RFC 4106).

The core is arch/x86/aesni_gcm.c in one of its forms (:data:`ISA_NAMES`):
AES-NI and PCLMULQDQ; VAES with AVX2; VAES 256-bit with AVX-512VL (the
AVX10/256 CTR); 512-bit VAES and VPCLMULQDQ with AVX-512.  A request runs
in one FPU section (v5.0's gcmaes_crypt_by_sg has one for the request),
scatterlists of one entry each side in place, others gathered into private
buffers (wiped after use).  Decryption follows the kernel's rule: decrypt,
then compare; EBADMSG leaves the unauthenticated plaintext in dst.
``tfm.encrypt`` / ``decrypt`` take a direct path
(crypto_api.direct.aead_direct) while SIMD is usable and no FPU trace
records, where a wrong tag releases nothing.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

import attrs

import crypto_api as capi
from crypto_api.algs.gcm import (GCM_AES_IV_SIZE, GCM_RFC4106_IV_SIZE, SALT_SIZE,
                                 gcm_check_authsize, ipsec_check_assoclen, rfc4106_check_authsize)
from crypto_api.arch.aead_buffers import request_buffers
from crypto_api.direct import aead_direct
from crypto_api.errors import EBADMSG, EINVAL, CryptoError

NONCE_SIZE = 12
MAX_TAG = 16


@attrs.frozen
class GcmForm:
    """One of the two AEADs: its v5.0 internal names, IV size and tag rule;
    ``esp``: the RFC 4106 form (salt in the key, the AD ending with the IV
    copy); ``public``: the cra_name users ask for, ``prefix``: the first
    part of its drivers' names (``generic-gcm``-aesni)."""
    cra_name: str
    driver: str
    ivsize: int
    check_authsize: Callable[[str, int], None]
    esp: bool
    public: str
    prefix: str

    @property
    def saltlen(self) -> int:
        return NONCE_SIZE - self.ivsize


GENERIC = GcmForm("__generic-gcm-aes-aesni", "__driver-generic-gcm-aes-aesni", GCM_AES_IV_SIZE,
                  gcm_check_authsize, False, "gcm(aes)", "generic-gcm")
RFC4106 = GcmForm("__gcm-aes-aesni", "__driver-gcm-aes-aesni", GCM_RFC4106_IV_SIZE,
                  rfc4106_check_authsize, True, "rfc4106(gcm(aes))", "rfc4106-gcm")


#: The core's forms, in the order of aesni_gcm.h's AESNI_GCM_ISA_* codes.
ISA_NAMES = ("aesni", "vaes-avx2", "avx512", "avx10_256")


def _lib():
    from crypto_api.arch.x86._aesni import ffi, lib
    return ffi, lib


def _init(tfm: Any) -> None:
    ffi, _ = _lib()
    ctx = tfm.ctx
    ctx.k = ffi.new("struct aesni_gcm_ctx *")
    ctx.salt = bytearray(SALT_SIZE)


def _setkey(form: GcmForm, isa: int, tfm: Any, key: bytearray) -> None:
    ffi, lib = _lib()
    assert (lib.AESNI_GCM_ISA_AESNI, lib.AESNI_GCM_ISA_VAES_AVX2, lib.AESNI_GCM_ISA_AVX512,
            lib.AESNI_GCM_ISA_AVX10_256) == (0, 1, 2, 3)
    ctx, n, driver = tfm.ctx, len(key), tfm.alg.cra_driver_name
    if form.esp:
        if n < SALT_SIZE:
            raise CryptoError(EINVAL, f"{driver}: key is {n} bytes, shorter than the "
                                      f"{SALT_SIZE}-byte salt it must end with")
        n -= SALT_SIZE
    if lib.aesni_gcm_setkey(ctx.k, ffi.from_buffer("uint8_t[]", key), n, isa):
        raise CryptoError(EINVAL, f"{driver}: AES key is {n} bytes, expected 16, 24 or 32"
                                  + (f" (then the {SALT_SIZE}-byte salt)" if form.esp else ""))
    ctx.k.authsize = tfm.authsize
    if form.esp:
        ctx.salt[:] = key[n:]


def _setauthsize(form: GcmForm, tfm: Any, authsize: int) -> None:
    form.check_authsize(tfm.alg.cra_driver_name, authsize)
    tfm.ctx.k.authsize = authsize


def _crypt(form: GcmForm, req: Any, encrypt: bool) -> None:
    """The request path: one core call in one FPU section."""
    ffi, lib = _lib()
    tfm = req.tfm
    ctx = tfm.ctx
    alen = req.assoclen
    if form.esp:
        ipsec_check_assoclen(req)
        alen -= form.ivsize
    authsize = tfm.authsize
    n = req.cryptlen - (0 if encrypt else authsize)
    nonce = bytes(ctx.salt[:form.saltlen]) + bytes(req.iv[:form.ivsize])
    outlen = n + authsize if encrypt else n
    fb = ffi.from_buffer
    key = ffi.cast("uint8_t *", ctx.k)
    with request_buffers(req, alen, outlen) as (ad, src, out):
        capi.kernel_fpu_begin()
        try:
            if encrypt:
                lib.aesni_gcm_seal(key, nonce, fb("uint8_t[]", ad), alen, fb("uint8_t[]", src), n,
                                   fb("uint8_t[]", out, require_writable=True))
                rc = 0
            else:
                rc = lib.aesni_gcm_decrypt(key, nonce, fb("uint8_t[]", ad), alen, fb("uint8_t[]", src), n,
                                           bytes(src[n:n + authsize]),
                                           fb("uint8_t[]", out, require_writable=True))
            capi.fpu_account(alen + n)
        finally:
            capi.kernel_fpu_end()
    if rc:
        raise CryptoError(EBADMSG, f"{tfm.alg.cra_driver_name}: authentication failed (tag mismatch)")


def _direct(form: GcmForm, tfm: Any, encrypt: bool) -> Optional[Callable]:
    """tfm.encrypt/decrypt in one C call (aead_call.h) for the tag length set
    now; RFC 4106's AD must be 16 or 20 bytes (anything else declines to the
    request path, which refuses it)."""
    ffi, lib = _lib()
    ctx = tfm.ctx
    driver = tfm.alg.cra_driver_name

    def bad_tag():
        raise CryptoError(EBADMSG, f"{driver}: authentication failed (tag mismatch); "
                                   "no plaintext released")

    name = "aesni_gcm_seal" if encrypt else "aesni_gcm_open"
    fn = aead_direct(ffi.addressof(lib, name), ffi.cast("uint8_t *", ctx.k), ctx.k,
                     bytes(ctx.salt[:form.saltlen]), NONCE_SIZE, tfm.authsize,
                     form.ivsize if form.esp else 0, encrypt, bad_tag)
    if fn is None or not form.esp:
        return fn

    def esp(data, iv, assoc, out):
        try:
            alen = memoryview(assoc).nbytes
        except TypeError:
            return None                 # not a buffer: the full path says why
        return fn(data, iv, assoc, out) if alen in (16, 20) else None
    return esp


def gcm_alg(form: GcmForm, isa: str, cra_name: str, driver: str, priority: int, flags: int = 0,
            alignmask: int = 0, chunksize: int = 16) -> capi.AeadAlg:
    """``form``'s AEAD named ``cra_name``/``driver`` running the core's ``isa``
    code (one of :data:`ISA_NAMES`; the caller checks the CPU has it).  The
    defaults are 6.11+'s DEFINE_GCM_ALGS: no alignmask, chunk size 16."""
    code = ISA_NAMES.index(isa)
    return capi.AeadAlg(
        cra_name=cra_name, cra_driver_name=driver, cra_priority=priority,
        cra_flags=flags, cra_blocksize=1, cra_alignmask=alignmask,
        ivsize=form.ivsize, maxauthsize=MAX_TAG, chunksize=chunksize,
        init=_init, setkey=lambda tfm, key: _setkey(form, code, tfm, key),
        setauthsize=lambda tfm, a: _setauthsize(form, tfm, a),
        encrypt=lambda req: _crypt(form, req, True), decrypt=lambda req: _crypt(form, req, False),
        direct=lambda tfm, encrypt: _direct(form, tfm, encrypt))


def internal_alg(form: GcmForm, isa: str) -> capi.AeadAlg:
    """v5.0's internal AEAD of ``form`` running the core's ``isa`` code
    (priority 0, alignmask 15, chunk size 1: the kernel's cra_blocksize)."""
    return gcm_alg(form, isa, form.cra_name, form.driver, 0, capi.CRYPTO_ALG_INTERNAL, 15, 1)
