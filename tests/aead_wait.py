"""One AEAD request, waited for: the kernel's crypto_wait_req pattern (a
request with MAY_BACKLOG and crypto_req_done, then crypto_wait_req), shared
by the template tests that drive an AEAD through its request API."""

import crypto_api as capi


def run(tfm, encrypt, src, dst, cryptlen, assoclen, iv):
    """Encrypt (or decrypt) ``cryptlen`` bytes after ``assoclen`` bytes of AD from
    ``src`` to ``dst`` with ``iv``; returns what crypto_wait_req returns."""
    wait = capi.crypto_init_wait()
    req = capi.aead_request_alloc(tfm)
    capi.aead_request_set_callback(req, capi.CRYPTO_TFM_REQ_MAY_BACKLOG, capi.crypto_req_done, wait)
    capi.aead_request_set_crypt(req, src, dst, cryptlen, iv)
    capi.aead_request_set_ad(req, assoclen)
    return capi.crypto_wait_req((capi.crypto_aead_encrypt if encrypt else capi.crypto_aead_decrypt)(req), wait)
