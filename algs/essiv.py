"""The ``essiv`` template, skcipher flavour (crypto/essiv.c, 5.4+).

``essiv(<skcipher>,<hash>)``, e.g. ``essiv(cbc(aes),sha256)``: setkey keys
the inner skcipher, then salt = H(key) keys the ESSIV cipher (the cipher
named inside the inner's last parentheses, allocated per tfm by cra_name);
each request's IV is replaced in place by E_salt(IV) and the inner runs
with it (so ``req.iv`` ends up holding the inner's output IV).  dm-crypt's
``aes-cbc-essiv:sha256`` is this template with the plain64 IV (5.4+).

The AEAD flavour, asked for with the AEAD type (dm-crypt's
``capi:authenc(hmac(sha256),cbc(aes))-essiv:sha256``), e.g.
``essiv(authenc(hmac(sha256),cbc(aes)),sha256)``: the inner must be an
``authenc(...)`` (EINVAL otherwise); the key is authenc's blob, which keys
the inner, and salt = H(cipher key ‖ HMAC key) keys the ESSIV cipher; the
encrypted IV also becomes the last ivsize bytes of the AD — written into dst
for an in-place request or a decryption, given to the inner through a rebuilt
src (AD head ‖ encrypted IV ‖ text) for an out-of-place encryption.  An AD
shorter than the IV is EINVAL (the kernel checks it on that last path only).
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.algs.authenc import authenc_extractkeys
from crypto_api.algs.chacha20poly1305 import _ffwd
from crypto_api.algs.gcm import _sub_done
from crypto_api.cinterface import EssivCbcEntries, Kind, Offer, entries, offering_tfm
from crypto_api.completion import ASYNC_PENDING
from crypto_api.errors import EINVAL, CryptoError
from crypto_api.scatterlist import Scatterlist, scatterwalk_map_and_copy

MODULE_NAME = "essiv"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("essiv")


def essiv_cipher_name(inner_name: str) -> str:
    """The text between the last ``(`` and the next ``)``: ``cbc(aes)`` → ``aes``."""
    start = inner_name.rfind("(")
    end = inner_name.find(")", start + 1)
    if start < 0 or end <= start + 1:
        raise CryptoError(EINVAL, f"essiv: cannot find the cipher name in {inner_name!r}")
    return inner_name[start + 1:end]


def essiv_init_tfm(tfm, spawn_child=capi.crypto_spawn_skcipher) -> None:
    ctx = tfm.ctx
    inst = tfm.alg.instance
    ctx.child = spawn_child(inst.spawns[0])
    try:
        ctx.hash = capi.crypto_spawn_shash(inst.spawns[1])     # exactly the recorded hash
        ctx.essiv_cipher = capi.crypto_alloc_cipher(essiv_cipher_name(inst.spawns[0].alg.cra_name))
    except BaseException:
        essiv_exit_tfm(tfm)
        raise


def essiv_exit_tfm(tfm) -> None:
    ctx = tfm.ctx
    for name in ("essiv_cipher", "hash", "child"):
        t = getattr(ctx, name, None)
        if t is not None:
            t.free()
            setattr(ctx, name, None)


def essiv_setkey(tfm, key) -> None:
    ctx = tfm.ctx
    req_flags = tfm.crt_flags & capi.CRYPTO_TFM_REQ_MASK
    for child in (ctx.child, ctx.essiv_cipher):
        child.clear_flags(capi.CRYPTO_TFM_REQ_MASK)
        child.set_flags(req_flags)
    ctx.child.setkey(key)
    salt = bytearray(ctx.hash.digest(bytes(memoryview(key).cast("B"))))
    try:
        ctx.essiv_cipher.setkey(salt)
    finally:
        salt[:] = bytes(len(salt))


def _crypt(req, encrypt: bool) -> int:
    ctx = req.tfm.ctx
    ivsize = req.tfm.alg.ivsize
    ivv = memoryview(req.iv).cast("B")
    iv = ivv if not ivv.readonly else bytearray(ivv[:ivsize])
    iv[:ivsize] = ctx.essiv_cipher.encrypt_one(bytes(ivv[:ivsize]))
    sub = capi.skcipher_request_alloc(ctx.child)
    capi.skcipher_request_set_callback(sub, req.flags, req.complete, req.data)
    capi.skcipher_request_set_crypt(sub, req.src, req.dst, req.cryptlen, iv)
    return (capi.crypto_skcipher_encrypt if encrypt else capi.crypto_skcipher_decrypt)(sub)


def essiv_cbc_entries(tfm, simd: bool):
    """The ESSIV_CBC offer (crypto_api.cinterface): the CBC child's C entries
    and the ESSIV cipher's block entries, where both offer them."""
    ctx = tfm.ctx
    owner = offering_tfm(ctx.child, Kind.CBC)
    cbc = entries(ctx.child, Kind.CBC, simd)
    iv = entries(ctx.essiv_cipher, Kind.BLOCK, simd)
    if owner is None or cbc is None or iv is None:
        return None
    return EssivCbcEntries(cbc=cbc, cbc_driver=owner.alg.cra_driver_name, iv=iv)


def essiv_encrypt(req) -> int:
    return _crypt(req, True)


def essiv_decrypt(req) -> int:
    return _crypt(req, False)


# --------------------------------------------------------------------------
# The AEAD flavour

def essiv_aead_init_tfm(tfm) -> None:
    essiv_init_tfm(tfm, capi.crypto_spawn_aead)


def essiv_aead_setkey(tfm, key) -> None:
    ctx = tfm.ctx
    req_flags = tfm.crt_flags & capi.CRYPTO_TFM_REQ_MASK
    ctx.child.clear_flags(capi.CRYPTO_TFM_REQ_MASK)
    ctx.child.set_flags(req_flags)
    ctx.child.setkey(key)
    authkey, enckey = authenc_extractkeys(tfm.alg.cra_driver_name, key)
    salt = bytearray(ctx.hash.desc().init().update(enckey).finup(authkey))
    try:
        ctx.essiv_cipher.clear_flags(capi.CRYPTO_TFM_REQ_MASK)
        ctx.essiv_cipher.set_flags(req_flags)
        ctx.essiv_cipher.setkey(salt)
    finally:
        salt[:] = bytes(len(salt))


def essiv_aead_setauthsize(tfm, authsize: int) -> None:
    tfm.ctx.child.setauthsize(authsize)


def _aead_crypt(req, encrypt: bool):
    ctx = req.tfm.ctx
    ivsize = req.tfm.alg.ivsize
    ssize = req.assoclen - ivsize
    if ssize < 0:
        raise CryptoError(EINVAL, f"{req.tfm.alg.cra_driver_name}: assoclen {req.assoclen} refused; "
                                  f"the AD ends with the {ivsize}-byte IV")
    ivv = memoryview(req.iv).cast("B")
    iv = ivv if not ivv.readonly else bytearray(ivv[:ivsize])
    iv[:ivsize] = ctx.essiv_cipher.encrypt_one(bytes(ivv[:ivsize]))
    src = req.src
    if req.src is req.dst or not encrypt:
        scatterwalk_map_and_copy(iv[:ivsize], req.dst, ssize, ivsize, True)
    else:
        head = bytearray(ssize)
        scatterwalk_map_and_copy(head, req.src, 0, ssize, False)
        ivcopy = bytearray(iv[:ivsize])
        src = [Scatterlist(memoryview(head), 0, ssize), Scatterlist(memoryview(ivcopy), 0, ivsize)]
        src += list(_ffwd(req.src, req.assoclen))
    sub = capi.aead_request_alloc(ctx.child)
    capi.aead_request_set_callback(sub, req.flags, _sub_done, req)
    capi.aead_request_set_crypt(sub, src, req.dst, req.cryptlen, iv)
    capi.aead_request_set_ad(sub, req.assoclen)
    rc = (capi.crypto_aead_encrypt if encrypt else capi.crypto_aead_decrypt)(sub)
    return rc if rc in ASYNC_PENDING else None


def essiv_aead_encrypt(req):
    return _aead_crypt(req, True)


def essiv_aead_decrypt(req):
    return _aead_crypt(req, False)


# --------------------------------------------------------------------------
# Instances

def _check_supported(a, h) -> str:
    """The ESSIV cipher's name, once the digest keys it, the IV is one of its
    blocks and the hash is unkeyed (EINVAL otherwise)."""
    cipher_name = essiv_cipher_name(a.cra_name)
    with capi.crypto_alloc_cipher(cipher_name) as probe:
        c = probe.alg
        ok = (c.min_keysize <= h.digestsize <= c.max_keysize and a.ivsize == c.cra_blocksize
              and h.setkey is None)
    if not ok:
        raise CryptoError(EINVAL, f"essiv: unsupported instantiation essiv({a.cra_driver_name},"
                                  f"{h.cra_driver_name}): the digest must key {cipher_name}, the IV be "
                                  "one of its blocks and the hash be unkeyed")
    return cipher_name


def essiv_aead_create(tmpl, tb, mask: int) -> None:
    spawn = capi.crypto_grab_aead(capi.crypto_attr_alg_name(tb, 1, "essiv"), 0, mask)
    a = spawn.alg
    if not a.cra_name.startswith("authenc("):
        raise CryptoError(EINVAL, f"essiv: the AEAD flavour takes only authenc() inners, not {a.cra_name}")
    hash_spawn = capi.crypto_grab_shash(capi.crypto_attr_alg_name(tb, 2, "essiv"))
    h = hash_spawn.alg
    _check_supported(a, h)
    inst = capi.AeadAlg(
        cra_name=capi.crypto_inst_name("essiv", a.cra_name, h.cra_name),
        cra_driver_name=capi.crypto_inst_name("essiv", a.cra_driver_name, h.cra_driver_name),
        cra_priority=a.cra_priority, cra_flags=a.cra_flags & capi.CRYPTO_ALG_ASYNC,
        cra_blocksize=a.cra_blocksize, cra_alignmask=a.cra_alignmask,
        ivsize=a.ivsize, maxauthsize=a.maxauthsize, chunksize=a.chunksize,
        setkey=essiv_aead_setkey, setauthsize=essiv_aead_setauthsize,
        encrypt=essiv_aead_encrypt, decrypt=essiv_aead_decrypt,
        init=essiv_aead_init_tfm, exit=essiv_exit_tfm)
    capi.aead_register_instance(tmpl, inst, [spawn, hash_spawn])


def essiv_create(tmpl, tb) -> None:
    algt = capi.crypto_get_attr_type(tb)
    if len(tb) != 3:
        raise CryptoError(EINVAL, f"essiv: takes 2 parameters, got {len(tb) - 1}")
    mask = capi.crypto_requires_sync(algt.type, algt.mask)
    if algt.type & algt.mask & capi.CRYPTO_ALG_TYPE_MASK == capi.CRYPTO_ALG_TYPE_AEAD:
        essiv_aead_create(tmpl, tb, mask)
        return
    if (algt.type ^ capi.CRYPTO_ALG_TYPE_SKCIPHER) & algt.mask & capi.CRYPTO_ALG_TYPE_MASK:
        raise CryptoError(EINVAL, "essiv: instances are skciphers or AEADs, not the type "
                                  f"{capi.type_name(algt.type)} that was asked for")
    spawn = capi.crypto_grab_skcipher(capi.crypto_attr_alg_name(tb, 1, "essiv"), 0, mask)
    hash_spawn = capi.crypto_grab_shash(capi.crypto_attr_alg_name(tb, 2, "essiv"))
    a, h = spawn.alg, hash_spawn.alg
    _check_supported(a, h)
    inst = capi.SkcipherAlg(
        cra_name=capi.crypto_inst_name("essiv", a.cra_name, h.cra_name),
        cra_driver_name=capi.crypto_inst_name("essiv", a.cra_driver_name, h.cra_driver_name),
        cra_priority=a.cra_priority, cra_flags=a.cra_flags & capi.CRYPTO_ALG_ASYNC,
        cra_blocksize=a.cra_blocksize, cra_alignmask=a.cra_alignmask,
        min_keysize=a.min_keysize, max_keysize=a.max_keysize, ivsize=a.ivsize,
        chunksize=a.chunksize, walksize=a.walksize, setkey=essiv_setkey,
        encrypt=essiv_encrypt, decrypt=essiv_decrypt, init=essiv_init_tfm, exit=essiv_exit_tfm,
        c_entries=(Offer(Kind.ESSIV_CBC, essiv_cbc_entries),))
    capi.skcipher_register_instance(tmpl, inst, [spawn, hash_spawn])


TEMPLATE = capi.Template(name="essiv", create=essiv_create)


def module_init() -> None:
    capi.crypto_register_template(TEMPLATE)


def module_exit() -> None:
    capi.crypto_unregister_template(TEMPLATE)
