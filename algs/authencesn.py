"""The ``authencesn`` AEAD template (crypto/authencesn.c, read at 6.x): authenc for ESP
with extended (64-bit) sequence numbers (RFC 4303 §2.2.1, appendix A).

The caller's AD is ``SPI ‖ seq_hi ‖ seq_lo ‖ …``, but ESP authenticates
``SPI ‖ seq_lo ‖ … ‖ ciphertext ‖ seq_hi``: the 4 bytes at offset 4 move to
the end.  The kernel does it in dst: it copies bytes 0..3 over 4..7 and puts
seq_hi at ``assoclen + cryptlen`` (where the tag goes), hashes
``assoclen + cryptlen`` bytes from offset 4, then puts the AD back; the tag
then overwrites seq_hi.  Decryption copies AD ‖ ciphertext to dst when out of
place, saves the received tag, does the same move in dst, hashes, restores
the AD, compares (EBADMSG, nothing decrypted), then decrypts dst in place.
Its temporary seq_hi at ``assoclen + cryptlen`` stays in dst (over the first
bytes of an in-place request's tag); here seq_hi is hashed from a copy and
left there only when dst reaches that far (the one-call ``decrypt`` gives a
dst without room, where the kernel would write past it).

Names, priority, keys and the cipher step are authenc's (algs/authenc.py).
Tag lengths 1..3 are EINVAL (a tag shorter than the 4-byte seq_hi slot); 0
leaves the AD alone and computes nothing.  An AD shorter than 8 bytes (no
room for SPI and seq_hi) is refused with EINVAL: this project's rule — the
6.x source read has no such check and would then move bytes of the text.
"""

from __future__ import annotations

from typing import Any

import crypto_api as capi
from crypto_api.algs.authenc import (AuthencReqCtx, authenc_create_common, check_tag, cipher_step, hash_sg,
                                     run_request, sg_copy_between, step_encrypt)
from crypto_api.algs.chacha20poly1305 import _ffwd
from crypto_api.errors import EINVAL, CryptoError
from crypto_api.scatterlist import scatterwalk_map_and_copy

MODULE_NAME = "authencesn"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("authencesn")

ESN_AD_MIN = 8


def esn_setauthsize(tfm: Any, authsize: int) -> None:
    if 0 < authsize < 4:
        raise CryptoError(EINVAL, f"{tfm.alg.cra_driver_name}: authsize {authsize} refused; "
                                  "authencesn takes 0 or 4 up to the digest size")


def _check_assoclen(req: Any) -> None:
    if req.assoclen < ESN_AD_MIN:
        raise CryptoError(EINVAL, f"{req.tfm.alg.cra_driver_name}: assoclen {req.assoclen} refused; "
                                  f"the ESN AD holds at least SPI and seq_hi ({ESN_AD_MIN} bytes)")


def _sg_len(sgl) -> int:
    return sum(sg.length for sg in sgl)


def _esn_hash(req: Any, rctx: AuthencReqCtx, keep_seq_hi: bool) -> None:
    """H(AD[0:4] ‖ AD[8:] ‖ ciphertext ‖ seq_hi) from dst, whose AD ends as it began.

    As the kernel, AD bytes 0..3 are copied over 4..7 for the hash and put
    back.  The kernel also parks seq_hi at ``assoclen + cryptlen`` in dst and
    hashes it from there; here it is hashed from a copy, and parked in dst
    (where the kernel leaves it after decrypting) when dst has room."""
    end = req.assoclen + rctx.cryptlen
    ad8 = bytearray(8)
    scatterwalk_map_and_copy(ad8, req.dst, 0, 8, False)
    scatterwalk_map_and_copy(ad8[0:4], req.dst, 4, 4, True)
    try:
        rctx.hash = hash_sg(req, req.dst, 4, end - 4, bytes(ad8[4:8]))
    finally:
        scatterwalk_map_and_copy(ad8, req.dst, 0, 8, True)
    if keep_seq_hi and _sg_len(req.dst) >= end + 4:
        scatterwalk_map_and_copy(ad8[4:8], req.dst, end, 4, True)


def step_esn_genicv(req: Any, rctx: AuthencReqCtx) -> int:
    authsize = req.tfm.authsize
    if not authsize:
        return 0
    _esn_hash(req, rctx, False)
    scatterwalk_map_and_copy(rctx.hash, req.dst, req.assoclen + rctx.cryptlen, authsize, True)
    return 0


def step_esn_verify(req: Any, rctx: AuthencReqCtx) -> int:
    authsize = req.tfm.authsize
    end = req.assoclen + rctx.cryptlen
    if req.dst is not req.src:
        sg_copy_between(req.dst, req.src, end)
    rctx.ihash = bytearray(authsize)
    scatterwalk_map_and_copy(rctx.ihash, req.src, end, authsize, False)
    if not authsize:
        return 0
    _esn_hash(req, rctx, True)
    check_tag(req, rctx)
    return 0


def step_esn_decrypt(req: Any, rctx: AuthencReqCtx) -> int:
    dst = _ffwd(req.dst, req.assoclen)
    return cipher_step(req, rctx, dst, dst, False)


def esn_encrypt(req: Any) -> Any:
    _check_assoclen(req)
    return run_request(req, True, (step_encrypt, step_esn_genicv))


def esn_decrypt(req: Any) -> Any:
    _check_assoclen(req)
    return run_request(req, False, (step_esn_verify, step_esn_decrypt))


def authencesn_create(tmpl: capi.Template, tb: list) -> None:
    authenc_create_common(tmpl, tb, esn_encrypt, esn_decrypt, esn_setauthsize)


TEMPLATE = capi.Template(name="authencesn", create=authencesn_create)


def module_init() -> None:
    capi.crypto_register_template(TEMPLATE)


def module_exit() -> None:
    capi.crypto_unregister_template(TEMPLATE)
