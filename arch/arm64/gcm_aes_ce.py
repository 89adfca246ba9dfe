"""``gcm-aes-ce``: AES-GCM with the ARMv8 Crypto Extensions, the AEAD of
arch/arm64/crypto/ghash-ce-glue.c (v5.0); module ghash_ce
(arch/arm64/ghash_ce_glue.py) registers it.

cra_name ``gcm(aes)``, priority 300, block size 1, IV 12 bytes, chunk size
16, tags 4, 8 or 12..16 bytes (algs/gcm.py's rule, EINVAL otherwise).
setkey: AES keys of 16/24/32 bytes (EINVAL otherwise); the key schedule and
H = AES(K, 0) come from the core's AES-CE code in one NEON section, without
asking whether SIMD is usable (the kernel runs its AES library there: a
section the kernel does not open).

A request runs in one NEON section and one core call (``gcm_aes_ce``:
AES-CE CTR and PMULL GHASH over the AD and text), where the kernel (read in
a 5.4-based and a 6.16 tree) hashes the AD in sections of its own and opens
one section per walk step for the text; the section records the AD and text
bytes.  Scatterlists of one entry each side are used in place, others
gathered into private buffers and wiped (arch/aead_buffers.py).  Decryption
is the kernel's: decrypt, then compare the tag (constant time); a wrong tag
is EBADMSG with the unauthenticated plaintext left in dst, as in the kernel.
The trees read have no path for an unusable NEON unit (an AEAD never runs
where kernel-mode NEON is refused there); when crypto_simd_usable() is false
here (the self-test manager's nosimd configurations, the interrupt model)
the request goes to ``gcm_base(ctr(aes-arm64),ghash-generic)``, the same
bytes from scalar code.  As every emulated core, reachable only through
requests (no in-process direct path).

``rfc4106-gcm-aes-ce`` (``rfc4106(gcm(aes))``, 300, Linux 6.3+: "crypto:
arm64/gcm - add RFC4106 support") is the ESP form over the same core and
request path: the key ends with a 4-byte salt (algs/gcm.py's
``esp_split_key``), the nonce is salt ‖ the 8-byte IV (``esp_nonce``), tags
8, 12 or 16 (``rfc4106_check_authsize``), the AD region 16 or 20 bytes
(``ipsec_check_assoclen``, checked first) whose last 8 bytes, the IV copy,
are neither hashed nor read; its fallback is that template's instance over
the scalar GCM.
"""

from __future__ import annotations

import hmac
from typing import Any, Callable

import attrs

import crypto_api as capi
from crypto_api.algs.gcm import (GCM_AES_IV_SIZE, GCM_RFC4106_IV_SIZE, SALT_SIZE, esp_nonce, esp_split_key,
                                 gcm_check_authsize, ipsec_check_assoclen, rfc4106_check_authsize)
from crypto_api.arch.aead_buffers import request_buffers
from crypto_api.arch.arm64 import neon_glue
from crypto_api.errors import EBADMSG, EINVAL, CryptoError

DRIVER = "gcm-aes-ce"
ESP_DRIVER = "rfc4106-gcm-aes-ce"
PRIORITY = 300
TAG_SIZE = 16
CORE = "gcm_aes_ce"
#: What runs a request while SIMD is not usable (scalar AES, generic GHASH).
FALLBACK = "gcm_base(ctr(aes-arm64),ghash-generic)"
#: The module that registers aes-arm64, which the fallback names.
SCALAR_MODULE = "aes_arm64"


def _whole_key(key):
    return key, b""


def _gcm_request(req: Any) -> tuple:
    return bytes(req.iv[:GCM_AES_IV_SIZE]), req.assoclen


def _esp_request(req: Any) -> tuple:
    ipsec_check_assoclen(req)
    return bytes(esp_nonce(req.tfm.ctx.salt, req.iv)), req.assoclen - GCM_RFC4106_IV_SIZE


@attrs.frozen
class Form:
    """What sets one AEAD of this module apart from the other: its names and
    IV, the fallback's name, how a key splits (AES key, salt of ``salt_size``
    bytes), the tag rule, and a request's nonce and the length of AD it hashes."""

    cra_name: str
    driver: str
    ivsize: int
    fallback: str
    salt_size: int
    split_key: Callable[[Any], tuple]
    check_authsize: Callable[[str, int], None]
    request: Callable[[Any], tuple]


GCM = Form("gcm(aes)", DRIVER, GCM_AES_IV_SIZE, FALLBACK, 0, _whole_key, gcm_check_authsize, _gcm_request)
ESP = Form("rfc4106(gcm(aes))", ESP_DRIVER, GCM_RFC4106_IV_SIZE, f"rfc4106({FALLBACK})", SALT_SIZE,
           lambda key: esp_split_key(ESP_DRIVER, key), rfc4106_check_authsize, _esp_request)


def make_aead(core: Any, form: Form = GCM) -> capi.AeadAlg:
    """``form``'s AEAD over the functions of the ``gcm_aes_ce`` core."""
    ctx_size = core.gcm_aes_ce_ctx_size()
    name = form.driver

    def init(tfm):
        ctx = tfm.ctx
        ctx.k = bytearray(ctx_size)
        ctx.salt = bytearray(form.salt_size)
        ctx.fallback = capi.crypto_alloc_aead(form.fallback, 0, 0)

    def exit_(tfm):
        ctx = tfm.ctx
        ctx.k[:] = bytes(ctx_size)
        ctx.salt[:] = bytes(form.salt_size)
        if getattr(ctx, "fallback", None) is not None:
            ctx.fallback.free()
            ctx.fallback = None

    def setkey(tfm, key):
        ctx = tfm.ctx
        aes_key, salt = form.split_key(key)
        if len(aes_key) not in (16, 24, 32):
            raise CryptoError(EINVAL, f"{name}: AES key is {len(aes_key)} bytes, expected 16, 24 or 32")
        neon_glue.neon_call(core.gcm_aes_ce_setkey, ctx.k, bytes(aes_key), len(aes_key))
        ctx.salt[:] = salt
        ctx.fallback.setkey(key)

    def setauthsize(tfm, authsize):
        form.check_authsize(name, authsize)
        tfm.ctx.fallback.setauthsize(authsize)

    def forward(req, encrypt: bool):
        sub = capi.aead_request_alloc(req.tfm.ctx.fallback)
        capi.aead_request_set_callback(sub, req.flags & ~capi.CRYPTO_TFM_REQ_MAY_BACKLOG, None, None)
        capi.aead_request_set_crypt(sub, req.src, req.dst, req.cryptlen, req.iv)
        capi.aead_request_set_ad(sub, req.assoclen)
        return (capi.crypto_aead_encrypt if encrypt else capi.crypto_aead_decrypt)(sub)

    def crypt(req, encrypt: bool):
        nonce, alen = form.request(req)
        if not neon_glue.simd_usable():
            return forward(req, encrypt)
        tfm = req.tfm
        authsize = tfm.authsize
        n = req.cryptlen - (0 if encrypt else authsize)
        tag = bytearray(TAG_SIZE)
        with request_buffers(req, alen, n + authsize if encrypt else n) as (ad, src, out):
            fn = core.gcm_aes_ce_encrypt if encrypt else core.gcm_aes_ce_decrypt
            neon_glue.neon_call(fn, tfm.ctx.k, nonce, ad, alen, src[:n], n, out, tag, nbytes=alen + n)
            if encrypt:
                out[n:n + authsize] = tag[:authsize]
            else:
                ok = hmac.compare_digest(bytes(src[n:n + authsize]), bytes(tag[:authsize]))
        tag[:] = bytes(TAG_SIZE)
        if not encrypt and not ok:
            raise CryptoError(EBADMSG, f"{name}: authentication failed (tag mismatch)")
        return None

    return capi.AeadAlg(
        cra_name=form.cra_name, cra_driver_name=name, cra_priority=PRIORITY, cra_blocksize=1,
        ivsize=form.ivsize, maxauthsize=TAG_SIZE, chunksize=16,
        init=init, exit=exit_, setkey=setkey, setauthsize=setauthsize,
        encrypt=lambda req: crypt(req, True), decrypt=lambda req: crypt(req, False))


def make_aeads(core: Any) -> list:
    """The module's AEADs: ``gcm-aes-ce`` and ``rfc4106-gcm-aes-ce``."""
    return [make_aead(core, GCM), make_aead(core, ESP)]
