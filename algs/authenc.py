"""The ``authenc`` AEAD template (crypto/authenc.c, read at 6.x; the rules hold from v5.0).

``authenc(<hash>,<skcipher>)``, e.g. ``authenc(hmac(sha256),cbc(aes))``: the
IPsec ESP encrypt-then-MAC composition.  The instance spawns the keyed hash
and the cipher by name: cra_name ``authenc(<hash cra_name>,<cipher
cra_name>)``, driver name from the two driver names, priority
``10 × cipher's + hash's``, block size, alignmask, IV size and chunk size the
cipher's, maxauthsize the hash's digest size; any tag length up to it (the
AEAD frontend's rule; there is no setauthsize hook).  The kernel spawns an
ahash; here the hash is an shash (it runs synchronously), only the cipher may
complete asynchronously.

Key: the rtattr blob of ``crypto_authenc_extractkeys`` — a 4-byte header
(``rta_len``, ``rta_type`` = CRYPTO_AUTHENC_KEYA_PARAM = 1, both 16-bit host
order: little-endian on every machine emulated here) whose payload is
exactly ``be32(enckeylen)``, then the hash key, then the last ``enckeylen``
bytes, the cipher key.  A malformed blob is EINVAL; the children's setkey
errors are passed on (hash first, then cipher).

Encrypt: an out-of-place request first copies the AD to dst; the cipher runs
over the text (IV ``req.iv``, which the cipher may update), then the tag =
H(AD ‖ ciphertext) read from dst, truncated to authsize, is written after the
ciphertext.  Decrypt hashes AD ‖ ciphertext in src and compares before
decrypting: EBADMSG leaves dst untouched (unlike gcm/rfc7539, which decrypt
first).  The dst AD region is not written when decrypting.

``echainiv``/``seqiv``, the IV generators IPsec wraps around authenc, are
algs/echainiv.py and algs/seqiv.py.  ``authencesn`` (algs/authencesn.py) shares the keys, the instance
and the cipher step from here.
"""

from __future__ import annotations

import hmac
from typing import Any, Callable, List, Sequence

import crypto_api as capi
from crypto_api.algs.chacha20poly1305 import _ffwd, _run_chain, _step_done
from crypto_api.algs.gcm import check_aead_type
from crypto_api.completion import ASYNC_PENDING
from crypto_api.errors import EBADMSG, EINVAL, CryptoError
from crypto_api.scatterlist import scatterwalk_map_and_copy, sg_pieces

MODULE_NAME = "authenc"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("authenc")

CRYPTO_AUTHENC_KEYA_PARAM = 1
RTA_HDR = 4                 # sizeof(struct rtattr)
KEY_PARAM_SIZE = 4          # sizeof(struct crypto_authenc_key_param): a be32


# --------------------------------------------------------------------------
# Keys

def authenc_extractkeys(name: str, key) -> tuple:
    """Split an authenc key blob into (hash key, cipher key), EINVAL when malformed."""
    kv = memoryview(key).cast("B")
    if len(kv) < RTA_HDR:
        raise CryptoError(EINVAL, f"{name}: key is {len(kv)} bytes, shorter than the "
                                  f"{RTA_HDR}-byte rtattr header of an authenc key")
    rta_len = int.from_bytes(kv[0:2], "little")
    rta_type = int.from_bytes(kv[2:4], "little")
    if rta_len < RTA_HDR or rta_len > len(kv):
        raise CryptoError(EINVAL, f"{name}: the key's rtattr length {rta_len} does not fit "
                                  f"a {len(kv)}-byte key")
    if rta_type != CRYPTO_AUTHENC_KEYA_PARAM:
        raise CryptoError(EINVAL, f"{name}: the key's rtattr type is {rta_type}, not "
                                  f"CRYPTO_AUTHENC_KEYA_PARAM ({CRYPTO_AUTHENC_KEYA_PARAM})")
    if rta_len - RTA_HDR != KEY_PARAM_SIZE:
        raise CryptoError(EINVAL, f"{name}: the key's rtattr payload is {rta_len - RTA_HDR} "
                                  f"bytes; exactly {KEY_PARAM_SIZE} (the be32 cipher key length) "
                                  "are required")
    enckeylen = int.from_bytes(kv[RTA_HDR:RTA_HDR + KEY_PARAM_SIZE], "big")
    rest = kv[rta_len:]
    if len(rest) < enckeylen:
        raise CryptoError(EINVAL, f"{name}: the key announces a {enckeylen}-byte cipher key but "
                                  f"only {len(rest)} bytes follow the rtattr")
    split = len(rest) - enckeylen
    return rest[:split], rest[split:]


def authenc_key(authkey, enckey) -> bytes:
    """The blob ``authenc_extractkeys`` takes (what iproute2/xfrm build for the kernel)."""
    return ((RTA_HDR + KEY_PARAM_SIZE).to_bytes(2, "little")
            + CRYPTO_AUTHENC_KEYA_PARAM.to_bytes(2, "little")
            + len(enckey).to_bytes(4, "big") + bytes(authkey) + bytes(enckey))


def authenc_setkey(tfm: Any, key) -> None:
    ctx = tfm.ctx
    authkey, enckey = authenc_extractkeys(tfm.alg.cra_driver_name, key)
    req_flags = tfm.crt_flags & capi.CRYPTO_TFM_REQ_MASK
    for child, k in ((ctx.auth, authkey), (ctx.enc, enckey)):
        child.clear_flags(capi.CRYPTO_TFM_REQ_MASK)
        child.set_flags(req_flags)
        part = bytearray(k)
        try:
            child.setkey(part)
        finally:
            part[:] = bytes(len(part))


def authenc_init(tfm: Any) -> None:
    spawns = tfm.alg.instance.spawns
    ctx = tfm.ctx
    ctx.auth = capi.crypto_spawn_shash(spawns[0])
    try:
        ctx.enc = capi.crypto_spawn_skcipher(spawns[1])
    except BaseException:
        authenc_exit(tfm)
        raise


def authenc_exit(tfm: Any) -> None:
    ctx = tfm.ctx
    for name in ("enc", "auth"):
        child = getattr(ctx, name, None)
        if child is not None:
            child.free()
            setattr(ctx, name, None)


# --------------------------------------------------------------------------
# Requests: a chain of steps (algs/chacha20poly1305.py's runner), the cipher
# step the only one that may go asynchronous

class AuthencReqCtx:
    """What one request carries from step to step."""

    __slots__ = ("steps", "next", "flags", "error", "hash", "ihash", "cryptlen")

    def __init__(self, req: Any, encrypt: bool, steps: Sequence[Callable]) -> None:
        self.steps = steps
        self.next = 0
        self.flags = req.flags
        self.error: Any = None
        self.hash = bytearray(0)
        self.ihash = bytearray(0)
        self.cryptlen = req.cryptlen - (0 if encrypt else req.tfm.authsize)

    def wipe(self) -> None:
        for b in (self.hash, self.ihash):
            b[:] = bytes(len(b))


def sg_copy_between(dst: List, src: List, nbytes: int) -> None:
    """memcpy_sglist: the first ``nbytes`` of ``src`` into ``dst``."""
    if nbytes:
        buf = bytearray(nbytes)
        scatterwalk_map_and_copy(buf, src, 0, nbytes, False)
        scatterwalk_map_and_copy(buf, dst, 0, nbytes, True)


def hash_sg(req: Any, sgl: List, skip: int, nbytes: int, tail: bytes = b"") -> bytearray:
    """The hash child's digest of ``nbytes`` of ``sgl`` from byte ``skip``, then ``tail``."""
    desc = req.tfm.ctx.auth.desc().init()
    for piece in sg_pieces(_ffwd(sgl, skip), nbytes):
        desc.update(piece)
    return bytearray(desc.finup(tail))


def cipher_step(req: Any, rctx: AuthencReqCtx, src: List, dst: List, encrypt: bool) -> int:
    sub = capi.skcipher_request_alloc(req.tfm.ctx.enc)
    capi.skcipher_request_set_callback(sub, rctx.flags, _step_done, req)
    capi.skcipher_request_set_crypt(sub, src, dst, rctx.cryptlen, req.iv)
    return (capi.crypto_skcipher_encrypt if encrypt else capi.crypto_skcipher_decrypt)(sub)


def step_encrypt(req: Any, rctx: AuthencReqCtx) -> int:
    """Copy the AD when out of place, then the cipher over the text into dst."""
    src = _ffwd(req.src, req.assoclen)
    dst = src
    if req.dst is not req.src:
        sg_copy_between(req.dst, req.src, req.assoclen)
        dst = _ffwd(req.dst, req.assoclen)
    return cipher_step(req, rctx, src, dst, True)


def step_genicv(req: Any, rctx: AuthencReqCtx) -> int:
    rctx.hash = hash_sg(req, req.dst, 0, req.assoclen + rctx.cryptlen)
    scatterwalk_map_and_copy(rctx.hash, req.dst, req.assoclen + rctx.cryptlen, req.tfm.authsize, True)
    return 0


def check_tag(req: Any, rctx: AuthencReqCtx) -> None:
    authsize = req.tfm.authsize
    if not hmac.compare_digest(bytes(rctx.ihash[:authsize]), bytes(rctx.hash[:authsize])):
        raise CryptoError(EBADMSG, f"{req.tfm.alg.cra_driver_name}: authentication failed "
                                   "(tag mismatch); nothing decrypted")


def step_verify(req: Any, rctx: AuthencReqCtx) -> int:
    n = req.assoclen + rctx.cryptlen
    rctx.hash = hash_sg(req, req.src, 0, n)
    rctx.ihash = bytearray(req.tfm.authsize)
    scatterwalk_map_and_copy(rctx.ihash, req.src, n, req.tfm.authsize, False)
    check_tag(req, rctx)
    return 0


def step_decrypt(req: Any, rctx: AuthencReqCtx) -> int:
    src = _ffwd(req.src, req.assoclen)
    dst = src if req.dst is req.src else _ffwd(req.dst, req.assoclen)
    return cipher_step(req, rctx, src, dst, False)


def run_request(req: Any, encrypt: bool, steps: Sequence[Callable]) -> Any:
    """Run ``steps``: None when done, the async code when a child went asynchronous."""
    rctx = req.ctx = AuthencReqCtx(req, encrypt, steps)
    rc = _run_chain(req, 0)
    if rc in ASYNC_PENDING:
        return rc
    if rc:
        raise rctx.error
    return None


def authenc_encrypt(req: Any) -> Any:
    return run_request(req, True, (step_encrypt, step_genicv))


def authenc_decrypt(req: Any) -> Any:
    return run_request(req, False, (step_verify, step_decrypt))


# --------------------------------------------------------------------------
# Instances

def authenc_create_common(tmpl: capi.Template, tb: list, encrypt, decrypt, setauthsize=None) -> None:
    """The instance of ``tmpl.name(<hash>,<skcipher>)`` (authenc and authencesn alike)."""
    name = tmpl.name
    mask = check_aead_type(tb, name)
    auth_name = capi.crypto_attr_alg_name(tb, 1, name)
    enc_name = capi.crypto_attr_alg_name(tb, 2, name)
    if len(tb) > 3:
        raise CryptoError(EINVAL, f"{name}: takes 2 parameters (hash, skcipher), got {len(tb) - 1}")
    auth = capi.crypto_grab_shash(auth_name)
    enc = capi.crypto_grab_skcipher(enc_name, 0, mask)
    a, e = auth.alg, enc.alg
    inst = capi.AeadAlg(
        cra_name=capi.crypto_inst_name(name, a.cra_name, e.cra_name),
        cra_driver_name=capi.crypto_inst_name(name, a.cra_driver_name, e.cra_driver_name),
        cra_priority=e.cra_priority * 10 + a.cra_priority,
        cra_flags=e.cra_flags & capi.CRYPTO_ALG_ASYNC,
        cra_blocksize=e.cra_blocksize, cra_alignmask=e.cra_alignmask,
        ivsize=e.ivsize, maxauthsize=a.digestsize, chunksize=e.chunksize,
        setkey=authenc_setkey, setauthsize=setauthsize, encrypt=encrypt, decrypt=decrypt,
        init=authenc_init, exit=authenc_exit)
    capi.aead_register_instance(tmpl, inst, [auth, enc])


def authenc_create(tmpl: capi.Template, tb: list) -> None:
    authenc_create_common(tmpl, tb, authenc_encrypt, authenc_decrypt)


TEMPLATE = capi.Template(name="authenc", create=authenc_create)


def module_init() -> None:
    capi.crypto_register_template(TEMPLATE)


def module_exit() -> None:
    capi.crypto_unregister_template(TEMPLATE)
