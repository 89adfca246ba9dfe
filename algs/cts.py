"""The ``cts`` template (crypto/cts.c): CBC with ciphertext stealing, CS3.

``cts(<c>)`` spawns the skcipher ``<c>``, which must be a ``cbc(...)``
algorithm whose IV is one block (else EINVAL).  Keys, IV size, block size,
priority and alignmask are the child's.  With b the block size and n bytes:
n < b is EINVAL; n = b is plain CBC; otherwise the last (possibly partial)
block P_n is zero-padded and CBC-encrypted after the others, and the last
two ciphertext blocks are swapped, the final one cut to P_n's length
(NIST SP 800-38A addendum CS3, RFC 3962 for AES), even when n is whole
blocks.  As the kernel leaves it, ``req.iv`` ends up holding the last CBC
output block: after encryption the block placed second to last; after
decryption the ciphertext block before the last two (the IV itself when
n <= 2b).  The data go through the child in linear buffers, wiped after.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.algs.modes_common import xor_bytes
from crypto_api.errors import EINVAL, CryptoError
from crypto_api.scatterlist import scatterwalk_map_and_copy

MODULE_NAME = "cts"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("cts")


def cts_init_tfm(tfm) -> None:
    tfm.ctx.child = capi.crypto_spawn_skcipher(tfm.alg.instance.spawns[0])


def cts_exit_tfm(tfm) -> None:
    child = getattr(tfm.ctx, "child", None)
    if child is not None:
        child.free()
        tfm.ctx.child = None


def cts_setkey(tfm, key) -> None:
    child = tfm.ctx.child
    child.clear_flags(capi.CRYPTO_TFM_REQ_MASK)
    child.set_flags(tfm.crt_flags & capi.CRYPTO_TFM_REQ_MASK)
    child.setkey(key)


def _set_iv(req, iv: bytes) -> None:
    mv = memoryview(req.iv)
    if not mv.readonly:
        mv.cast("B")[:len(iv)] = iv


def cs3_encrypt(child, buf: bytearray, iv: bytes, bs: int) -> bytes:
    """CS3 encryption of ``buf`` (more than one block) in place; the output IV."""
    n = len(buf)
    m = (n - 1) // bs * bs               # the bytes before the last, possibly partial, block
    last = n - m
    work = bytearray(m + bs)
    try:
        work[:n] = buf                   # P_1 .. P_{n-1}, then P_n padded with zeros
        child.encrypt(work, iv, work)    # C_1 .. C_{n-1}, C_n
        buf[:m - bs] = work[:m - bs]
        buf[m - bs:m] = work[m:]         # C_n moves forward
        buf[m:] = work[m - bs:m - bs + last]     # C_{n-1}, cut to P_n's length
        return bytes(work[m:])
    finally:
        work[:] = bytes(len(work))


def cs3_decrypt(child, buf: bytearray, iv: bytes, bs: int) -> bytes:
    """CS3 decryption of ``buf`` (more than one block) in place; the output IV."""
    n = len(buf)
    m = (n - 1) // bs * bs
    last = n - m
    head = m - bs                        # C_1 .. C_{n-2}
    tail = bytes(buf[m:])                # the first ``last`` bytes of C_{n-1}
    d = bytearray(child.decrypt(bytes(buf[head:m]), bytes(bs)))   # D(C_n) = pad(P_n) xor C_{n-1}
    try:
        c_prev = tail + bytes(d[last:])  # P_n's zero padding leaves C_{n-1}'s end in D
        out_iv = bytes(buf[head - bs:head]) if head else iv
        if head:
            buf[:head] = child.decrypt(bytes(buf[:head]), iv)
        buf[head:m] = child.decrypt(c_prev, out_iv)
        buf[m:] = xor_bytes(bytes(d[:last]), tail)
        return out_iv
    finally:
        d[:] = bytes(bs)


def cs3_crypt(child, buf: bytearray, iv: bytes, bs: int, encrypt: bool) -> bytes:
    """CS3 over ``buf`` (one block or more) in place with ``child``'s CBC
    (``encrypt(data, iv, out=None)`` / ``decrypt(data, iv)``); the output IV.
    Shared with drivers that steal around their own CBC code
    (arch/x86/aesni_cts.py)."""
    if len(buf) == bs:                   # a single block is plain CBC
        ctext = bytes(buf) if not encrypt else None
        buf[:] = (child.encrypt if encrypt else child.decrypt)(bytes(buf), iv)
        return bytes(buf) if encrypt else ctext
    return (cs3_encrypt if encrypt else cs3_decrypt)(child, buf, iv, bs)


def _crypt(req, encrypt: bool) -> None:
    tfm = req.tfm
    child = tfm.ctx.child
    bs = tfm.alg.cra_blocksize
    n = req.cryptlen
    if n < bs:
        raise CryptoError(EINVAL, f"{tfm.alg.cra_driver_name}: request of {n} bytes; CTS needs at "
                                  f"least one block ({bs})")
    iv = bytes(memoryview(req.iv).cast("B")[:bs])
    buf = bytearray(n)
    try:
        scatterwalk_map_and_copy(buf, req.src, 0, n, False)
        out_iv = cs3_crypt(child, buf, iv, bs, encrypt)
        scatterwalk_map_and_copy(buf, req.dst, 0, n, True)
        _set_iv(req, out_iv)
    finally:
        buf[:] = bytes(n)


def cts_encrypt(req) -> None:
    _crypt(req, True)


def cts_decrypt(req) -> None:
    _crypt(req, False)


def cts_create(tmpl, tb) -> None:
    algt = capi.crypto_check_attr_type(tb, capi.CRYPTO_ALG_TYPE_SKCIPHER, "cts")
    mask = capi.crypto_requires_sync(algt.type, algt.mask)
    spawn = capi.crypto_grab_skcipher(capi.crypto_attr_alg_name(tb, 1, "cts"), 0, mask)
    a = spawn.alg
    if a.ivsize != a.cra_blocksize:
        raise CryptoError(EINVAL, f"cts: {a.cra_driver_name} has IV size {a.ivsize} and block size "
                                  f"{a.cra_blocksize}; CTS needs an IV of one block")
    if not a.cra_name.startswith("cbc("):
        raise CryptoError(EINVAL, f"cts: {a.cra_driver_name} ({a.cra_name}) is not a cbc(...) algorithm")
    inst = capi.SkcipherAlg(
        cra_name=capi.crypto_inst_name("cts", a.cra_name),
        cra_driver_name=capi.crypto_inst_name("cts", a.cra_driver_name),
        cra_priority=a.cra_priority, cra_flags=a.cra_flags & capi.CRYPTO_ALG_ASYNC,
        cra_blocksize=a.cra_blocksize, cra_alignmask=a.cra_alignmask,
        min_keysize=a.min_keysize, max_keysize=a.max_keysize, ivsize=a.cra_blocksize,
        chunksize=a.chunksize, setkey=cts_setkey, encrypt=cts_encrypt, decrypt=cts_decrypt,
        init=cts_init_tfm, exit=cts_exit_tfm)
    capi.skcipher_register_instance(tmpl, inst, [spawn])


TEMPLATE = capi.Template(name="cts", create=cts_create)


def module_init() -> None:
    capi.crypto_register_template(TEMPLATE)


def module_exit() -> None:
    capi.crypto_unregister_template(TEMPLATE)
