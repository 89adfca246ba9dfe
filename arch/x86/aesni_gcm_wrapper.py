"""The public AES-NI GCM AEADs over their internal algorithms, as v5.0's
gcmaes_wrapper_encrypt/decrypt (arch/x86/crypto/aesni-intel_glue.c) and,
5.4-6.15, crypto/simd.c's AEAD wrapper (simd_register_aeads_compat), which
dispatches the same way.

``generic-gcm-aesni`` (``gcm(aes)``) and ``rfc4106-gcm-aesni``
(``rfc4106(gcm(aes))``), priority 400 over v5.0's internal algorithms (the
internal one's own priority under the SIMD helper: 6.11's -aesni-avx 500
...), CRYPTO_ALG_ASYNC, the internal algorithm's IV size, block size,
chunk size and tags up to 16.  Each tfm holds
``cryptd(<internal driver>)`` (whose setkey and setauthsize reach the
internal tfm, so both paths share them).  A request runs at once on the
internal tfm in the caller's context, unless SIMD is not usable there or
the caller is atomic while this tfm has requests queued in cryptd: then it
goes to cryptd (-EINPROGRESS, the callback later), as the SIMD skcipher
wrapper does (crypto_api/simd.py).  v5.0 retargets the caller's request to
the chosen tfm; here a sub-request carries the caller's flags, callback and
data (what the callback sees: the sub-request, with the caller's data).
``tfm.encrypt``/``decrypt`` take the internal tfm's direct path under the
same rule.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

import crypto_api as capi
from crypto_api.cryptd import cryptd_alloc_aead, cryptd_child, cryptd_queued
from crypto_api.fpu import SIMD, crypto_simd_usable, simd_choice
from crypto_api.simd import in_atomic

PRIORITY = 400


def _use_cryptd(cryptd: Any) -> bool:
    """v5.0's rule: SIMD unusable, or atomic with work already queued."""
    return not crypto_simd_usable() or (in_atomic() and cryptd_queued(cryptd))


def wrapper_alg(cra_name: str, driver: str, inner: capi.AeadAlg, priority: int = PRIORITY) -> capi.AeadAlg:
    """The public AEAD ``driver`` over the registered internal ``inner``."""
    basename = inner.cra_driver_name

    def init(tfm):
        tfm.ctx.cryptd = cryptd_alloc_aead(basename, capi.CRYPTO_ALG_INTERNAL, capi.CRYPTO_ALG_INTERNAL)

    def exit_(tfm):
        c = getattr(tfm.ctx, "cryptd", None)
        if c is not None:
            c.free()

    def setkey(tfm, key):
        c = tfm.ctx.cryptd
        c.clear_flags(capi.CRYPTO_TFM_REQ_MASK)
        c.set_flags(tfm.crt_flags & capi.CRYPTO_TFM_REQ_MASK)
        c.setkey(key)

    def setauthsize(tfm, authsize):
        tfm.ctx.cryptd.setauthsize(authsize)

    def crypt(req, encrypt: bool):
        c = req.tfm.ctx.cryptd
        target = c if _use_cryptd(c) else cryptd_child(c)
        sub = capi.aead_request_alloc(target)
        capi.aead_request_set_crypt(sub, req.src, req.dst, req.cryptlen, req.iv)
        capi.aead_request_set_ad(sub, req.assoclen)
        sub.flags, sub.complete, sub.data = req.flags, req.complete, req.data
        return (capi.crypto_aead_encrypt if encrypt else capi.crypto_aead_decrypt)(sub)

    def direct(tfm, encrypt: bool) -> Optional[Callable]:
        c = tfm.ctx.cryptd
        child = cryptd_child(c)
        child_direct = child._direct_enc if encrypt else child._direct_dec
        if child_direct is None:
            return None

        def run(data, iv, assoc, out):
            if simd_choice() != SIMD or (in_atomic() and cryptd_queued(c)):
                return None
            return child_direct(data, iv, assoc, out)
        return run

    return capi.AeadAlg(
        cra_name=cra_name, cra_driver_name=driver, cra_priority=priority,
        cra_flags=capi.CRYPTO_ALG_ASYNC, cra_blocksize=inner.cra_blocksize,
        ivsize=inner.ivsize, maxauthsize=inner.maxauthsize, chunksize=inner.chunksize,
        init=init, exit=exit_, setkey=setkey, setauthsize=setauthsize,
        encrypt=lambda req: crypt(req, True), decrypt=lambda req: crypt(req, False),
        direct=direct)
