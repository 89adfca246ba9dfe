"""What the AEAD IV generators share (crypto/geniv.c; in crypto/aead.c before 5.x's split).

``aead_geniv_create`` builds the instance ``tmpl(<aead>)`` that seqiv and
echainiv register (the kernel's aead_geniv_alloc plus the part of each
create function they have in common): the inner AEAD is spawned by name (an
instance type that is not AEAD is EINVAL); one whose IV is shorter than 8
bytes is EINVAL, and so is one the generator's own rule refuses.  Names
``tmpl(<inner cra_name>)`` / ``tmpl(<inner driver>)`` (ENAMETOOLONG past
the limit); priority, block size, alignmask, IV size and maxauthsize are
the inner AEAD's, and of its flags only ASYNC.  setkey and setauthsize pass
straight to the child (no rule of their own).

Each tfm draws a salt of ``ivsize`` random bytes when it is created.  The
kernel takes it from its default RNG (``stdrng``); this project has no RNG
algorithm type, so the salt comes from the operating system
(``os.urandom``): unpredictable, as the kernel's, but no DRBG output.

Both generators decrypt alike (:func:`geniv_decrypt`): the IV is read from
the ciphertext (after the AD) into the request's IV buffer, and the child
authenticates AD ‖ IV and decrypts the rest.  An out-of-place encryption
first copies AD ‖ text from src to dst (the kernel's null-skcipher copy,
memcpy_sglist later), then works in dst.
"""

from __future__ import annotations

import os
from typing import Any, Callable

import crypto_api as capi
from crypto_api.algs.gcm import check_aead_type, run_child_aead
from crypto_api.errors import EINVAL, CryptoError
from crypto_api.scatterlist import scatterwalk_map_and_copy, sg_copy_from_bytes, sg_copy_to_bytes

#: sizeof(u64): the least IV an instance takes (the sequence number's size)
SEQ_SIZE = 8


def _init(tfm: Any) -> None:
    ctx = tfm.ctx
    ctx.salt = bytearray(os.urandom(tfm.alg.ivsize))
    ctx.child = capi.crypto_spawn_aead(tfm.alg.instance.spawns[0])


def _exit(tfm: Any) -> None:
    ctx = tfm.ctx
    child = getattr(ctx, "child", None)
    if child is not None:
        child.free()
        ctx.child = None
    salt = getattr(ctx, "salt", None)
    if salt is not None:
        salt[:] = bytes(len(salt))


def _setkey(tfm: Any, key: Any) -> None:
    tfm.ctx.child.setkey(key)


def _setauthsize(tfm: Any, authsize: int) -> None:
    tfm.ctx.child.setauthsize(authsize)


def aead_geniv_create(tmpl: capi.Template, tb: list, ivsize_rule: Callable[[int], str],
                      encrypt: Callable, decrypt: Callable) -> None:
    """Register ``tmpl(<inner>)``.  ``ivsize_rule(ivsize)`` says why the
    generator refuses an inner IV size of 8 or more ("" to accept)."""
    name = tmpl.name
    mask = check_aead_type(tb, name)
    inner_name = capi.crypto_attr_alg_name(tb, 1, name)
    if len(tb) > 2:
        raise CryptoError(EINVAL, f"{name}: takes 1 parameter (an AEAD), got {len(tb) - 1}")
    spawn = capi.crypto_grab_aead(inner_name, 0, mask)
    a = spawn.alg
    why = (f"it is shorter than the {SEQ_SIZE}-byte sequence number" if a.ivsize < SEQ_SIZE
           else ivsize_rule(a.ivsize))
    if why:
        raise CryptoError(EINVAL, f"{name}: {a.cra_driver_name} has a {a.ivsize}-byte IV; {why}")
    inst = capi.AeadAlg(
        cra_name=capi.crypto_inst_name(name, a.cra_name),
        cra_driver_name=capi.crypto_inst_name(name, a.cra_driver_name),
        cra_priority=a.cra_priority, cra_flags=a.cra_flags & capi.CRYPTO_ALG_ASYNC,
        cra_blocksize=a.cra_blocksize, cra_alignmask=a.cra_alignmask,
        ivsize=a.ivsize, maxauthsize=a.maxauthsize,
        setkey=_setkey, setauthsize=_setauthsize, encrypt=encrypt, decrypt=decrypt,
        init=_init, exit=_exit)
    capi.aead_register_instance(tmpl, inst, [spawn])


def copy_to_dst(req: Any) -> None:
    """An out-of-place encryption's first step: AD ‖ text from src to dst."""
    if req.dst is not req.src:
        n = req.assoclen + req.cryptlen
        sg_copy_from_bytes(req.dst, sg_copy_to_bytes(req.src, n))


def writable_iv(req: Any) -> memoryview:
    """The request's IV buffer, which the generators write as the kernel does."""
    view = memoryview(req.iv).cast("B")
    if view.readonly:
        raise CryptoError(EINVAL, f"{req.tfm.alg.cra_driver_name}: the request's IV buffer must be "
                                  "writable (the generator writes the IV it used there)")
    return view


def run_child(req: Any, src: Any, dst: Any, cryptlen: int, assoclen: int, iv: Any, encrypt: bool) -> Any:
    """The child AEAD over a subrequest whose completion is ``req``'s."""
    return run_child_aead(req, req.tfm.ctx.child, src, dst, cryptlen, assoclen, iv, encrypt)


def geniv_decrypt(req: Any, least: int) -> Any:
    """Decryption of both generators: EINVAL under ``least`` bytes of
    cryptlen, else the IV after the AD goes into the request's IV buffer and
    the child decrypts the rest with AD ‖ IV as its AD."""
    ivsize = req.tfm.alg.ivsize
    if req.cryptlen < least:
        raise CryptoError(EINVAL, f"{req.tfm.alg.cra_driver_name}: cryptlen {req.cryptlen} is less than "
                                  f"the {least} bytes a ciphertext needs here")
    iv = writable_iv(req)
    scatterwalk_map_and_copy(iv[:ivsize], req.src, req.assoclen, ivsize, False)
    return run_child(req, req.src, req.dst, req.cryptlen - ivsize, req.assoclen + ivsize, req.iv, False)
