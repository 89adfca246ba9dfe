"""One-pass AVX2 ChaCha20-Poly1305 AEADs: a vendor-style driver beyond the kernel.

The kernel has no such driver: no Linux tree (v5.0 to 6.19) has a stitched
ChaCha20-Poly1305 under arch/x86; ``rfc7539(chacha20,poly1305)`` there is
always the template instance ``rfc7539(chacha20-simd,poly1305-simd)``,
priority (300 + 300) / 2 = 300, which makes one pass over the data for
ChaCha20 and another for Poly1305.  This module registers, where the CPU has
AVX2 and the OS saves YMM state (else ENODEV):

* ``rfc7539-chacha20poly1305-avx2``    cra_name ``rfc7539(chacha20,poly1305)``,
  key 32 bytes, IV 12;
* ``rfc7539esp-chacha20poly1305-avx2`` cra_name ``rfc7539esp(chacha20,poly1305)``,
  key 32 bytes + 4-byte salt, IV 8, the AD ending with an unauthenticated
  8-byte IV copy (assoclen < 8 is EINVAL, refused before anything is written);

both at priority 400, above the template instance, as a vendor driver would
be, with the template's construction and bytes (RFC 8439 section 2.8).  The
core (chacha20poly1305_avx2.c) runs one request in one FPU section.  When
crypto_simd_usable() is false the request goes to a fallback transform
allocated the kernel's way, by cra_name with CRYPTO_ALG_NEED_FALLBACK in the
mask: the template instance (whose SIMD children then take their own
generic paths).  Unlike the template, decryption checks the tag in the same
pass and leaves zeros, not unauthenticated plaintext, in the text part of
dst when the tag is wrong (EBADMSG).  The AD part of dst is never written.
``tfm.encrypt``/``decrypt`` on bytes take a one-call path (``oneshot``): the
same core in one C call, declining (to the request path) whenever SIMD is
unusable or an FPU trace records.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.arch.x86.cpufeature import boot_cpu_has
from crypto_api.errors import EBADMSG, EINVAL, CryptoError
from crypto_api.fpu import SIMD, simd_choice
from crypto_api.oneshot import DIRECT_MIN, new_uninit_bytes
from crypto_api.scatterlist import scatterwalk_map_and_copy

MODULE_NAME = "chacha20poly1305_avx2"
MODULE_ARCH = "x86_64"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO(
    "rfc7539(chacha20,poly1305)", "rfc7539esp(chacha20,poly1305)",
    "rfc7539-chacha20poly1305-avx2", "rfc7539esp-chacha20poly1305-avx2")

PRIORITY = 400
KEY_SIZE = 32
NONCE_SIZE = 12
TAG_SIZE = 16
ESP_IV_COPY = 8
ALGS = []


def _linear(req, outlen: int):
    """(src, dst) memoryviews of the whole request when each side is one
    scatterlist entry, else None."""
    src, dst = req.src, req.dst
    if len(src) == 1 and len(dst) == 1:
        s, d = src[0], dst[0]
        if s.length >= req.assoclen + req.cryptlen and d.length >= req.assoclen + outlen:
            return s.buf[s.offset:s.offset + s.length], d.buf[d.offset:d.offset + d.length]
    return None


def _gather(sgl, start: int, n: int) -> bytearray:
    buf = bytearray(n)
    scatterwalk_map_and_copy(buf, sgl, start, n, False)
    return buf


def make_alg(tmpl: str, ivsize: int) -> capi.AeadAlg:
    """The driver for ``tmpl`` ("rfc7539" or "rfc7539esp")."""
    from crypto_api.arch.x86._chacha20poly1305_avx2 import ffi, lib
    seal, open_, fb = lib.chacha20poly1305_seal_avx2, lib.chacha20poly1305_open_avx2, ffi.from_buffer
    driver = f"{tmpl}-chacha20poly1305-avx2"
    cra_name = f"{tmpl}(chacha20,poly1305)"
    saltlen = NONCE_SIZE - ivsize

    def init(tfm):
        ctx = tfm.ctx
        ctx.key = bytearray(KEY_SIZE + saltlen)
        # the best synchronous implementation that needs no fallback itself:
        # the template instance
        ctx.fallback = capi.crypto_alloc_aead(cra_name, 0,
                                              capi.CRYPTO_ALG_NEED_FALLBACK | capi.CRYPTO_ALG_ASYNC)

    def exit_(tfm):
        ctx = tfm.ctx
        ctx.key[:] = bytes(len(ctx.key))
        if getattr(ctx, "fallback", None) is not None:
            ctx.fallback.free()
            ctx.fallback = None

    def setkey(tfm, key):
        ctx = tfm.ctx
        if len(key) != KEY_SIZE + saltlen:
            extra = f" (32-byte key and {saltlen}-byte salt)" if saltlen else ""
            raise CryptoError(EINVAL, f"{driver}: key is {len(key)} bytes, expected "
                                      f"{KEY_SIZE + saltlen}{extra}")
        ctx.fallback.setkey(key)
        ctx.key[:] = key

    def setauthsize(tfm, authsize):
        if authsize != TAG_SIZE:
            raise CryptoError(EINVAL, f"{driver}: authsize {authsize} refused, only {TAG_SIZE} is supported")

    def forward(req, encrypt: bool):
        fb_tfm = req.tfm.ctx.fallback
        sub = capi.aead_request_alloc(fb_tfm)
        capi.aead_request_set_callback(sub, req.flags & ~capi.CRYPTO_TFM_REQ_MAY_BACKLOG, None, None)
        capi.aead_request_set_crypt(sub, req.src, req.dst, req.cryptlen, req.iv)
        capi.aead_request_set_ad(sub, req.assoclen)
        return (capi.crypto_aead_encrypt if encrypt else capi.crypto_aead_decrypt)(sub)

    def crypt(req, encrypt: bool):
        alen = req.assoclen
        if saltlen:
            if alen < ESP_IV_COPY:
                raise CryptoError(EINVAL, f"{driver}: assoclen {alen} cannot hold the "
                                          f"{ESP_IV_COPY}-byte IV copy")
            alen -= ESP_IV_COPY
        if not capi.crypto_simd_usable():
            return forward(req, encrypt)
        ctx = req.tfm.ctx
        n = req.cryptlen - (0 if encrypt else TAG_SIZE)
        key = memoryview(ctx.key)
        nonce = bytes(ctx.key[KEY_SIZE:]) + bytes(req.iv[:ivsize])
        views = _linear(req, n + TAG_SIZE if encrypt else n)
        if views is None:
            ad = _gather(req.src, 0, alen)
            src = _gather(req.src, req.assoclen, req.cryptlen)
            out = bytearray(n + TAG_SIZE)
        else:
            ad = views[0][:alen]
            src = views[0][req.assoclen:req.assoclen + req.cryptlen]
            out = views[1][req.assoclen:req.assoclen + n + TAG_SIZE]
        capi.kernel_fpu_begin()
        try:
            if encrypt:
                seal(fb("uint8_t[]", key), nonce, fb("uint8_t[]", ad), alen, fb("uint8_t[]", src), n,
                     fb("uint8_t[]", out, require_writable=True))
                rc = 0
            else:
                tag = bytes(src[n:n + TAG_SIZE])
                rc = open_(fb("uint8_t[]", key), nonce, fb("uint8_t[]", ad), alen, fb("uint8_t[]", src), n,
                           tag, fb("uint8_t[]", out, require_writable=True))
            capi.fpu_account(alen + n)
        finally:
            capi.kernel_fpu_end()
        if views is None:
            scatterwalk_map_and_copy(out, req.dst, req.assoclen, n + (TAG_SIZE if encrypt else 0), True)
            out[:] = bytes(len(out))
        if rc:
            raise CryptoError(EBADMSG, f"{driver}: authentication failed (tag mismatch)")
        return None

    alloc = ffi.new_allocator(should_clear_after_alloc=False)
    new_bytes = new_uninit_bytes
    direct_min = DIRECT_MIN if new_bytes is not None else float("inf")
    choice_now = simd_choice
    plain = (bytes, bytearray)

    def oneshot(tfm, encrypt: bool):
        """tfm.encrypt/decrypt in one C call for bytes/bytearray arguments
        and no ``out``, when SIMD is usable and no FPU trace records;
        anything else declines to the request path."""
        if tfm.authsize != TAG_SIZE:
            return None
        key = fb("uint8_t[]", tfm.ctx.key)
        salt = bytes(tfm.ctx.key[KEY_SIZE:])
        esp_copy = ESP_IV_COPY if saltlen else 0

        def fn(data, iv, assoc, out):
            if (out is not None or type(data) not in plain or type(assoc) not in plain
                    or type(iv) not in plain or choice_now() != SIMD):
                return None
            # export first, then take the lengths: an exported bytearray cannot shrink under C
            src, ad = fb("uint8_t[]", data), fb("uint8_t[]", assoc)
            alen = len(ad) - esp_copy
            n = len(src) - (0 if encrypt else TAG_SIZE)
            nonce = salt + bytes(iv)
            if alen < 0 or n < 0 or len(nonce) != NONCE_SIZE:
                return None
            outlen = n + TAG_SIZE if encrypt else n
            # long results: C writes straight into the new bytes (crypto_api.oneshot)
            direct = outlen >= direct_min
            buf = new_bytes(None, outlen) if direct else alloc("uint8_t[]", max(outlen, 1))
            if encrypt:
                seal(key, nonce, ad, alen, src, n, buf)
                return buf if direct else bytes(ffi.buffer(buf, outlen))
            if open_(key, nonce, ad, alen, src, n, bytes(data[n:]), buf):
                raise CryptoError(EBADMSG, f"{driver}: authentication failed (tag mismatch); "
                                           "no plaintext released")
            if direct:
                return buf
            res = bytes(ffi.buffer(buf, n))
            ffi.memmove(buf, bytes(n), n)
            return res
        return fn

    return capi.AeadAlg(
        cra_name=cra_name, cra_driver_name=driver, cra_priority=PRIORITY,
        cra_flags=capi.CRYPTO_ALG_NEED_FALLBACK, cra_blocksize=1,
        ivsize=ivsize, maxauthsize=TAG_SIZE, chunksize=64,
        setkey=setkey, setauthsize=setauthsize,
        encrypt=lambda req: crypt(req, True), decrypt=lambda req: crypt(req, False),
        init=init, exit=exit_, oneshot=oneshot)


def module_init() -> None:
    capi.require_cpu(boot_cpu_has("avx") and boot_cpu_has("avx2") and boot_cpu_has("xsave_ymm"),
                     "rfc7539-chacha20poly1305-avx2", "the CPU lacks AVX2 or the OS does not save YMM state")
    ALGS[:] = [make_alg("rfc7539", 12), make_alg("rfc7539esp", 8)]
    capi.crypto_register_aeads(ALGS)


def module_exit() -> None:
    capi.crypto_unregister_aeads(ALGS)
    ALGS.clear()
