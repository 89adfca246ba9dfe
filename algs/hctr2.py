"""The ``hctr2`` and ``hctr2_base`` templates (crypto/hctr2.c, Linux 6.0 to 6.18).

``hctr2_base(<xctr skcipher>,<polyval shash>)``: HCTR2 ("Length-preserving
encryption with HCTR2", Crowley and Biggers), a length-preserving tweakable
cipher over XCTR, the XCTR's block cipher and POLYVAL, each spawned by name
so that any registered implementation slots in.  ``hctr2(<block cipher>)``
is ``hctr2_base(xctr(<block cipher>),polyval)``.  Tweak 32 bytes (the IV),
messages of at least one block (16 bytes), key sizes those of the XCTR.

With the message P = M ‖ N (M its first 16 bytes) and tweak T:
MM = M ⊕ H(T, N); UU = E(MM); S = MM ⊕ UU ⊕ L; V = XCTR_S(N);
U = UU ⊕ H(T, V); the ciphertext is U ‖ V (decryption mirrors it with D).
H(T, X) is POLYVAL under h = E(0^128) of a length block (le64 of
2·8·|T| + 2, plus 1 when |X| is not a multiple of 16), T, then X padded
with 0x01 and zeros to whole blocks; L = E(1 ‖ 0^120).
"""

from __future__ import annotations

from errno import EINPROGRESS

import crypto_api as capi
from crypto_api.algs import hctr2_direct
from crypto_api.completion import ASYNC_PENDING
from crypto_api.errors import EINVAL, ENOENT, CryptoError
from crypto_api.kernels.versions import key as version_key, selected as selected_kernel
from crypto_api.scatterlist import scatterwalk_ffwd, scatterwalk_map_and_copy, sg_pieces

MODULE_NAME = "hctr2"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("hctr2", "hctr2_base")

BLOCKCIPHER_BLOCK_SIZE = 16
POLYVAL_BLOCK_SIZE = 16
TWEAK_SIZE = 32


def hctr2_priority(xctr: int, polyval: int, blockcipher: int, since_6_19: bool = False) -> int:
    """The instance priority (crypto/hctr2.c): (2·xctr + 4·polyval +
    blockcipher) / 7 in 6.0 to 6.18, where the hash is weighted twice as
    it runs twice; from 6.19 POLYVAL is a library, not a spawn, and the
    formula is (2·xctr + blockcipher) / 3 (``since_6_19``)."""
    if since_6_19:
        return (2 * xctr + blockcipher) // 3
    return (2 * xctr + 4 * polyval + blockcipher) // 7


def polyval_is_library() -> bool:
    """True under 6.19 and later, where hctr2 calls the POLYVAL library instead
    of spawning a ``polyval`` shash: its driver names ``polyval-lib`` and its
    priority drops the hash term.  This project still hashes through the best
    ``polyval`` shash (kept in those versions), the library's own choice of code."""
    version = selected_kernel()
    return version is not None and version_key(version) >= (6, 19)


def length_block(has_remainder: bool) -> bytes:
    """The first block hashed: le64(2·8·TWEAK_SIZE + 2 + has_remainder) ‖ 0^64."""
    return (TWEAK_SIZE * 8 * 2 + 2 + int(has_remainder)).to_bytes(8, "little") + bytes(8)


# --------------------------------------------------------------------------
# Per-tfm set-up

def hctr2_init_tfm(tfm) -> None:
    spawns = tfm.alg.instance.spawns
    ctx = tfm.ctx
    ctx.hashed_tweaklen = None
    ctx.L = None
    ctx.fast = None
    ctx.xctr = capi.crypto_spawn_skcipher(spawns[0])
    try:
        ctx.blockcipher = capi.crypto_spawn_cipher(spawns[1])
        ctx.polyval = capi.crypto_spawn_shash(spawns[2])
    except BaseException:
        hctr2_exit_tfm(tfm)
        raise


def _forget_keys(ctx) -> None:
    """Wipe L and the two hash states (both derived from the key), and the
    one-call structs (copies of them and raw pointers into the children)."""
    hctr2_direct.drop(ctx)
    for buf in [getattr(ctx, "L", None)] + list(getattr(ctx, "hashed_tweaklen", None) or ()):
        if buf is not None:
            buf[:] = bytes(len(buf))
    ctx.L = None
    ctx.hashed_tweaklen = None


def hctr2_exit_tfm(tfm) -> None:
    ctx = tfm.ctx
    _forget_keys(ctx)
    for name in ("polyval", "blockcipher", "xctr"):
        child = getattr(ctx, name, None)
        if child is not None:
            child.free()
            setattr(ctx, name, None)


def hctr2_setkey(tfm, key) -> None:
    """Key the block cipher and the XCTR with ``key``; h = E(0) keys POLYVAL,
    L = E(1 ‖ 0…); the hash states after the two possible length blocks
    are kept (exported), as the kernel precomputes them."""
    ctx = tfm.ctx
    _forget_keys(ctx)
    req_flags = tfm.crt_flags & capi.CRYPTO_TFM_REQ_MASK
    for child in (ctx.blockcipher, ctx.xctr, ctx.polyval):
        child.clear_flags(capi.CRYPTO_TFM_REQ_MASK)
        child.set_flags(req_flags)
    ctx.blockcipher.setkey(key)
    ctx.xctr.setkey(key)
    hbar = bytearray(ctx.blockcipher.encrypt_one(bytes(BLOCKCIPHER_BLOCK_SIZE)))
    try:
        ctx.polyval.setkey(hbar)
    finally:
        hbar[:] = bytes(len(hbar))
    ctx.L = bytearray(ctx.blockcipher.encrypt_one(b"\x01" + bytes(BLOCKCIPHER_BLOCK_SIZE - 1)))
    states = []
    for has_remainder in (False, True):
        desc = ctx.polyval.desc().init()
        desc.update(length_block(has_remainder))
        states.append(bytearray(desc.export()))
    ctx.hashed_tweaklen = tuple(states)
    ctx.fast = hctr2_direct.build(ctx)


# --------------------------------------------------------------------------
# Encryption and decryption

def hctr2_hash(ctx, tweak: bytes, sgl, bulk_len: int) -> bytes:
    """H(T, X) over the ``bulk_len`` bytes of ``sgl`` (X, the bulk)."""
    remainder = bulk_len % POLYVAL_BLOCK_SIZE
    desc = ctx.polyval.desc().import_(ctx.hashed_tweaklen[remainder != 0])
    desc.update(tweak)
    for piece in sg_pieces(sgl, bulk_len):
        desc.update(piece)
    if remainder:
        desc.update(b"\x01" + bytes(POLYVAL_BLOCK_SIZE - remainder - 1))
    return desc.final()


def _xor(a, b) -> bytes:
    return (int.from_bytes(a, "little") ^ int.from_bytes(b, "little")).to_bytes(len(a), "little")


def hctr2_crypt(req, enc: bool) -> int:
    """0 when done; -EINPROGRESS/-EBUSY when the XCTR child went asynchronous
    (its completion finishes the request and calls the request's callback)."""
    tfm = req.tfm
    ctx = tfm.ctx
    n = req.cryptlen
    if n < BLOCKCIPHER_BLOCK_SIZE:
        raise CryptoError(EINVAL, f"{tfm.alg.cra_driver_name}: message is {n} bytes, at least "
                                  f"{BLOCKCIPHER_BLOCK_SIZE} are required")
    bulk_len = n - BLOCKCIPHER_BLOCK_SIZE
    tweak = bytes(memoryview(req.iv)[:TWEAK_SIZE])
    first = bytearray(BLOCKCIPHER_BLOCK_SIZE)
    scatterwalk_map_and_copy(first, req.src, 0, BLOCKCIPHER_BLOCK_SIZE, False)
    bulk_src = scatterwalk_ffwd(req.src, BLOCKCIPHER_BLOCK_SIZE)
    bulk_dst = scatterwalk_ffwd(req.dst, BLOCKCIPHER_BLOCK_SIZE)
    # MM = M ^ H(T || N); UU = E(MM) (D for decryption)
    mm = _xor(first, hctr2_hash(ctx, tweak, bulk_src, bulk_len))
    first[:] = bytes(BLOCKCIPHER_BLOCK_SIZE)
    uu = ctx.blockcipher.encrypt_one(mm) if enc else ctx.blockcipher.decrypt_one(mm)
    # S = MM ^ UU ^ L, the XCTR IV
    s = bytearray(_xor(_xor(mm, uu), ctx.L))

    def finish() -> None:
        """U = UU ^ H(T || V), written as the first block of dst."""
        s[:] = bytes(BLOCKCIPHER_BLOCK_SIZE)
        u = _xor(uu, hctr2_hash(ctx, tweak, bulk_dst, bulk_len))
        scatterwalk_map_and_copy(u, req.dst, 0, BLOCKCIPHER_BLOCK_SIZE, True)

    def xctr_done(sub, err: int) -> None:
        if err == -EINPROGRESS:
            return                      # a backlogged child has started; the real end follows
        if err == 0:
            try:
                finish()
            except CryptoError as e:
                err = -e.errno
        else:
            s[:] = bytes(BLOCKCIPHER_BLOCK_SIZE)
        if req.complete is not None:
            req.complete(req, err)

    if bulk_len:
        # V = XCTR_S(N)
        sub = capi.skcipher_request_alloc(ctx.xctr)
        capi.skcipher_request_set_callback(sub, req.flags, xctr_done, req)
        capi.skcipher_request_set_crypt(sub, bulk_src, bulk_dst, bulk_len, s)
        rc = capi.crypto_skcipher_encrypt(sub)
        if rc in ASYNC_PENDING:
            return rc
    finish()
    return 0


def hctr2_encrypt(req) -> int:
    if hctr2_direct.request(req, True):
        return 0
    return hctr2_crypt(req, True)


def hctr2_decrypt(req) -> int:
    if hctr2_direct.request(req, False):
        return 0
    return hctr2_crypt(req, False)


# --------------------------------------------------------------------------
# The templates

def _create_common(tmpl, tb, tname: str, xctr_name: str, polyval_name: str) -> None:
    algt = capi.crypto_get_attr_type(tb)
    if (algt.type ^ capi.CRYPTO_ALG_TYPE_SKCIPHER) & algt.mask & capi.CRYPTO_ALG_TYPE_MASK:
        raise CryptoError(EINVAL, f"{tname}: instances are skciphers, another type was asked for")
    mask = capi.crypto_requires_sync(algt.type, algt.mask)
    xctr = capi.crypto_grab_skcipher(xctr_name, 0, mask)
    x = xctr.alg
    if not (x.cra_name.startswith("xctr(") and x.cra_name.endswith(")")):
        raise CryptoError(EINVAL, f"{tname}: {x.cra_driver_name} is {x.cra_name}, not an xctr(...) "
                                  "algorithm")
    blockcipher = capi.crypto_grab_cipher(x.cra_name[len("xctr("):-1])
    b = blockcipher.alg
    if b.cra_blocksize != BLOCKCIPHER_BLOCK_SIZE:
        raise CryptoError(EINVAL, f"{tname}: {b.cra_driver_name} has block size {b.cra_blocksize}, "
                                  f"HCTR2 needs a {BLOCKCIPHER_BLOCK_SIZE}-byte block cipher")
    library = polyval_is_library()
    if library and polyval_name not in ("polyval", "polyval-lib"):
        raise CryptoError(ENOENT, f"{tname}: {polyval_name}: from 6.19 HCTR2 hashes with the POLYVAL "
                                  "library, named polyval or polyval-lib")
    polyval = capi.crypto_grab_shash("polyval" if library else polyval_name)
    p = polyval.alg
    if p.cra_name != "polyval":
        raise CryptoError(EINVAL, f"{tname}: {p.cra_driver_name} is {p.cra_name}, HCTR2 hashes with "
                                  "polyval")
    inst = capi.SkcipherAlg(
        cra_name=capi.crypto_inst_name("hctr2", b.cra_name),
        cra_driver_name=capi.crypto_inst_name("hctr2_base", x.cra_driver_name,
                                              "polyval-lib" if library else p.cra_driver_name),
        cra_priority=hctr2_priority(x.cra_priority, p.cra_priority, b.cra_priority, since_6_19=library),
        cra_flags=x.cra_flags & capi.CRYPTO_ALG_ASYNC,
        cra_blocksize=BLOCKCIPHER_BLOCK_SIZE, cra_alignmask=x.cra_alignmask | p.cra_alignmask,
        min_keysize=x.min_keysize, max_keysize=x.max_keysize, ivsize=TWEAK_SIZE,
        setkey=hctr2_setkey, encrypt=hctr2_encrypt, decrypt=hctr2_decrypt,
        encrypt_contiguous=hctr2_direct.encrypt_contiguous,
        decrypt_contiguous=hctr2_direct.decrypt_contiguous, direct=hctr2_direct.direct,
        init=hctr2_init_tfm, exit=hctr2_exit_tfm)
    capi.skcipher_register_instance(tmpl, inst, [xctr, blockcipher, polyval])


def hctr2_base_create(tmpl, tb) -> None:
    if len(tb) > 3:
        raise CryptoError(EINVAL, f"hctr2_base: takes 2 parameters, got {len(tb) - 1}")
    xctr_name = capi.crypto_attr_alg_name(tb, 1, "hctr2_base")
    polyval_name = capi.crypto_attr_alg_name(tb, 2, "hctr2_base")
    _create_common(tmpl, tb, "hctr2_base", xctr_name, polyval_name)


def hctr2_create(tmpl, tb) -> None:
    if len(tb) > 2:
        raise CryptoError(EINVAL, f"hctr2: takes 1 parameter, got {len(tb) - 1}")
    blockcipher_name = capi.crypto_attr_alg_name(tb, 1, "hctr2")
    _create_common(tmpl, tb, "hctr2", capi.crypto_inst_name("xctr", blockcipher_name), "polyval")


TEMPLATES = (capi.Template(name="hctr2_base", create=hctr2_base_create),
             capi.Template(name="hctr2", create=hctr2_create))


def module_init() -> None:
    capi.crypto_register_templates(TEMPLATES)


def module_exit() -> None:
    capi.crypto_unregister_templates(TEMPLATES)
