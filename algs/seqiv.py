"""The ``seqiv`` IV generator (crypto/seqiv.c, the AEAD form of v5.0 and later).

``seqiv(<aead>)``, e.g. ``seqiv(rfc4106(gcm(aes)))``, the generator IPsec
wraps around counter-mode AEADs.  The instance is algs/geniv.py's; the inner
AEAD's IV must be exactly 8 bytes (EINVAL otherwise).

Encryption takes the 64-bit sequence number as the request's IV and a
request laid out AD ‖ IV room (8 bytes) ‖ text, cryptlen counting the IV
room (less than 8 is EINVAL).  The IV used is the sequence number XOR the
tfm's salt: it is written into the request's IV buffer and into dst after
the AD, and the child encrypts the text with AD ‖ IV as its AD, so dst
holds AD ‖ IV ‖ ciphertext ‖ tag.  Decryption (algs/geniv.py) needs
cryptlen of at least 8 + authsize (EINVAL otherwise).
"""

from __future__ import annotations

from typing import Any

import crypto_api as capi
from crypto_api.algs import geniv
from crypto_api.errors import EINVAL, CryptoError
from crypto_api.scatterlist import scatterwalk_map_and_copy

MODULE_NAME = "seqiv"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("seqiv")

IVSIZE = geniv.SEQ_SIZE


def seqiv_encrypt(req: Any) -> Any:
    if req.cryptlen < IVSIZE:
        raise CryptoError(EINVAL, f"{req.tfm.alg.cra_driver_name}: cryptlen {req.cryptlen} has no room "
                                  f"for the {IVSIZE}-byte IV")
    geniv.copy_to_dst(req)
    iv = geniv.writable_iv(req)
    iv[:IVSIZE] = bytes(a ^ b for a, b in zip(iv[:IVSIZE], req.tfm.ctx.salt))
    scatterwalk_map_and_copy(iv[:IVSIZE], req.dst, req.assoclen, IVSIZE, True)
    return geniv.run_child(req, req.dst, req.dst, req.cryptlen - IVSIZE, req.assoclen + IVSIZE, req.iv, True)


def seqiv_decrypt(req: Any) -> Any:
    return geniv.geniv_decrypt(req, IVSIZE + req.tfm.authsize)


def _ivsize_rule(ivsize: int) -> str:
    return "" if ivsize == IVSIZE else f"seqiv takes only {IVSIZE}-byte IVs"


def seqiv_create(tmpl: capi.Template, tb: list) -> None:
    geniv.aead_geniv_create(tmpl, tb, _ivsize_rule, seqiv_encrypt, seqiv_decrypt)


TEMPLATES = (capi.Template(name="seqiv", create=seqiv_create),)


def module_init() -> None:
    capi.crypto_register_templates(TEMPLATES)


def module_exit() -> None:
    capi.crypto_unregister_templates(TEMPLATES)
