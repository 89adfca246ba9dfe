"""The ``xts`` template (crypto/xts.c, with the 5.4+ ciphertext stealing).

``xts(<c>)`` spawns the skcipher ``<c>``, or ``ecb(<c>)`` when there is no
such skcipher (so ``xts(aes)`` has the driver ``xts(ecb(aes-generic))``).
T_0 = E_K2(IV), T_{i+1} = T_i·x in GF(2^128) (little-endian convention);
C_i = E_K1(P_i ⊕ T_i) ⊕ T_i.  Keys are K1 ‖ K2 (twice the cipher's sizes:
32, 48 or 64 bytes for AES); ``xts_verify_key``: odd lengths are EINVAL, in
FIPS mode (:data:`fips_enabled`) only 32 or 64 bytes (6.3+), and equal halves
are EINVAL in FIPS mode or with CRYPTO_TFM_REQ_FORBID_WEAK_KEYS.  Lengths
of at least 16 bytes; a length that is not whole blocks uses IEEE P1619
ciphertext stealing.  ``req.iv`` is not modified.  That is 5.4+'s rule;
under a kernel before 5.4 (``xts.stealing`` = "refused" in the
kernel-version table, crypto_api.version_rules) a length that is not whole
blocks is EINVAL and 0 bytes is a no-op, as v5.0's template had it.

The tweak cipher is allocated per tfm by the cipher's cra_name (the best
``aes`` at that moment), as v5.0–6.3 do.  When the ecb child is this
project's ``ecb`` template (its cipher offers a C block function,
crypto_api.cinterface) the
data runs in C loops on the request's walk (algs/modes_core.c); any other
child (an AES-NI ecb driver, an async one) is composed as the kernel does:
tweak pass, ECB child over the blocks, tweak pass.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.algs.modes_common import BLOCK, c_cipher, dst_ptr, src_ptr
from crypto_api.algs._modes import ffi, lib
from crypto_api.errors import EINVAL, ENOENT, CryptoError
from crypto_api.version_rules import rule
from crypto_api.fpu import DECLINE, SIMD
from crypto_api.scatterlist import scatterwalk_map_and_copy
from crypto_api.walk import skcipher_walk_done, skcipher_walk_virt

_from_buffer = ffi.from_buffer

MODULE_NAME = "xts"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("xts")

#: The kernel's fips_enabled: FIPS mode's key rules in xts_verify_key.
fips_enabled = False


def xts_verify_key(tfm, key: memoryview) -> None:
    """xts_verify_key (include/crypto/xts.h): EINVAL for an odd length, a
    non-FIPS length in FIPS mode, or equal halves in FIPS mode or when the
    tfm forbids weak keys."""
    name = tfm.alg.cra_driver_name
    n = len(key)
    if n % 2:
        raise CryptoError(EINVAL, f"{name}: key is {n} bytes, an odd length cannot be split into two keys")
    if fips_enabled and n not in (32, 64):
        raise CryptoError(EINVAL, f"{name}: key is {n} bytes; FIPS mode allows only 32 or 64")
    if (fips_enabled or tfm.crt_flags & capi.CRYPTO_TFM_REQ_FORBID_WEAK_KEYS) and key[:n // 2] == key[n // 2:]:
        raise CryptoError(EINVAL, f"{name}: the two key halves are equal (a weak XTS key, refused "
                                  f"{'in FIPS mode' if fips_enabled else 'as CRYPTO_TFM_REQ_FORBID_WEAK_KEYS asks'})")


def xts_init_tfm(tfm) -> None:
    ctx = tfm.ctx
    ctx.child = capi.crypto_spawn_skcipher(tfm.alg.instance.spawns[0])
    try:
        ctx.tweak = capi.crypto_alloc_cipher(tfm.alg.cra_name[4:-1])
    except BaseException:
        ctx.child.free()
        raise
    ctx.data_run = ctx.tweak_run = None


def xts_exit_tfm(tfm) -> None:
    ctx = tfm.ctx
    ctx.data_run = ctx.tweak_run = None
    for name in ("tweak", "child"):
        t = getattr(ctx, name, None)
        if t is not None:
            t.free()
            setattr(ctx, name, None)


def xts_setkey(tfm, key) -> None:
    ctx = tfm.ctx
    kv = memoryview(key).cast("B")
    xts_verify_key(tfm, kv)
    ctx.data_run = ctx.tweak_run = None
    half = len(kv) // 2
    req_flags = tfm.crt_flags & capi.CRYPTO_TFM_REQ_MASK
    for child, part in ((ctx.child, kv[:half]), (ctx.tweak, kv[half:])):
        child.clear_flags(capi.CRYPTO_TFM_REQ_MASK)
        child.set_flags(req_flags)
        child.setkey(part)
    ctx.data_run = c_cipher(ctx.child)      # an ``ecb`` template child offers its cipher's BLOCK
    ctx.tweak_run = c_cipher(ctx.tweak)


def _first_tweak(ctx, iv) -> bytearray:
    t = ffi.new("uint8_t[16]")
    ivb = bytes(memoryview(iv).cast("B")[:BLOCK])
    run = ctx.tweak_run
    if run is None or not run(True, lambda fn, c: lib.modes_xts_first_tweak(fn, c, t, ivb), BLOCK):
        ffi.memmove(t, ctx.tweak.encrypt_one(ivb), BLOCK)
    return t


def _too_short(tfm, n: int) -> CryptoError:
    return CryptoError(EINVAL, f"{tfm.alg.cra_driver_name}: request of {n} bytes; XTS needs at least {BLOCK}")


def stealing() -> bool:
    """True where the chosen kernel's xts steals ciphertext (5.4+, the composite's)."""
    return rule("xts.stealing", "stealing") == "stealing"


def _not_whole_blocks(tfm, n: int) -> CryptoError:
    return CryptoError(EINVAL, f"{tfm.alg.cra_driver_name}: request of {n} bytes is not a multiple of "
                               f"{BLOCK}; this kernel's xts has no ciphertext stealing (5.4+)")


# --------------------------------------------------------------------------
# C path: the blocks on the walk, the stolen pair gathered

def xts_walk_blocks(req, blocks, steal) -> None:
    """The layout of a C XTS request: the whole blocks before the stolen pair
    walk by walk step (``blocks(walk, nbytes)``, ``nbytes`` the step's whole
    blocks), then, where the length is not whole blocks, the last full block
    and the partial one gathered into a private buffer that ``steal(buf, r)``
    transforms in place, scattered to dst and wiped.  The template's C path and
    C XTS drivers (arch/x86/aria_xts_glue.py) share it."""
    n = req.cryptlen
    r = n % BLOCK
    main = n - (BLOCK + r if r else 0)
    if main:
        sub = capi.skcipher_request_alloc(req.tfm)
        capi.skcipher_request_set_crypt(sub, req.src, req.dst, main, bytearray(BLOCK))  # IV unused
        w = skcipher_walk_virt(sub)
        while w.nbytes:
            k = w.nbytes - w.nbytes % BLOCK
            blocks(w, k)
            skcipher_walk_done(w, w.nbytes - k)
    if r:
        buf = bytearray(BLOCK + r)
        try:
            scatterwalk_map_and_copy(buf, req.src, main, len(buf), False)
            steal(buf, r)
            scatterwalk_map_and_copy(buf, req.dst, main, len(buf), True)
        finally:
            buf[:] = bytes(len(buf))


def _crypt_c(req, encrypt: bool, t) -> None:
    run = req.tfm.ctx.data_run

    def blocks(w, k: int) -> None:
        src, dst = w.src[:k], w.dst[:k]
        run(encrypt, lambda fn, c: lib.modes_xts_blocks(fn, c, dst_ptr(dst), src_ptr(src), k // BLOCK, t), k)

    def steal(buf: bytearray, r: int) -> None:
        p = dst_ptr(buf)
        run(encrypt, lambda fn, c: lib.modes_xts_tail(fn, c, p, p, r, t, int(encrypt)), len(buf))

    xts_walk_blocks(req, blocks, steal)


# --------------------------------------------------------------------------
# Composed path: tweak pass, the ecb child, tweak pass (any child)

def _gf_x(t: bytes) -> bytes:
    v = int.from_bytes(t, "little")
    v = ((v << 1) & ((1 << 128) - 1)) ^ (0x87 if v >> 127 else 0)
    return v.to_bytes(16, "little")


def _child_blocks(ctx, buf: bytearray, t: bytes, encrypt: bool) -> bytes:
    """XTS over ``buf`` (whole blocks) in place through the ecb child;
    returns the tweak after them."""
    tw = ffi.new("uint8_t[16]", t)
    lib.modes_xts_xor(dst_ptr(buf), len(buf) // BLOCK, tw)
    (ctx.child.encrypt if encrypt else ctx.child.decrypt)(buf, None, buf)
    tw2 = ffi.new("uint8_t[16]", t)
    lib.modes_xts_xor(dst_ptr(buf), len(buf) // BLOCK, tw2)
    return bytes(ffi.buffer(tw2))


def _crypt_composed(req, encrypt: bool, t0: bytes) -> None:
    ctx = req.tfm.ctx
    n = req.cryptlen
    r = n % BLOCK
    m = n // BLOCK
    buf = bytearray(n)
    try:
        scatterwalk_map_and_copy(buf, req.src, 0, n, False)
        full = (m - 1) * BLOCK if r else n
        t = t0
        if full:
            part = bytearray(buf[:full])
            t = _child_blocks(ctx, part, t, encrypt)
            buf[:full] = part
        if r:
            t1 = _gf_x(t)
            first, second = (t, t1) if encrypt else (t1, t)
            head = bytearray(buf[full:full + BLOCK])
            _child_blocks(ctx, head, first, encrypt)
            tail = bytes(buf[full + BLOCK:])
            block = bytearray(tail + bytes(head[r:]))
            _child_blocks(ctx, block, second, encrypt)
            buf[full:full + BLOCK] = block
            buf[full + BLOCK:] = head[:r]
        scatterwalk_map_and_copy(buf, req.dst, 0, n, True)
    finally:
        buf[:] = bytes(n)


def _crypt(req, encrypt: bool) -> None:
    tfm = req.tfm
    ctx = tfm.ctx
    if not stealing():
        if req.cryptlen % BLOCK:
            raise _not_whole_blocks(tfm, req.cryptlen)
        if not req.cryptlen:
            return
    if req.cryptlen < BLOCK:
        raise _too_short(tfm, req.cryptlen)
    t = _first_tweak(ctx, req.iv)
    if ctx.data_run is not None and capi.simd_choice() != DECLINE:
        _crypt_c(req, encrypt, t)
    else:
        _crypt_composed(req, encrypt, bytes(ffi.buffer(t)))


def xts_encrypt(req) -> None:
    _crypt(req, True)


def xts_decrypt(req) -> None:
    _crypt(req, False)


def _contiguous(tfm, src, dst, n: int, iv, encrypt: bool) -> bool:
    """One buffer per side (``tfm.encrypt``; the disk tool's path): tweak,
    blocks and the stolen pair in one C call and one FPU section."""
    ctx = tfm.ctx
    run, trun = ctx.data_run, ctx.tweak_run
    if run is None or trun is None or n < BLOCK or (n % BLOCK and not stealing()):
        return False                    # the request path says why
    choice = capi.simd_choice()
    if choice == DECLINE:
        return False
    simd = choice == SIMD
    enc, dec, dctx = run.ops[simd]
    tenc, _, tctx = trun.ops[simd]
    d, s = _from_buffer("uint8_t[]", dst, require_writable=True), src_ptr(src)
    if simd:
        capi.kernel_fpu_begin()
    try:
        lib.modes_xts_crypt(enc if encrypt else dec, dctx, tenc, tctx, iv if type(iv) is bytes else bytes(iv),
                            d, s, n, encrypt)
        if simd:
            capi.fpu_account(n)
    finally:
        if simd:
            capi.kernel_fpu_end()
    return True


def xts_encrypt_contiguous(tfm, src, dst, n, iv) -> bool:
    return _contiguous(tfm, src, dst, n, iv, True)


def xts_decrypt_contiguous(tfm, src, dst, n, iv) -> bool:
    return _contiguous(tfm, src, dst, n, iv, False)


# --------------------------------------------------------------------------
# The template

def xts_create(tmpl, tb) -> None:
    algt = capi.crypto_get_attr_type(tb)
    if (algt.type ^ capi.CRYPTO_ALG_TYPE_SKCIPHER) & algt.mask & capi.CRYPTO_ALG_TYPE_MASK:
        raise CryptoError(EINVAL, "xts: instances are skciphers, another type was asked for")
    if len(tb) > 2:
        raise CryptoError(EINVAL, f"xts: takes 1 parameter, got {len(tb) - 1}")
    mask = capi.crypto_requires_sync(algt.type, algt.mask)
    name = capi.crypto_attr_alg_name(tb, 1, "xts")
    try:
        spawn = capi.crypto_grab_skcipher(name, 0, mask)
    except CryptoError as e:
        if e.errno != ENOENT or name.startswith("ecb("):
            raise
        spawn = capi.crypto_grab_skcipher(capi.crypto_inst_name("ecb", name), 0, mask)
    a = spawn.alg
    if a.cra_blocksize != BLOCK or a.ivsize:
        raise CryptoError(EINVAL, f"xts: {a.cra_driver_name} must have block size 16 and no IV "
                                  f"(has {a.cra_blocksize} and {a.ivsize})")
    if not (a.cra_name.startswith("ecb(") and a.cra_name.endswith(")")):
        raise CryptoError(EINVAL, f"xts: {a.cra_driver_name} ({a.cra_name}) is not an ecb(...) algorithm")
    inst = capi.SkcipherAlg(
        cra_name=capi.crypto_inst_name("xts", a.cra_name[4:-1]),
        cra_driver_name=capi.crypto_inst_name("xts", a.cra_driver_name),
        cra_priority=a.cra_priority, cra_flags=a.cra_flags & capi.CRYPTO_ALG_ASYNC,
        cra_blocksize=BLOCK, cra_alignmask=a.cra_alignmask | 7,
        min_keysize=2 * a.min_keysize, max_keysize=2 * a.max_keysize, ivsize=BLOCK,
        chunksize=BLOCK, walksize=BLOCK, setkey=xts_setkey,
        encrypt=xts_encrypt, decrypt=xts_decrypt,
        encrypt_contiguous=xts_encrypt_contiguous, decrypt_contiguous=xts_decrypt_contiguous,
        init=xts_init_tfm, exit=xts_exit_tfm)
    capi.skcipher_register_instance(tmpl, inst, [spawn])


TEMPLATE = capi.Template(name="xts", create=xts_create)


def module_init() -> None:
    capi.crypto_register_template(TEMPLATE)


def module_exit() -> None:
    capi.crypto_unregister_template(TEMPLATE)
