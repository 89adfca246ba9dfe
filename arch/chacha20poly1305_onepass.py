"""The glue shared by the one-pass ("stitched") ChaCha20-Poly1305 AEAD drivers.

Beyond the kernel, which has no such driver on any architecture: there
``rfc7539(chacha20,poly1305)`` is always the rfc7539 template instance
(crypto/chacha20poly1305.c), one skcipher pass and one shash pass.  A
vendor-style one-pass driver registers the template's names
(``rfc7539(chacha20,poly1305)``, ``rfc7539esp(chacha20,poly1305)``) under
its own driver names at a priority above the instance, with the template's
construction and bytes (RFC 8439 section 2.8).  What each architecture
supplies is a :class:`OnePassCore`: the core's seal/open entry points and
its SIMD section (x86: kernel_fpu_begin/end; arm64: kernel_neon_begin/end).
The rest is here, once:

* key (32 bytes, + a 4-byte salt for rfc7539esp) and authsize (16 only)
  checks, CryptoError(EINVAL) naming the driver;
* rfc7539esp's AD ending with an unauthenticated 8-byte IV copy
  (assoclen < 8 is EINVAL, refused before anything is written);
* one core call per request inside one SIMD section, which records the
  bytes of AD and text it covered (``fpu_account``);
* when crypto_simd_usable() is false, the request goes to a fallback
  transform allocated the kernel's way, by cra_name with
  CRYPTO_ALG_NEED_FALLBACK in the mask: the template instance;
* scatterlists of one entry each side are used in place, others gathered
  into private buffers (wiped after use);
* decryption checks the tag in the same pass; a wrong tag is EBADMSG and
  leaves zeros, never unauthenticated plaintext, in dst's text; the AD part
  of dst is never written.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

import attrs

import crypto_api as capi
from crypto_api.errors import EBADMSG, EINVAL, CryptoError
from crypto_api.arch.aead_buffers import request_buffers

KEY_SIZE = 32
NONCE_SIZE = 12
TAG_SIZE = 16
ESP_IV_COPY = 8

#: seal(key, nonce, ad, adlen, src, n, out): out[:n] = ciphertext, out[n:n+16] = tag
Seal = Callable[[Any, bytes, Any, int, Any, int, Any], Any]
#: open(key, nonce, ad, adlen, src, n, tag, out) -> 0, or nonzero (out[:n] zeroed) on a bad tag
Open = Callable[[Any, bytes, Any, int, Any, int, bytes, Any], int]


@attrs.frozen(kw_only=True)
class OnePassCore:
    """How the drivers of one architecture reach their one-pass core.

    ``suffix`` names the drivers (``rfc7539-chacha20poly1305-<suffix>``);
    ``seal``/``open`` take Python buffers (memoryviews, bytearrays);
    ``begin``/``end`` open and close the SIMD section around one call;
    ``direct``, when given, is called as ``direct(driver, saltlen)`` and
    returns the AeadAlg ``direct`` hook (an in-process direct path)."""

    suffix: str
    seal: Seal
    open: Open
    begin: Callable[[], None]
    end: Callable[[], None]
    priority: int = 400
    direct: Optional[Callable[[str, int], Any]] = None


def make_onepass_aead(tmpl: str, ivsize: int, core: OnePassCore) -> capi.AeadAlg:
    """The one-pass driver for ``tmpl`` ("rfc7539", IV 12, or "rfc7539esp", IV 8)."""
    seal, open_ = core.seal, core.open
    driver = f"{tmpl}-chacha20poly1305-{core.suffix}"
    cra_name = f"{tmpl}(chacha20,poly1305)"
    saltlen = NONCE_SIZE - ivsize

    def init(tfm):
        # the best synchronous implementation that needs no fallback itself:
        # the template instance
        tfm.ctx.key = bytearray(KEY_SIZE + saltlen)
        tfm.ctx.fallback = capi.crypto_alloc_aead(cra_name, 0,
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
        sub = capi.aead_request_alloc(req.tfm.ctx.fallback)
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
        key = memoryview(ctx.key)[:KEY_SIZE]
        nonce = bytes(ctx.key[KEY_SIZE:]) + bytes(req.iv[:ivsize])
        outlen = n + TAG_SIZE if encrypt else n
        with request_buffers(req, alen, outlen) as (ad, src, out):
            core.begin()
            try:
                if encrypt:
                    seal(key, nonce, ad, alen, src, n, out)
                    rc = 0
                else:
                    rc = open_(key, nonce, ad, alen, src[:n], n, bytes(src[n:]), out)
                capi.fpu_account(alen + n)
            finally:
                core.end()
        if rc:
            raise CryptoError(EBADMSG, f"{driver}: authentication failed (tag mismatch)")
        return None

    return capi.AeadAlg(
        cra_name=cra_name, cra_driver_name=driver, cra_priority=core.priority,
        cra_flags=capi.CRYPTO_ALG_NEED_FALLBACK, cra_blocksize=1,
        ivsize=ivsize, maxauthsize=TAG_SIZE, chunksize=64,
        setkey=setkey, setauthsize=setauthsize,
        encrypt=lambda req: crypt(req, True), decrypt=lambda req: crypt(req, False),
        init=init, exit=exit_,
        direct=core.direct(driver, saltlen) if core.direct is not None else None)
