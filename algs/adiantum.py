"""The Adiantum template (crypto/adiantum.c, Linux v5.0).

``adiantum(<stream>,<block>[,<hash>])``: a length-preserving tweakable
cipher built from XChaCha12 or XChaCha20 (the stream cipher), AES-256 (one
block) and NHPoly1305 (the hash), each spawned by name so that any registered
implementation (generic, SIMD or a plug-in) slots in.  The kernel API fixes
the tweak at 32 bytes (the IV); :func:`adiantum_encrypt` /
:func:`adiantum_decrypt` accept a tweak of any length, as the specification
does, on the same transform and drivers.

Encryption of P = PL ‖ PR (PR the last 16 bytes) under tweak T:
PM = PR + H(T, PL); CM = AES(PM); CL = PL ⊕ XChaCha(nonce CM ‖ 1);
CR = CM − H(T, CL).  H adds (mod 2^128) a Poly1305 of the header
(bit length ‖ tweak) and a Poly1305 of NH over the bulk (the nhpoly1305 hash).
"""

from __future__ import annotations

from typing import Callable

import crypto_api as capi
from crypto_api.algs._poly1305 import ffi as poly_ffi
from crypto_api.algs._poly1305 import lib as poly_lib
from crypto_api.cinterface import Kind, Offer, WideEntries, entries
from crypto_api.direct import skcipher_direct
from crypto_api.errors import EINVAL, ENOENT, CryptoError
from crypto_api.fpu import DECLINE, SIMD
from crypto_api.scatterlist import (as_byte_view, scatterwalk_map_and_copy, sg_init_one,
                                    sg_linear_views, sg_pieces)

MODULE_NAME = "adiantum"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("adiantum")

BLOCKCIPHER_BLOCK_SIZE = 16
BLOCKCIPHER_KEY_SIZE = 32
HASH_KEY_SIZE = 16 + 1072          # Poly1305 r for the message hash + NH key
TWEAK_SIZE = 32
XCHACHA_IV_SIZE = 32
DERIVED_KEY_SIZE = BLOCKCIPHER_KEY_SIZE + 16 + HASH_KEY_SIZE   # 1136
MASK128 = (1 << 128) - 1
_GENERIC_POLY = poly_ffi.addressof(poly_lib, "poly1305_generic_ops")


# --------------------------------------------------------------------------
# Per-tfm set-up

def adiantum_init_tfm(tfm) -> None:
    spawns = tfm.alg.instance.spawns
    ctx = tfm.ctx
    ctx.streamcipher = capi.crypto_spawn_skcipher(spawns[0])
    try:
        ctx.blockcipher = capi.crypto_spawn_cipher(spawns[1])
        ctx.hash = capi.crypto_spawn_shash(spawns[2])
    except BaseException:
        adiantum_exit_tfm(tfm)
        raise
    ctx.header_key = poly_ffi.new("uint8_t[16]")
    ctx.direct = None


def _drop_direct(ctx) -> None:
    """Forget the one-call structs: zero their raw pointers into the child
    contexts (and the keys' addresses) before the children go."""
    direct = getattr(ctx, "direct", None)
    ctx.direct = None
    if direct:
        for f in direct.values():
            _ffi_direct.memmove(f, bytes(_ffi_direct.sizeof(f[0])), _ffi_direct.sizeof(f[0]))


def adiantum_exit_tfm(tfm) -> None:
    ctx = tfm.ctx
    _drop_direct(ctx)
    for name in ("hash", "blockcipher", "streamcipher"):
        child = getattr(ctx, name, None)
        if child is not None:
            child.free()
            setattr(ctx, name, None)
    key = getattr(ctx, "header_key", None)
    if key is not None:
        poly_lib.crypto_memzero(key, 16)


def adiantum_setkey(tfm, key: bytearray) -> None:
    """Set the stream key, then derive K_E, K_T, K_L and K_N from its keystream
    (in a bytearray handed to the children as views, zeroed afterwards)."""
    ctx = tfm.ctx
    _drop_direct(ctx)                   # no raw pointers to keys being replaced
    req_flags = tfm.crt_flags & capi.CRYPTO_TFM_REQ_MASK
    for child in (ctx.streamcipher, ctx.blockcipher, ctx.hash):
        child.clear_flags(capi.CRYPTO_TFM_REQ_MASK)
        child.set_flags(req_flags)
    ctx.streamcipher.setkey(key)
    iv = bytearray(XCHACHA_IV_SIZE)
    iv[0] = 1
    derived = bytearray(DERIVED_KEY_SIZE)
    req = capi.skcipher_request_alloc(ctx.streamcipher)
    capi.skcipher_request_set_crypt(req, sg_init_one(derived), sg_init_one(derived), DERIVED_KEY_SIZE, iv)
    try:
        capi.crypto_skcipher_encrypt(req)
        with memoryview(derived) as dv:
            ctx.blockcipher.setkey(dv[:BLOCKCIPHER_KEY_SIZE])
            poly_ffi.memmove(ctx.header_key, dv[32:48], 16)
            ctx.hash.setkey(dv[48:])
    finally:
        derived[:] = bytes(DERIVED_KEY_SIZE)
    ctx.direct = _direct_structs(ctx)


# --------------------------------------------------------------------------
# The one-call path (algs/adiantum_core.c)

def _direct_structs(ctx):
    """{simd: struct adiantum_fast} when every inner driver offers its C
    entries (crypto_api.cinterface: STREAM, BLOCK and NHPOLY1305), else None
    (the composed path is used).  A stream cipher whose STREAM entries have
    ``lanes`` (eight streams at once) gives adiantum_crypt_many its lanes;
    else it runs one message at a time."""
    from crypto_api.algs._adiantum import ffi
    small = entries(ctx.streamcipher, Kind.STREAM, False)
    out = {}
    for simd in (False, True):
        s = entries(ctx.streamcipher, Kind.STREAM, simd)
        b = entries(ctx.blockcipher, Kind.BLOCK, simd)
        h = entries(ctx.hash, Kind.NHPOLY1305, simd)
        if small is None or s is None or b is None or h is None:
            return None
        f = ffi.new("struct adiantum_fast *")
        f.stream_crypt = ffi.cast("adiantum_stream_fn", s.crypt)
        f.stream_small = ffi.cast("adiantum_stream_fn", small.crypt)
        f.hchacha = ffi.cast("adiantum_hchacha_fn", s.hchacha)
        f.hchacha_small = ffi.cast("adiantum_hchacha_fn", small.hchacha)
        if s.lanes is not None:         # eight messages at once (adiantum_crypt_many)
            f.hchacha_lanes = ffi.cast("adiantum_hchacha_lanes_fn", s.lanes[0])
            f.stream_lanes = ffi.cast("adiantum_stream_lanes_fn", s.lanes[1])
        f.nrounds = s.nrounds
        f.stream_key = ffi.cast("uint8_t *", s.key)
        f.block_encrypt = ffi.cast("adiantum_block_fn", b.encrypt)
        f.block_decrypt = ffi.cast("adiantum_block_fn", b.decrypt)
        f.block_ctx = ffi.cast("void *", b.key)
        f.nh_bulk = ffi.cast("nh_fn_t", h.nh_bulk)
        f.nh_small = ffi.cast("nh_fn_t", h.nh_small)
        f.hash_poly = h.poly
        f.hash_key = h.key
        f.header_r = ffi.cast("uint8_t *", ctx.header_key)
        out[simd] = f
    return out


def adiantum_wide_entries(tfm, simd: bool):
    """The WIDE offer (crypto_api.cinterface): adiantum_crypt and
    adiantum_crypt_many over this instance's one-call struct, when every
    inner driver offers its C entries."""
    direct = tfm.ctx.direct
    if direct is None:
        return None
    return WideEntries(crypt=_WIDE_CRYPT, crypt_many=_WIDE_CRYPT_MANY, handle=direct[simd])


def _direct_crypt(tfm, src, dst, n: int, tweak, enc: bool) -> bool:
    """One C call over contiguous ``src``/``dst`` (memoryviews of ``n`` bytes),
    unless an inner driver offers no C entries or an FPU trace is
    recording (the composed path, which makes the real sections, then runs)."""
    direct = tfm.ctx.direct
    if direct is None:
        return False
    choice = _simd_choice()
    if choice == DECLINE:               # a trace records: the composed path's sections
        return False
    simd = choice == SIMD
    if simd:
        _fpu_begin()
    try:
        rc = _adiantum_crypt(direct[simd], _fb("uint8_t[]", dst, require_writable=True),
                             src if type(src) is bytes else _fb("uint8_t[]", src), n, tweak, len(tweak), enc)
    finally:
        if simd:
            _fpu_end()
    if rc:
        raise CryptoError(EINVAL, f"{tfm.alg.cra_driver_name}: message is {n} bytes, at least "
                                  f"{BLOCKCIPHER_BLOCK_SIZE} are required")
    return True


def _direct_request(tfm, req, enc: bool) -> bool:
    """The request path in one C call: directly on one contiguous buffer per
    side, else on a gathered copy scattered back (Adiantum reads the whole
    message before it writes any of it, so the result is the same)."""
    if tfm.ctx.direct is None or _simd_choice() == DECLINE:
        return False
    src, dst = req.src, req.dst
    n = req.cryptlen
    tweak = bytes(req.iv[:TWEAK_SIZE])
    views = sg_linear_views(src, dst, n)
    if views is not None:
        return _direct_crypt(tfm, views[0], views[1], n, tweak, enc)
    if n < BLOCKCIPHER_BLOCK_SIZE:
        return False                    # the composed path gives the error
    inbuf = bytearray(n)
    scatterwalk_map_and_copy(inbuf, src, 0, n, False)
    outbuf = bytearray(n)
    try:
        if not _direct_crypt(tfm, inbuf, outbuf, n, tweak, enc):
            return False
        scatterwalk_map_and_copy(outbuf, dst, 0, n, True)
    finally:
        inbuf[:] = bytes(n)             # plaintext copies do not outlive the request
        outbuf[:] = bytes(n)
    return True


def adiantum_encrypt_contiguous(tfm, src, dst, n, iv) -> bool:
    return _direct_crypt(tfm, src, dst, n, iv, True)


def adiantum_decrypt_contiguous(tfm, src, dst, n, iv) -> bool:
    return _direct_crypt(tfm, src, dst, n, iv, False)


def adiantum_direct(tfm, encrypt: bool):
    """``SkcipherAlg.direct``: the one-call path with the pointers fixed at
    setkey (crypto_api.direct.skcipher_direct over adiantum_crypt), SIMD inner
    code when crypto_simd_usable(); messages under 16 bytes are left to the
    full path, which refuses them.  None (no direct path) when an inner driver
    offers no C entries."""
    direct = tfm.ctx.direct
    if direct is None:
        return None
    return skcipher_direct(_direct_ptrs[encrypt], direct[False], direct[True], TWEAK_SIZE,
                           min_len=BLOCKCIPHER_BLOCK_SIZE, returns_int=True)


def _bind_direct_path() -> None:
    global _adiantum_crypt, _fb, _ffi_direct, _direct_ptrs
    global _WIDE_CRYPT, _WIDE_CRYPT_MANY
    from crypto_api.algs._adiantum import ffi, lib
    _WIDE_CRYPT = ffi.addressof(lib, "adiantum_crypt")
    _WIDE_CRYPT_MANY = ffi.addressof(lib, "adiantum_crypt_many")
    _adiantum_crypt, _fb, _ffi_direct = lib.adiantum_crypt, ffi.from_buffer, ffi
    _direct_ptrs = {True: ffi.addressof(lib, "adiantum_encrypt_bytes"),
                     False: ffi.addressof(lib, "adiantum_decrypt_bytes")}


_simd_choice = capi.simd_choice
_fpu_begin = capi.kernel_fpu_begin
_fpu_end = capi.kernel_fpu_end
_bind_direct_path()


# --------------------------------------------------------------------------
# The hash H(T, L)

def _poly1305_padded(raw_r, data: bytes) -> int:
    """Poly1305 polynomial (no "+ s") of ``data`` with the usual final-block padding."""
    state = poly_ffi.new("poly1305_core_state *")
    key = poly_ffi.new("poly1305_core_key *")
    ops = _GENERIC_POLY
    ops.setkey(key, raw_r)
    ops.init(state)
    full = len(data) // 16
    if full:
        ops.blocks(state, key, data[:16 * full], full, 1)
    tail = data[16 * full:]
    if tail:
        ops.blocks(state, key, tail + b"\x01" + bytes(15 - len(tail)), 1, 0)
    out = poly_ffi.new("uint8_t[16]")
    ops.emit(state, out)
    poly_lib.crypto_memzero(key, poly_ffi.sizeof(key[0]))     # K_T's expanded form
    return int.from_bytes(poly_ffi.buffer(out), "little")


def header_hash(ctx, bulk_len: int, tweak: bytes) -> int:
    """Poly1305 under K_T of le128(8·|L|) ‖ T (whole blocks for the 32-byte tweak)."""
    header = (8 * bulk_len).to_bytes(16, "little") + bytes(tweak)
    if len(tweak) % 16 == 0:
        out = poly_ffi.new("uint8_t[16]")
        poly_lib.poly1305_core_hash(_GENERIC_POLY, ctx.header_key, header, len(header) // 16, out)
        return int.from_bytes(poly_ffi.buffer(out), "little")
    return _poly1305_padded(ctx.header_key, header)


def message_hash(ctx, sgl, bulk_len: int) -> int:
    """NHPoly1305 of the bulk, fed through the hash tfm one page piece at a time (sg_miter)."""
    desc = ctx.hash.desc().init()
    for piece in sg_pieces(sgl, bulk_len):
        desc.update(piece)
    return int.from_bytes(desc.final(), "little")


# --------------------------------------------------------------------------
# Encryption and decryption

def adiantum_crypt_sg(tfm, src, dst, nbytes: int, tweak: bytes, enc: bool) -> None:
    """Adiantum over scatterlists with any tweak length (src may equal dst)."""
    ctx = tfm.ctx
    driver = tfm.alg.cra_driver_name
    if nbytes < BLOCKCIPHER_BLOCK_SIZE:
        raise CryptoError(EINVAL, f"{driver}: message is {nbytes} bytes, at least "
                                  f"{BLOCKCIPHER_BLOCK_SIZE} are required")
    bulk_len = nbytes - BLOCKCIPHER_BLOCK_SIZE
    h_t = header_hash(ctx, bulk_len, tweak)
    right = bytearray(16)
    scatterwalk_map_and_copy(right, src, bulk_len, 16, False)
    m = (int.from_bytes(right, "little") + h_t + message_hash(ctx, src, bulk_len)) & MASK128
    block = m.to_bytes(16, "little")
    if enc:
        cm = ctx.blockcipher.encrypt_one(block)
    else:
        cm = block
    # Stream over the bulk, rounded up to a whole ChaCha block when that still fits.
    stream_len = bulk_len
    if bulk_len % 64 and (bulk_len + 63) // 64 * 64 <= nbytes:
        stream_len = (bulk_len + 63) // 64 * 64
    iv = bytearray(cm) + (1).to_bytes(4, "little") + bytes(12)
    req = capi.skcipher_request_alloc(ctx.streamcipher)
    capi.skcipher_request_set_crypt(req, src, dst, stream_len, iv)
    capi.crypto_skcipher_encrypt(req)
    if not enc:
        block = ctx.blockcipher.decrypt_one(cm)
    else:
        block = cm
    out = (int.from_bytes(block, "little") - h_t - message_hash(ctx, dst, bulk_len)) & MASK128
    scatterwalk_map_and_copy(out.to_bytes(16, "little"), dst, bulk_len, 16, True)


def adiantum_encrypt_req(req) -> None:
    tfm = req.tfm
    if _direct_request(tfm, req, True):
        return
    adiantum_crypt_sg(tfm, req.src, req.dst, req.cryptlen, bytes(req.iv[:TWEAK_SIZE]), True)


def adiantum_decrypt_req(req) -> None:
    tfm = req.tfm
    if _direct_request(tfm, req, False):
        return
    adiantum_crypt_sg(tfm, req.src, req.dst, req.cryptlen, bytes(req.iv[:TWEAK_SIZE]), False)


def _check_adiantum_tfm(tfm) -> None:
    if not isinstance(tfm, capi.CryptoSkcipher) or not tfm.alg.cra_name.startswith("adiantum("):
        raise TypeError("expected a transform of an adiantum(...) algorithm")
    tfm._check_key()


def _any_tweak(tfm, data, tweak, enc: bool) -> bytes:
    _check_adiantum_tfm(tfm)
    src = bytes(as_byte_view(data, f"{tfm.driver_name}: data"))
    tw = bytes(as_byte_view(tweak, f"{tfm.driver_name}: tweak"))
    out = bytearray(len(src))
    adiantum_crypt_sg(tfm, sg_init_one(src), sg_init_one(out), len(src), tw, enc)
    return bytes(out)


def adiantum_encrypt(tfm, data, tweak) -> bytes:
    """Encrypt with a tweak of any length (the kernel API only takes 32 bytes).

    ``tfm`` is an allocated, keyed ``adiantum(...)`` skcipher; a 32-byte tweak
    gives exactly ``tfm.encrypt(data, tweak)``.
    """
    return _any_tweak(tfm, data, tweak, True)


def adiantum_decrypt(tfm, data, tweak) -> bytes:
    """Decrypt with a tweak of any length."""
    return _any_tweak(tfm, data, tweak, False)


# --------------------------------------------------------------------------
# Streaming: a message too large to hold in memory

#: Bytes per step of :func:`adiantum_crypt_stream` (a whole number of ChaCha blocks).
STREAM_CHUNK = 1 << 20
_CHACHA_BLOCK = 64


def _stream_iv(cm: bytes, block: int) -> bytes:
    """The XChaCha IV of the bulk's keystream from block ``block`` on: nonce
    CM ‖ le64(1), stream position ``block`` in state word 12 (32-bit wrap, as
    the ChaCha core increments it)."""
    return cm + (1).to_bytes(8, "little") + (block & 0xFFFFFFFF).to_bytes(8, "little")


def adiantum_crypt_stream(tfm, encrypt: bool, tweak, read_at: Callable[[int, int], bytes],
                          total: int, write: Callable[[memoryview], None],
                          chunk_size: int = STREAM_CHUNK) -> None:
    """Adiantum over a message of ``total`` bytes in constant memory, two passes.

    ``read_at(offset, n)`` returns the ``n`` message bytes at ``offset``: the
    message is read twice (pass 1 hashes the bulk, pass 2 runs XChaCha over
    it), so it must be re-readable (a seekable file).  ``write(piece)`` gets
    the output in order, ``chunk_size`` bytes at a time, the last 16 bytes
    last; a piece is only valid during the call.  ``tweak`` may have any
    length.  The output is byte-identical to ``tfm.encrypt(message, tweak)``
    (``tfm.decrypt`` when ``encrypt`` is false): the same H(T, L), AES and
    XChaCha steps as :func:`adiantum_crypt_sg`, the XChaCha IV advanced by
    the blocks already processed.  Nothing is written before pass 1 ends.
    """
    _check_adiantum_tfm(tfm)
    if chunk_size <= 0 or chunk_size % _CHACHA_BLOCK:
        raise ValueError(f"chunk_size must be a positive multiple of {_CHACHA_BLOCK}")
    if total < BLOCKCIPHER_BLOCK_SIZE:
        raise CryptoError(EINVAL, f"{tfm.alg.cra_driver_name}: message is {total} bytes, at least "
                                  f"{BLOCKCIPHER_BLOCK_SIZE} are required")
    ctx = tfm.ctx
    bulk_len = total - BLOCKCIPHER_BLOCK_SIZE
    h_t = header_hash(ctx, bulk_len, bytes(as_byte_view(tweak, f"{tfm.driver_name}: tweak")))
    desc = ctx.hash.desc().init()
    for off in range(0, bulk_len, chunk_size):
        desc.update(read_at(off, min(chunk_size, bulk_len - off)))
    right = int.from_bytes(read_at(bulk_len, BLOCKCIPHER_BLOCK_SIZE), "little")
    block = ((right + h_t + int.from_bytes(desc.final(), "little")) & MASK128).to_bytes(16, "little")
    cm = ctx.blockcipher.encrypt_one(block) if encrypt else block
    desc = ctx.hash.desc().init()
    out = bytearray(min(chunk_size, bulk_len))
    view = memoryview(out)
    try:
        for off in range(0, bulk_len, chunk_size):
            piece = view[:min(chunk_size, bulk_len - off)]
            ctx.streamcipher.encrypt(read_at(off, len(piece)), _stream_iv(cm, off // _CHACHA_BLOCK), out=piece)
            desc.update(piece)
            write(piece)
    finally:
        out[:] = bytes(len(out))        # plaintext (one side or the other) does not linger
    pm = cm if encrypt else ctx.blockcipher.decrypt_one(cm)
    last = (int.from_bytes(pm, "little") - h_t - int.from_bytes(desc.final(), "little")) & MASK128
    write(memoryview(last.to_bytes(16, "little")))


# --------------------------------------------------------------------------
# The template

def _unsupported(stream, block, hash_):
    """The first inner algorithm Adiantum cannot use, or None."""
    if (stream.cra_name not in ("xchacha12", "xchacha20") or stream.ivsize != XCHACHA_IV_SIZE
            or stream.min_keysize > 32 or stream.max_keysize < 32):
        return stream
    if (block.cra_blocksize != BLOCKCIPHER_BLOCK_SIZE
            or not block.min_keysize <= BLOCKCIPHER_KEY_SIZE <= block.max_keysize):
        return block
    if hash_.cra_name != "nhpoly1305" or hash_.digestsize != 16:
        return hash_
    return None


def adiantum_create(tmpl, tb) -> None:
    algt = capi.crypto_get_attr_type(tb)
    if (algt.type ^ capi.CRYPTO_ALG_TYPE_SKCIPHER) & algt.mask & capi.CRYPTO_ALG_TYPE_MASK:
        raise CryptoError(EINVAL, "adiantum: instances are skciphers, another type was asked for")
    mask = capi.crypto_requires_sync(algt.type, algt.mask)
    stream_name = capi.crypto_attr_alg_name(tb, 1, "adiantum")
    block_name = capi.crypto_attr_alg_name(tb, 2, "adiantum")
    try:
        hash_name = capi.crypto_attr_alg_name(tb, 3, "adiantum")
    except CryptoError as e:
        if e.errno != ENOENT:
            raise
        hash_name = "nhpoly1305"
    if len(tb) > 4:
        raise CryptoError(EINVAL, f"adiantum: takes 2 or 3 parameters, got {len(tb) - 1}")
    stream = capi.crypto_grab_skcipher(stream_name, 0, mask)
    block = capi.crypto_grab_cipher(block_name)
    hash_ = capi.crypto_grab_shash(hash_name)
    s, b, h = stream.alg, block.alg, hash_.alg
    bad = _unsupported(s, b, h)
    if bad is not None:
        raise CryptoError(EINVAL, f"adiantum: unsupported instantiation ({s.cra_driver_name},"
                                  f"{b.cra_driver_name},{h.cra_driver_name}): "
                                  f"{bad.cra_driver_name} cannot be used (needs xchacha12 or "
                                  "xchacha20, a 16-byte block cipher taking a 32-byte key, "
                                  "and nhpoly1305)")
    cra_name = capi.crypto_inst_name("adiantum", s.cra_name, b.cra_name)
    driver = capi.crypto_inst_name("adiantum", s.cra_driver_name, b.cra_driver_name, h.cra_driver_name)
    inst = capi.SkcipherAlg(
        cra_name=cra_name, cra_driver_name=driver,
        cra_priority=(4 * s.cra_priority + 2 * h.cra_priority + b.cra_priority) // 7,
        cra_flags=s.cra_flags & capi.CRYPTO_ALG_ASYNC,
        cra_blocksize=BLOCKCIPHER_BLOCK_SIZE,
        cra_alignmask=s.cra_alignmask | h.cra_alignmask,
        min_keysize=s.min_keysize, max_keysize=s.max_keysize, ivsize=TWEAK_SIZE,
        setkey=adiantum_setkey, encrypt=adiantum_encrypt_req, decrypt=adiantum_decrypt_req,
        encrypt_contiguous=adiantum_encrypt_contiguous, decrypt_contiguous=adiantum_decrypt_contiguous,
        direct=adiantum_direct, init=adiantum_init_tfm, exit=adiantum_exit_tfm,
        c_entries=(Offer(Kind.WIDE, adiantum_wide_entries),))
    capi.skcipher_register_instance(tmpl, inst, [stream, block, hash_])


TEMPLATE = capi.Template(name="adiantum", create=adiantum_create)


def module_init() -> None:
    capi.crypto_register_template(TEMPLATE)


def module_exit() -> None:
    capi.crypto_unregister_template(TEMPLATE)
