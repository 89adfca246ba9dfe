"""The ``gcm``, ``gcm_base``, ``rfc4106`` and ``rfc4543`` AEAD templates (crypto/gcm.c, Linux v5.0).

``gcm_base(<ctr>,<ghash>)`` is GCM (NIST SP 800-38D) over a CTR skcipher
(IV 16 bytes, block size 1, a ``ctr(...)`` cra_name) and a GHASH hash
(16-byte digest), both spawned by name; ``gcm(<cipher>)`` is
``gcm_base(ctr(<cipher>),ghash)``.  Names as the kernel builds them:
cra_name ``gcm(`` + the CTR child's cra_name after ``ctr(``, driver name
``gcm_base(<ctr driver>,<ghash driver>)``, priority the integer mean of the
children's.  IV 12 bytes; tags 4, 8 and 12..16 bytes (EINVAL otherwise).

setkey keys the CTR child, encrypts one zero block under a zero counter to
get the hash subkey H = E_K(0^128), and keys the GHASH child with it.  A
request runs the CTR child once over ``auth_tag ‖ text`` with the counter
block ``iv ‖ be32(1)``: the 16 zero bytes of ``auth_tag`` become E_K(J0) and
the text is en/decrypted from counter 2 on.  The tag is E_K(J0) XOR
GHASH(pad16(AD) ‖ pad16(ciphertext) ‖ be64(8·|AD|) ‖ be64(8·|ciphertext|)),
truncated to the tag length.  Decryption hashes the ciphertext, decrypts,
then compares (EBADMSG with the plaintext already in dst, as the kernel).
A CTR child that goes asynchronous continues the request from its
completion callback (the step chain of algs/chacha20poly1305.py).

``rfc4106(<gcm>)`` is the IPsec ESP form (RFC 4106): key = AES key ‖ 4-byte
salt, IV 8 bytes, nonce = salt ‖ IV, tags 8/12/16; the AD region is 16 or
20 bytes (SPI and sequence number, then a copy of the IV that is not
authenticated), anything else is EINVAL.  ``rfc4543(<gcm>)`` is GMAC for ESP
(RFC 4543): the same key and IV, tag 16 only, nothing encrypted: the inner
GCM authenticates the whole AD region (its IV copy included) and the text
as AD, and an out-of-place request first copies src to dst.  Both refuse an
inner AEAD whose IV is not 12 bytes or whose block size is not 1.  The
16-or-20 assoclen rule is v5.0's for rfc4106; rfc4543 gets it from the later
shared check (crypto_ipsec_check_assoclen), applied here to both.
"""

from __future__ import annotations

import hmac
from errno import EINPROGRESS
from typing import Any, List

import crypto_api as capi
from crypto_api.algs.chacha20poly1305 import _ffwd, _run_chain, _step_done
from crypto_api.completion import ASYNC_PENDING
from crypto_api.errors import EBADMSG, EINVAL, ENAMETOOLONG, CryptoError
from crypto_api.scatterlist import Scatterlist, scatterwalk_map_and_copy, sg_init_one, sg_pieces

MODULE_NAME = "gcm"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("gcm_base", "gcm", "rfc4106", "rfc4543")

GCM_AES_IV_SIZE = 12
GCM_RFC4106_IV_SIZE = 8
GCM_RFC4543_IV_SIZE = 8
GHASH_DIGEST_SIZE = 16
CTR_IV_SIZE = 16
SALT_SIZE = 4
_ZEROS = bytes(16)


# --------------------------------------------------------------------------
# gcm_base: keys and tag lengths

def gcm_check_authsize(name: str, authsize: int) -> None:
    """The kernel's crypto_gcm_check_authsize: 4, 8, 12, 13, 14, 15 or 16."""
    if authsize not in (4, 8, 12, 13, 14, 15, 16):
        raise CryptoError(EINVAL, f"{name}: authsize {authsize} refused; GCM takes 4, 8 "
                                  f"or 12..16 bytes")


def gcm_setauthsize(tfm: Any, authsize: int) -> None:
    gcm_check_authsize(tfm.alg.cra_driver_name, authsize)


def gcm_init(tfm: Any) -> None:
    spawns = tfm.alg.instance.spawns
    ctx = tfm.ctx
    ctx.ctr = capi.crypto_spawn_skcipher(spawns[0])
    try:
        ctx.ghash = capi.crypto_spawn_shash(spawns[1])
    except BaseException:
        gcm_exit(tfm)
        raise


def gcm_exit(tfm: Any) -> None:
    ctx = tfm.ctx
    for name in ("ghash", "ctr"):
        child = getattr(ctx, name, None)
        if child is not None:
            child.free()
            setattr(ctx, name, None)


def gcm_setkey(tfm: Any, key: bytearray) -> None:
    """Key the CTR child, then GHASH with H = E_K(0^128) (the child's keystream block 0)."""
    ctx = tfm.ctx
    ctr = ctx.ctr
    ctr.clear_flags(capi.CRYPTO_TFM_REQ_MASK)
    ctr.set_flags(tfm.crt_flags & capi.CRYPTO_TFM_REQ_MASK)
    ctr.setkey(key)
    h = bytearray(16)
    try:
        sub = capi.skcipher_request_alloc(ctr)
        wait = capi.crypto_init_wait()
        capi.skcipher_request_set_callback(
            sub, capi.CRYPTO_TFM_REQ_MAY_SLEEP | capi.CRYPTO_TFM_REQ_MAY_BACKLOG,
            capi.crypto_req_done, wait)
        sgl = sg_init_one(h)
        capi.skcipher_request_set_crypt(sub, sgl, sgl, 16, bytearray(CTR_IV_SIZE))
        err = capi.crypto_wait_req(capi.crypto_skcipher_encrypt(sub), wait)
        if err:
            raise CryptoError(-err if err < 0 else err,
                              f"{tfm.alg.cra_driver_name}: computing the hash key failed ({err})")
        ctx.ghash.clear_flags(capi.CRYPTO_TFM_REQ_MASK)
        ctx.ghash.set_flags(tfm.crt_flags & capi.CRYPTO_TFM_REQ_MASK)
        ctx.ghash.setkey(h)
    finally:
        h[:] = _ZEROS


# --------------------------------------------------------------------------
# gcm_base: the request

class GcmReqCtx:
    """What one request carries from step to step (crypto_gcm_req_priv_ctx)."""

    __slots__ = ("encrypt", "steps", "next", "flags", "error", "iv", "auth_tag", "hash",
                 "cryptlen", "src_text", "dst_text")

    def __init__(self, req: Any, encrypt: bool, steps) -> None:
        self.encrypt = encrypt
        self.steps = steps
        self.next = 0
        self.flags = req.flags
        self.error: Any = None
        # the CTR child's counter block: IV ‖ be32(1)
        self.iv = bytearray(bytes(req.iv[:GCM_AES_IV_SIZE]) + b"\x00\x00\x00\x01")
        self.auth_tag = bytearray(16)       # zeros in, E_K(J0) out of the CTR child
        self.hash = bytearray(16)           # the GHASH result
        self.cryptlen = req.cryptlen - (0 if encrypt else req.tfm.authsize)
        self.src_text = _ffwd(req.src, req.assoclen)
        self.dst_text = self.src_text if req.dst is req.src else _ffwd(req.dst, req.assoclen)

    def wipe(self) -> None:
        self.auth_tag[:] = _ZEROS
        self.hash[:] = _ZEROS


def step_ctr(req: Any, rctx: GcmReqCtx) -> int:
    """One CTR sub-request over auth_tag ‖ text (crypto_gcm_init_crypt)."""
    tag_sg = Scatterlist(memoryview(rctx.auth_tag), 0, 16)
    src = [tag_sg] + list(rctx.src_text)
    dst = src if rctx.dst_text is rctx.src_text else [tag_sg] + list(rctx.dst_text)
    ctr = req.tfm.ctx.ctr
    sub = capi.skcipher_request_alloc(ctr)
    capi.skcipher_request_set_callback(sub, rctx.flags, _step_done, req)
    capi.skcipher_request_set_crypt(sub, src, dst, rctx.cryptlen + 16, rctx.iv)
    return (capi.crypto_skcipher_encrypt if rctx.encrypt else capi.crypto_skcipher_decrypt)(sub)


def _hash_sg(desc: Any, sgl: List, nbytes: int) -> None:
    """Hash the first ``nbytes`` of ``sgl`` page by page, then zeros to a block boundary."""
    if not nbytes:
        return
    for piece in sg_pieces(sgl, nbytes):
        desc.update(piece)
    pad = -nbytes % 16
    if pad:
        desc.update(_ZEROS[:pad])


def step_ghash(req: Any, rctx: GcmReqCtx) -> int:
    """GHASH over the AD and the ciphertext (dst when encrypting, src when decrypting)."""
    desc = req.tfm.ctx.ghash.desc().init()
    try:
        _hash_sg(desc, req.src, req.assoclen)
        _hash_sg(desc, rctx.dst_text if rctx.encrypt else rctx.src_text, rctx.cryptlen)
        lengths = (req.assoclen * 8).to_bytes(8, "big") + (rctx.cryptlen * 8).to_bytes(8, "big")
        rctx.hash[:] = desc.finup(lengths)
    finally:
        desc.state[:] = bytes(len(desc.state))
    return 0


def _tag(rctx: GcmReqCtx, authsize: int) -> bytes:
    return bytes(a ^ b for a, b in zip(rctx.auth_tag[:authsize], rctx.hash[:authsize]))


def step_copy_tag(req: Any, rctx: GcmReqCtx) -> int:
    scatterwalk_map_and_copy(_tag(rctx, req.tfm.authsize), req.dst, req.assoclen + rctx.cryptlen,
                             req.tfm.authsize, True)
    return 0


def step_verify(req: Any, rctx: GcmReqCtx) -> int:
    authsize = req.tfm.authsize
    received = bytearray(authsize)
    scatterwalk_map_and_copy(received, req.src, req.assoclen + rctx.cryptlen, authsize, False)
    if not hmac.compare_digest(bytes(received), _tag(rctx, authsize)):
        raise CryptoError(EBADMSG, f"{req.tfm.alg.cra_driver_name}: authentication failed "
                                   "(tag mismatch)")
    return 0


ENCRYPT_STEPS = (step_ctr, step_ghash, step_copy_tag)
DECRYPT_STEPS = (step_ghash, step_ctr, step_verify)


def _gcm_crypt(req: Any, encrypt: bool) -> Any:
    rctx = req.ctx = GcmReqCtx(req, encrypt, ENCRYPT_STEPS if encrypt else DECRYPT_STEPS)
    rc = _run_chain(req, 0)
    if rc in ASYNC_PENDING:
        return rc
    if rc:
        raise rctx.error
    return None


def gcm_encrypt(req: Any) -> Any:
    return _gcm_crypt(req, True)


def gcm_decrypt(req: Any) -> Any:
    return _gcm_crypt(req, False)


# --------------------------------------------------------------------------
# gcm_base and gcm: instances

def check_aead_type(tb: list, name: str) -> int:
    """The type attribute must allow an AEAD; returns the mask for the children."""
    algt = capi.crypto_get_attr_type(tb)
    if (algt.type ^ capi.CRYPTO_ALG_TYPE_AEAD) & algt.mask & capi.CRYPTO_ALG_TYPE_MASK:
        raise CryptoError(EINVAL, f"{name}: instances are AEADs, not the type "
                                  f"{capi.type_name(algt.type)} that was asked for")
    return capi.crypto_requires_sync(algt.type, algt.mask)


def gcm_create_common(tmpl: capi.Template, tb: list, ctr_name: str, ghash_name: str) -> None:
    name = tmpl.name
    mask = check_aead_type(tb, name)
    ghash = capi.crypto_grab_shash(ghash_name)
    g = ghash.alg
    if g.digestsize != GHASH_DIGEST_SIZE:
        raise CryptoError(EINVAL, f"{name}: {g.cra_driver_name} has a {g.digestsize}-byte digest, "
                                  f"a GHASH of {GHASH_DIGEST_SIZE} bytes is needed")
    ctr = capi.crypto_grab_skcipher(ctr_name, 0, mask)
    c = ctr.alg
    if c.ivsize != CTR_IV_SIZE or c.cra_blocksize != 1 or not c.cra_name.startswith("ctr("):
        raise CryptoError(EINVAL, f"{name}: {c.cra_driver_name} ({c.cra_name}, ivsize {c.ivsize}, "
                                  f"blocksize {c.cra_blocksize}) is no CTR mode: a ctr(...) "
                                  f"with ivsize {CTR_IV_SIZE} and blocksize 1 is needed")
    cra_name = "gcm(" + c.cra_name[len("ctr("):]
    if len(cra_name) >= capi.CRYPTO_MAX_ALG_NAME:
        raise CryptoError(ENAMETOOLONG, f"{name}: instance name {cra_name[:48]}... is too long")
    inst = capi.AeadAlg(
        cra_name=cra_name,
        cra_driver_name=capi.crypto_inst_name("gcm_base", c.cra_driver_name, g.cra_driver_name),
        cra_priority=(c.cra_priority + g.cra_priority) // 2,
        cra_flags=(c.cra_flags | g.cra_flags) & capi.CRYPTO_ALG_ASYNC,
        cra_blocksize=1, cra_alignmask=c.cra_alignmask | g.cra_alignmask,
        ivsize=GCM_AES_IV_SIZE, maxauthsize=16, chunksize=c.chunksize,
        setkey=gcm_setkey, setauthsize=gcm_setauthsize, encrypt=gcm_encrypt, decrypt=gcm_decrypt,
        init=gcm_init, exit=gcm_exit)
    capi.aead_register_instance(tmpl, inst, [ctr, ghash])


def gcm_base_create(tmpl: capi.Template, tb: list) -> None:
    ctr_name = capi.crypto_attr_alg_name(tb, 1, tmpl.name)
    ghash_name = capi.crypto_attr_alg_name(tb, 2, tmpl.name)
    if len(tb) > 3:
        raise CryptoError(EINVAL, f"{tmpl.name}: takes 2 parameters (ctr, ghash), got {len(tb) - 1}")
    gcm_create_common(tmpl, tb, ctr_name, ghash_name)


def gcm_create(tmpl: capi.Template, tb: list) -> None:
    cipher_name = capi.crypto_attr_alg_name(tb, 1, tmpl.name)
    if len(tb) > 2:
        raise CryptoError(EINVAL, f"{tmpl.name}: takes 1 parameter (cipher), got {len(tb) - 1}")
    gcm_create_common(tmpl, tb, capi.crypto_inst_name("ctr", cipher_name), "ghash")


# --------------------------------------------------------------------------
# rfc4106 and rfc4543: the ESP forms over an inner GCM

def ipsec_init(tfm: Any) -> None:
    ctx = tfm.ctx
    ctx.nonce = bytearray(SALT_SIZE)
    ctx.child = capi.crypto_spawn_aead(tfm.alg.instance.spawns[0])


def ipsec_exit(tfm: Any) -> None:
    ctx = tfm.ctx
    child = getattr(ctx, "child", None)
    if child is not None:
        child.free()
        ctx.child = None
    nonce = getattr(ctx, "nonce", None)
    if nonce is not None:
        nonce[:] = bytes(SALT_SIZE)


def esp_split_key(name: str, key: Any) -> tuple:
    """An ESP key (RFC 4106/4543) as (the GCM key, the 4-byte salt it ends
    with): memoryviews of ``key``; EINVAL naming ``name`` when it is shorter
    than the salt.  The ESP forms of the arch GCM drivers split theirs here too."""
    if len(key) < SALT_SIZE:
        raise CryptoError(EINVAL, f"{name}: key is {len(key)} bytes, shorter "
                                  f"than the {SALT_SIZE}-byte salt it must end with")
    kv = memoryview(key)
    n = len(key) - SALT_SIZE
    return kv[:n], kv[n:]


def esp_nonce(salt: Any, iv: Any) -> bytearray:
    """The GCM nonce of an ESP request: the key's salt, then the request's 8-byte IV."""
    return bytearray(bytes(salt) + bytes(iv[:GCM_RFC4106_IV_SIZE]))


def ipsec_setkey(tfm: Any, key: bytearray) -> None:
    """The inner GCM's key, then the 4-byte salt (the last 4 bytes)."""
    gcm_key, salt = esp_split_key(tfm.alg.cra_driver_name, key)
    ctx = tfm.ctx
    child = ctx.child
    child.clear_flags(capi.CRYPTO_TFM_REQ_MASK)
    child.set_flags(tfm.crt_flags & capi.CRYPTO_TFM_REQ_MASK)
    child.setkey(gcm_key)
    ctx.nonce[:] = salt


def rfc4106_check_authsize(name: str, authsize: int) -> None:
    """The kernel's crypto_rfc4106_check_authsize: 8, 12 or 16."""
    if authsize not in (8, 12, 16):
        raise CryptoError(EINVAL, f"{name}: authsize {authsize} refused; "
                                  "RFC 4106 takes 8, 12 or 16 bytes")


def rfc4106_setauthsize(tfm: Any, authsize: int) -> None:
    rfc4106_check_authsize(tfm.alg.cra_driver_name, authsize)
    tfm.ctx.child.setauthsize(authsize)


def rfc4543_setauthsize(tfm: Any, authsize: int) -> None:
    if authsize != 16:
        raise CryptoError(EINVAL, f"{tfm.alg.cra_driver_name}: authsize {authsize} refused; "
                                  "RFC 4543 takes only 16")
    tfm.ctx.child.setauthsize(authsize)


def ipsec_check_assoclen(req: Any) -> None:
    """crypto_ipsec_check_assoclen: SPI ‖ sequence number (8 or 12 bytes) ‖ the 8-byte IV copy."""
    if req.assoclen not in (16, 20):
        raise CryptoError(EINVAL, f"{req.tfm.alg.cra_driver_name}: assoclen {req.assoclen} "
                                  "refused; the ESP AD is 16 or 20 bytes (8 or 12 bytes and "
                                  "an 8-byte IV copy)")


def _sub_done(subreq: Any, err: int) -> None:
    """The inner request's completion is the outer request's."""
    if err == -EINPROGRESS:
        return
    capi.aead_request_complete(subreq.data, err)


def run_child_aead(req: Any, child: Any, src: List, dst: List, cryptlen: int, assoclen: int, iv: Any,
                   encrypt: bool) -> Any:
    """Run ``child`` (an inner AEAD tfm) over a subrequest of ``req`` whose
    completion is ``req``'s: None when done, -EINPROGRESS/-EBUSY when pending.
    The IPsec forms here and the IV generators (algs/geniv.py) call it."""
    sub = capi.aead_request_alloc(child)
    capi.aead_request_set_callback(sub, req.flags, _sub_done, req)
    capi.aead_request_set_crypt(sub, src, dst, cryptlen, iv)
    capi.aead_request_set_ad(sub, assoclen)
    rc = (capi.crypto_aead_encrypt if encrypt else capi.crypto_aead_decrypt)(sub)
    return rc if rc in ASYNC_PENDING else None


def _inner(req: Any, src: List, dst: List, cryptlen: int, assoclen: int, encrypt: bool) -> Any:
    ctx = req.tfm.ctx
    return run_child_aead(req, ctx.child, src, dst, cryptlen, assoclen, esp_nonce(ctx.nonce, req.iv), encrypt)


def rfc4106_crypt(req: Any, encrypt: bool) -> Any:
    """The inner GCM sees the AD without its trailing IV copy (a copy of those
    bytes heads both its src and dst) and then the text."""
    ipsec_check_assoclen(req)
    alen = req.assoclen - GCM_RFC4106_IV_SIZE
    ad = bytearray(alen)
    scatterwalk_map_and_copy(ad, req.src, 0, alen, False)
    head = Scatterlist(memoryview(ad), 0, alen)
    src = [head] + list(_ffwd(req.src, req.assoclen))
    dst = src if req.dst is req.src else [head] + list(_ffwd(req.dst, req.assoclen))
    return _inner(req, src, dst, req.cryptlen, alen, encrypt)


def rfc4543_crypt(req: Any, encrypt: bool) -> Any:
    """GMAC: everything before the tag is the inner GCM's AD (copied to dst first
    when out of place); the inner text is empty (encrypt) or the tag (decrypt)."""
    ipsec_check_assoclen(req)
    authsize = req.tfm.authsize
    nbytes = req.assoclen + req.cryptlen - (0 if encrypt else authsize)
    if req.dst is not req.src:
        data = bytearray(nbytes)
        scatterwalk_map_and_copy(data, req.src, 0, nbytes, False)
        scatterwalk_map_and_copy(data, req.dst, 0, nbytes, True)
    cryptlen = 0 if encrypt else authsize
    return _inner(req, req.src, req.dst, cryptlen, nbytes, encrypt)


def _ipsec_create(tmpl: capi.Template, tb: list, ivsize: int, setauthsize, crypt) -> None:
    name = tmpl.name
    mask = check_aead_type(tb, name)
    inner_name = capi.crypto_attr_alg_name(tb, 1, name)
    if len(tb) > 2:
        raise CryptoError(EINVAL, f"{name}: takes 1 parameter (gcm), got {len(tb) - 1}")
    spawn = capi.crypto_grab_aead(inner_name, 0, mask)
    a = spawn.alg
    if a.ivsize != GCM_AES_IV_SIZE or a.cra_blocksize != 1:
        raise CryptoError(EINVAL, f"{name}: {a.cra_driver_name} (ivsize {a.ivsize}, blocksize "
                                  f"{a.cra_blocksize}) is no GCM: ivsize {GCM_AES_IV_SIZE} and "
                                  f"blocksize 1 are needed")
    inst = capi.AeadAlg(
        cra_name=capi.crypto_inst_name(name, a.cra_name),
        cra_driver_name=capi.crypto_inst_name(name, a.cra_driver_name),
        cra_priority=a.cra_priority, cra_flags=a.cra_flags & capi.CRYPTO_ALG_ASYNC,
        cra_blocksize=1, cra_alignmask=a.cra_alignmask,
        ivsize=ivsize, maxauthsize=a.maxauthsize, chunksize=a.chunksize,
        setkey=ipsec_setkey, setauthsize=setauthsize,
        encrypt=lambda req: crypt(req, True), decrypt=lambda req: crypt(req, False),
        init=ipsec_init, exit=ipsec_exit)
    capi.aead_register_instance(tmpl, inst, [spawn])


def rfc4106_create(tmpl: capi.Template, tb: list) -> None:
    _ipsec_create(tmpl, tb, GCM_RFC4106_IV_SIZE, rfc4106_setauthsize, rfc4106_crypt)


def rfc4543_create(tmpl: capi.Template, tb: list) -> None:
    _ipsec_create(tmpl, tb, GCM_RFC4543_IV_SIZE, rfc4543_setauthsize, rfc4543_crypt)


TEMPLATES = (capi.Template(name="gcm_base", create=gcm_base_create),
             capi.Template(name="gcm", create=gcm_create),
             capi.Template(name="rfc4106", create=rfc4106_create),
             capi.Template(name="rfc4543", create=rfc4543_create))


def module_init() -> None:
    capi.crypto_register_templates(TEMPLATES)


def module_exit() -> None:
    capi.crypto_unregister_templates(TEMPLATES)
