"""The ``echainiv`` IV generator (crypto/echainiv.c).

``echainiv(<aead>)``, e.g. ``echainiv(authenc(hmac(sha256),cbc(aes)))``:
the generator IPsec wraps around CBC-style encrypt-then-MAC AEADs.  The
instance is algs/geniv.py's; the inner AEAD's IV must be a multiple of 8
bytes (EINVAL otherwise).

Encryption takes the 64-bit sequence number big-endian in the last 8 bytes
of the request's IV, and a request laid out AD ‖ IV room ‖ text, cryptlen
counting the IV room (less than the IV size is EINVAL).  The IV room in dst
is zeroed, and the IV becomes, 8 bytes at a time from the last, the product
modulo 2^64 of the sequence number and the matching 8 bytes of the salt
with the low bit set, each stored little-endian (the kernel's host order:
every machine modelled here is little-endian).  The child then encrypts
the IV room and the text under that IV with the AD alone as its AD: under
CBC the room becomes E_K(IV), which a receiver uses as the IV of the rest.
Decryption (algs/geniv.py) needs cryptlen of at least the IV size.
"""

from __future__ import annotations

from typing import Any

import crypto_api as capi
from crypto_api.algs import geniv
from crypto_api.errors import EINVAL, CryptoError
from crypto_api.scatterlist import scatterwalk_map_and_copy

MODULE_NAME = "echainiv"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("echainiv")

WORD = geniv.SEQ_SIZE
_MASK64 = (1 << 64) - 1


def echainiv_iv(salt: bytes, seqno: int) -> bytes:
    """The IV for ``seqno``: each 8-byte word of the salt, low bit set, times seqno."""
    words = (((int.from_bytes(salt[i:i + WORD], "little") | 1) * seqno) & _MASK64
             for i in range(0, len(salt), WORD))
    return b"".join(w.to_bytes(WORD, "little") for w in words)


def echainiv_encrypt(req: Any) -> Any:
    ivsize = req.tfm.alg.ivsize
    if req.cryptlen < ivsize:
        raise CryptoError(EINVAL, f"{req.tfm.alg.cra_driver_name}: cryptlen {req.cryptlen} has no room "
                                  f"for the {ivsize}-byte IV")
    geniv.copy_to_dst(req)
    iv = geniv.writable_iv(req)
    seqno = int.from_bytes(iv[ivsize - WORD:ivsize], "big")
    scatterwalk_map_and_copy(bytes(ivsize), req.dst, req.assoclen, ivsize, True)
    iv[:ivsize] = echainiv_iv(bytes(req.tfm.ctx.salt), seqno)
    return geniv.run_child(req, req.dst, req.dst, req.cryptlen, req.assoclen, req.iv, True)


def echainiv_decrypt(req: Any) -> Any:
    return geniv.geniv_decrypt(req, req.tfm.alg.ivsize)


def _ivsize_rule(ivsize: int) -> str:
    return "" if ivsize % WORD == 0 else f"echainiv takes only multiples of {WORD} bytes"


def echainiv_create(tmpl: capi.Template, tb: list) -> None:
    geniv.aead_geniv_create(tmpl, tb, _ivsize_rule, echainiv_encrypt, echainiv_decrypt)


TEMPLATES = (capi.Template(name="echainiv", create=echainiv_create),)


def module_init() -> None:
    capi.crypto_register_templates(TEMPLATES)


def module_exit() -> None:
    capi.crypto_unregister_templates(TEMPLATES)
