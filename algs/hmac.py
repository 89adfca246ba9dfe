"""The ``hmac`` template (crypto/hmac.c): HMAC (RFC 2104) over any unkeyed shash.

``hmac(<hash>)`` spawns the shash ``<hash>``; the instance is named
``hmac(<hash cra_name>)`` / ``hmac(<hash driver>)`` with the hash's priority,
block size and digest size.  The hash must take no key and have
digestsize <= blocksize <= statesize (else EINVAL, as the kernel's
hmac_create).  setkey accepts any length: a key longer than the block size is
replaced by its digest, then the zero-padded key XOR 0x36 / 0x5c is hashed
once and the two states exported (ipad, opad), so every message starts by
importing the ipad state.  A descriptor's hash state lives in a descriptor of
the child hash (``desc.ctx.child``); export/import are the child's.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.errors import EINVAL, CryptoError

MODULE_NAME = "hmac"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("hmac")

IPAD = 0x36
OPAD = 0x5c


def hmac_init_tfm(tfm) -> None:
    ctx = tfm.ctx
    ctx.hash = capi.crypto_spawn_shash(tfm.alg.instance.spawns[0])
    ctx.ipad = ctx.opad = None


def hmac_exit_tfm(tfm) -> None:
    ctx = tfm.ctx
    h = getattr(ctx, "hash", None)
    if h is not None:
        h.free()
        ctx.hash = None


def _padded_state(child, key: bytes, pad: int, bs: int) -> bytearray:
    block = bytearray(k ^ pad for k in key.ljust(bs, b"\0"))
    try:
        return bytearray(child.desc().init().update(block).export())
    finally:
        block[:] = bytes(bs)


def hmac_setkey(tfm, key) -> None:
    ctx = tfm.ctx
    child = ctx.hash
    bs = child.alg.cra_blocksize
    kv = bytearray(memoryview(key).cast("B"))
    try:
        if len(kv) > bs:
            kv[:] = child.digest(kv)
        ctx.ipad = _padded_state(child, kv, IPAD, bs)
        ctx.opad = _padded_state(child, kv, OPAD, bs)
    finally:
        kv[:] = bytes(len(kv))


def _child(desc):
    c = getattr(desc.ctx, "child", None)
    if c is None:
        c = desc.ctx.child = desc.tfm.ctx.hash.desc()
    return c


def hmac_init(desc) -> None:
    _child(desc).import_(desc.tfm.ctx.ipad)


def hmac_update(desc, data) -> None:
    _child(desc).update(data)


def _outer(desc, inner: bytes) -> bytes:
    return _child(desc).import_(desc.tfm.ctx.opad).finup(inner)


def hmac_final(desc) -> bytes:
    return _outer(desc, _child(desc).final())


def hmac_finup(desc, data) -> bytes:
    return _outer(desc, _child(desc).finup(data))


def hmac_export(desc) -> bytes:
    return _child(desc).export()


def hmac_import(desc, state: bytes) -> None:
    _child(desc).import_(state)


def hmac_create(tmpl, tb) -> None:
    capi.crypto_check_attr_type(tb, capi.CRYPTO_ALG_TYPE_SHASH, "hmac")
    spawn = capi.crypto_grab_shash(capi.crypto_attr_alg_name(tb, 1, "hmac"))
    a = spawn.alg
    if a.setkey is not None and not a.cra_flags & capi.CRYPTO_ALG_OPTIONAL_KEY:
        raise CryptoError(EINVAL, f"hmac: {a.cra_driver_name} needs a key of its own; HMAC takes "
                                  "an unkeyed hash")
    ds, bs, ss = a.digestsize, a.cra_blocksize, a.statesize
    if ds > bs or ss < bs:
        raise CryptoError(EINVAL, f"hmac: {a.cra_driver_name} has digest size {ds}, block size {bs} "
                                  f"and state size {ss}; HMAC needs digest size <= block size <= state size")
    inst = capi.ShashAlg(
        cra_name=capi.crypto_inst_name("hmac", a.cra_name),
        cra_driver_name=capi.crypto_inst_name("hmac", a.cra_driver_name),
        cra_priority=a.cra_priority, cra_blocksize=bs, cra_alignmask=a.cra_alignmask,
        digestsize=ds, descsize=0, statesize=ss,
        init=hmac_init, update=hmac_update, final=hmac_final, finup=hmac_finup,
        export=hmac_export, import_=hmac_import, setkey=hmac_setkey,
        init_tfm=hmac_init_tfm, exit_tfm=hmac_exit_tfm)
    capi.crypto_register_instance(tmpl, inst, [spawn])


TEMPLATE = capi.Template(name="hmac", create=hmac_create)


def module_init() -> None:
    capi.crypto_register_template(TEMPLATE)


def module_exit() -> None:
    capi.crypto_unregister_template(TEMPLATE)
