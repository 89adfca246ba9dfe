"""ChaCha20-Poly1305 (RFC 8439 §2.8) from ``cryptography``'s ChaCha20 and Poly1305,
independent of this project's C code, and a plain AEAD driver built on it.

The driver (``rfc7539_driver``) gathers the request into one buffer, seals or
opens it and scatters the result back, with hooks that the planted-bug
drivers (tests/core/test_testmgr_drivers/planted_aead_*.py) replace to plant
one bug each: the AD it authenticates, the MAC input, the tag it writes, the
tag comparison.
"""

import hmac

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms
from cryptography.hazmat.primitives.poly1305 import Poly1305

import crypto_api as capi
from crypto_api.errors import EBADMSG, EINVAL, CryptoError
from crypto_api.scatterlist import scatterwalk_map_and_copy

TAG = 16


def chacha20(key: bytes, nonce: bytes, counter: int, data: bytes) -> bytes:
    """ChaCha20 with a 12-byte nonce from block ``counter`` on."""
    iv = counter.to_bytes(4, "little") + nonce
    return Cipher(algorithms.ChaCha20(key, iv), mode=None).encryptor().update(bytes(data))


def mac_input(ad: bytes, ct: bytes) -> bytes:
    return (ad + bytes(-len(ad) % 16) + ct + bytes(-len(ct) % 16)
            + len(ad).to_bytes(8, "little") + len(ct).to_bytes(8, "little"))


def tag(key: bytes, nonce: bytes, ad: bytes, ct: bytes, mac_input=mac_input) -> bytes:
    return Poly1305.generate_tag(chacha20(key, nonce, 0, bytes(32)), mac_input(ad, ct))


def seal(key: bytes, nonce: bytes, ad: bytes, pt: bytes) -> bytes:
    ct = chacha20(key, nonce, 1, pt)
    return ct + tag(key, nonce, ad, ct)


def rfc7539_driver(driver: str, priority: int = 500, module: str = None, *,
                   ad_of=lambda req, gathered: bytes(gathered[:req.assoclen]),
                   mac=mac_input, tags_equal=hmac.compare_digest,
                   tag_out=lambda t: t) -> capi.AeadAlg:
    """An ``rfc7539(chacha20,poly1305)`` driver; the keyword hooks plant bugs."""

    def setkey(tfm, key):
        if len(key) != 32:
            raise CryptoError(EINVAL, f"{driver}: key is {len(key)} bytes, expected 32")
        tfm.ctx.key = bytes(key)

    def setauthsize(tfm, authsize):
        if authsize != TAG:
            raise CryptoError(EINVAL, f"{driver}: authsize {authsize} refused, only 16")

    def gather(req, n):
        buf = bytearray(req.assoclen + n)
        scatterwalk_map_and_copy(buf, req.src, 0, len(buf), False)
        return buf

    def encrypt(req):
        key, nonce, alen = req.tfm.ctx.key, bytes(req.iv[:12]), req.assoclen
        buf = gather(req, req.cryptlen)
        ct = chacha20(key, nonce, 1, buf[alen:])
        out = ct + tag_out(tag(key, nonce, ad_of(req, buf), ct, mac))
        scatterwalk_map_and_copy(out, req.dst, alen, len(out), True)

    def decrypt(req):
        key, nonce, alen = req.tfm.ctx.key, bytes(req.iv[:12]), req.assoclen
        buf = gather(req, req.cryptlen)
        ct, given = bytes(buf[alen:-TAG]), bytes(buf[-TAG:])
        if not tags_equal(given, tag(key, nonce, ad_of(req, buf), ct, mac)):
            raise CryptoError(EBADMSG, f"{driver}: tag mismatch")
        pt = chacha20(key, nonce, 1, ct)
        scatterwalk_map_and_copy(pt, req.dst, alen, len(pt), True)

    return capi.AeadAlg(
        cra_name="rfc7539(chacha20,poly1305)", cra_driver_name=driver, cra_priority=priority,
        cra_blocksize=1, cra_module=module, ivsize=12, maxauthsize=TAG,
        setkey=setkey, setauthsize=setauthsize, encrypt=encrypt, decrypt=decrypt)
