"""ChaCha20, XChaCha20 and XChaCha12 generic drivers (crypto/chacha_generic.c).

Registers ``chacha20-generic``, ``xchacha20-generic`` and ``xchacha12-generic``
(priority 100) on the portable C core.  The helpers here (setkey, state set-up,
the walk loop) are what the x86 SIMD glue falls back to, as the kernel's x86
glue calls crypto_chacha_crypt / crypto_xchacha_crypt.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.algs._chacha_generic import ffi, lib
from crypto_api.cinterface import Kind, Offer, StreamEntries, entries
from crypto_api.direct import skcipher_direct
from crypto_api.simd_rule import SimdRule
from crypto_api.scatterlist import sg_linear_views

MODULE_NAME = "chacha_generic"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO(
    "chacha20", "chacha20-generic", "xchacha20", "xchacha20-generic",
    "xchacha12", "xchacha12-generic")

CHACHA_KEY_SIZE = 32
CHACHA_BLOCK_SIZE = 64
CHACHA_IV_SIZE = 16
XCHACHA_IV_SIZE = 32
#: v5.0's x86 glue: a request of one ChaCha block or less runs the generic
#: code (the descriptors' ``simd_rule``; every path of the SIMD glue and the
#: direct path decide through it).
CHACHA_SIMD_RULE = SimdRule(above=CHACHA_BLOCK_SIZE)

_from_buffer = ffi.from_buffer
_crypt = lib.chacha_crypt_generic
#: The generic C code by itself, for glue that falls back one step at a time:
#: ``generic_crypt(state, dst, src, nbytes, nrounds)`` (advances the counter),
#: ``generic_hchacha(state, subkey, nrounds)``.
generic_crypt = lib.chacha_crypt_generic
generic_hchacha = lib.hchacha_block_generic


def chacha_setkey(tfm, key: bytearray, nrounds: int) -> None:
    """crypto_chacha_setkey: keep the 32-byte key and the round count."""
    ctx = tfm.ctx
    k = getattr(ctx, "key", None)
    if k is None:
        k = ctx.key = ffi.new("uint8_t[32]")
    else:
        lib.crypto_memzero(k, CHACHA_KEY_SIZE)
    ffi.memmove(k, key, CHACHA_KEY_SIZE)
    ctx.nrounds = nrounds


def chacha20_setkey(tfm, key: bytearray) -> None:
    chacha_setkey(tfm, key, 20)


def chacha12_setkey(tfm, key: bytearray) -> None:
    chacha_setkey(tfm, key, 12)


def chacha_exit(tfm) -> None:
    """Wipe the key when the tfm is freed."""
    k = getattr(tfm.ctx, "key", None)
    if k is not None:
        lib.crypto_memzero(k, CHACHA_KEY_SIZE)


def chacha_state(ctx, iv, xchacha: bool):
    """The 16-word ChaCha state for a request (the subkey derived for XChaCha)."""
    state = ffi.new("uint32_t[16]")
    if xchacha:
        lib.xchacha_setup(state, ctx.key, _from_buffer("uint8_t[]", iv), ctx.nrounds)
    else:
        lib.chacha_setup(state, ctx.key, _from_buffer("uint8_t[]", iv))
    return state


def arch_state(ctx, iv, xchacha: bool, hchacha):
    """The state an arch glue starts from: ChaCha's from the key and IV; for
    XChaCha the subkey comes from the arch's ``hchacha(state, subkey, nrounds)``
    (run where the glue wants it: inside its SIMD section, or in one of its own)."""
    state = ffi.new("uint32_t[16]")
    lib.chacha_setup(state, ctx.key, _from_buffer("uint8_t[]", iv))   # words 12-15 = iv[0:16]
    if xchacha:
        subkey = ffi.new("uint32_t[8]")
        hchacha(state, subkey, ctx.nrounds)
        lib.chacha_init_state(state, subkey, bytes(iv[24:32]) + bytes(iv[16:24]))
        lib.crypto_memzero(subkey, 32)
    return state


def stream_steps(req, xchacha: bool, hchacha, step) -> None:
    """An arch glue's request over the walk: the state (XChaCha's subkey from
    ``hchacha``, see :func:`arch_state`), then each walk step, non-final ones
    rounded down to the walk's stride, through ``step(state, dst, src,
    nbytes, nrounds)`` (``dst``/``src`` the step's buffers, at least
    ``nbytes`` long); the state wiped after."""
    ctx = req.tfm.ctx
    state = arch_state(ctx, req.iv, xchacha, hchacha)
    try:
        walk = capi.skcipher_walk_virt(req, atomic=False)
        while walk.nbytes:
            n = walk.nbytes
            if n < walk.total:
                n -= n % walk.stride
            step(state, walk.dst, walk.src, n, ctx.nrounds)
            capi.skcipher_walk_done(walk, walk.nbytes - n)
    finally:
        wipe_state(state)


def advance_counter(state, nbytes: int) -> None:
    """Word 12 += the blocks ``nbytes`` used (a partial last block counts), mod 2^32;
    word 13 never takes a carry (the v5.0 arch glues' 32-bit counter)."""
    state[12] = (state[12] + -(-nbytes // CHACHA_BLOCK_SIZE)) & 0xFFFFFFFF


def grouped_step(xor, group: int, state, dst, src, n: int, nrounds: int) -> None:
    """``n`` bytes through a core that works in ``group``-byte units,
    ``xor(state, dst, src, nbytes, nrounds)`` (not advancing the counter
    itself): whole groups in one call, a shorter last piece bounced through a
    zeroed ``group``-byte buffer (wiped after); the counter advanced here."""
    whole = n - n % group
    if whole:
        xor(state, dst[:whole], src[:whole], whole, nrounds)
        advance_counter(state, whole)
    tail = n - whole
    if tail:
        bounce = bytearray(group)
        bounce[:tail] = src[whole:n]
        try:
            xor(state, bounce, bounce, group, nrounds)
            dst[whole:n] = bounce[:tail]
        finally:
            bounce[:] = bytes(group)
        advance_counter(state, tail)


def chacha_walk(req, state, nrounds: int, crypt=_crypt) -> None:
    """Run ``crypt`` over the request: each non-final step rounded down to 64 bytes.

    One contiguous source and destination give the same keystream as the
    page-by-page walk (every non-final step is a multiple of 64 bytes), so
    that case is a single call.
    """
    views = sg_linear_views(req.src, req.dst, req.cryptlen)
    if views is not None:
        s, d = views
        if req.cryptlen:
            crypt(state, _from_buffer("uint8_t[]", d), _from_buffer("uint8_t[]", s), req.cryptlen, nrounds)
        return
    walk = capi.skcipher_walk_virt(req, atomic=False)
    while walk.nbytes:
        nbytes = walk.nbytes
        if nbytes < walk.total:
            nbytes -= nbytes % walk.stride
        crypt(state, _from_buffer("uint8_t[]", walk.dst), _from_buffer("uint8_t[]", walk.src), nbytes, nrounds)
        capi.skcipher_walk_done(walk, walk.nbytes - nbytes)


def wipe_state(state) -> None:
    """Zero a request's ChaCha state (words 4-11 are the key or the XChaCha subkey)."""
    lib.crypto_memzero(state, 64)


def _crypt_request(req, xchacha: bool) -> None:
    ctx = req.tfm.ctx
    state = chacha_state(ctx, req.iv, xchacha)
    try:
        chacha_walk(req, state, ctx.nrounds)
    finally:
        wipe_state(state)


def crypto_chacha_crypt(req) -> None:
    _crypt_request(req, False)


def crypto_xchacha_crypt(req) -> None:
    _crypt_request(req, True)


GENERIC_C_STREAM = (ffi.addressof(lib, "chacha_crypt_generic"),
                    ffi.addressof(lib, "hchacha_block_generic"))


def generic_c_stream(simd: bool):
    """``(crypt, hchacha)``: the portable C routines, whatever ``simd`` says."""
    return GENERIC_C_STREAM


def stream_offer(c_stream, c_stream_lanes=None) -> Offer:
    """The STREAM offer (crypto_api.cinterface) of a ChaCha driver whose C
    routines ``c_stream(simd) -> (crypt, hchacha)`` run in this process, with
    ``c_stream_lanes(simd) -> (hchacha_lanes, stream_lanes) or None`` where
    it has eight-stream code."""

    def get(tfm, simd: bool) -> StreamEntries:
        crypt, hchacha = c_stream(simd)
        lanes = c_stream_lanes(simd) if c_stream_lanes is not None else None
        return StreamEntries(crypt=crypt, hchacha=hchacha, key=tfm.ctx.key, nrounds=tfm.ctx.nrounds,
                             lanes=lanes)
    return Offer(Kind.STREAM, get)


def chacha_contiguous(tfm, src, dst, n, iv) -> bool:
    """Linear entry point: the whole buffer in one call (same keystream as the walk)."""
    if n:
        ctx = tfm.ctx
        state = chacha_state(ctx, iv, len(iv) == XCHACHA_IV_SIZE)
        try:
            _crypt(state, _from_buffer("uint8_t[]", dst, require_writable=True), _from_buffer("uint8_t[]", src),
                   n, ctx.nrounds)
        finally:
            wipe_state(state)
    return True


_direct_crypt_ptr = ffi.addressof(lib, "chacha_direct_bytes")


def _direct_struct(ctx, fns, xchacha: bool):
    c = ffi.new("struct chacha_direct *")
    c.crypt = ffi.cast("chacha_stream_fn", fns[0])
    c.hchacha = ffi.cast("chacha_hchacha_fn", fns[1]) if xchacha else ffi.NULL
    c.key = ctx.key
    c.nrounds = ctx.nrounds
    return c


def chacha_direct(tfm, encrypt: bool):
    """``SkcipherAlg.direct`` of the ChaCha family: a whole request in one C
    call (chacha_crypt_direct) with the key and routines fixed at setkey,
    through crypto_api.direct.skcipher_direct.  The routines are the driver's
    STREAM entries (crypto_api.cinterface) with the descriptor's ``simd_rule``
    (SIMD only above 64 bytes and when crypto_simd_usable()).  Encryption and decryption are the same."""
    ctx = tfm.ctx
    xchacha = tfm.alg.ivsize == XCHACHA_IV_SIZE
    simd_e, generic_e = entries(tfm, Kind.STREAM, True), entries(tfm, Kind.STREAM, False)
    if simd_e is None or generic_e is None:
        return None                     # it offers no C routines: the request path only
    simd_fns, generic_fns = (simd_e.crypt, simd_e.hchacha), (generic_e.crypt, generic_e.hchacha)
    generic = _direct_struct(ctx, generic_fns, xchacha)
    simd = generic if simd_fns == generic_fns else _direct_struct(ctx, simd_fns, xchacha)
    return skcipher_direct(_direct_crypt_ptr, generic, simd, tfm.alg.ivsize, rule=tfm.alg.simd_rule)


def chacha_alg(cra_name: str, driver: str, priority: int, xchacha: bool, nrounds: int,
               encrypt, module: str = None, c_stream=generic_c_stream,
               contiguous=chacha_contiguous, direct=chacha_direct, walksize: int = 0,
               c_stream_lanes=None, simd_rule: SimdRule = CHACHA_SIMD_RULE) -> capi.SkcipherAlg:
    """A ChaCha-family skcipher descriptor (shared by the generic and SIMD glue).

    ``c_stream(simd) -> (crypt, hchacha)`` gives the C routines the driver
    offers templates (its STREAM offer, :func:`stream_offer`).  A driver
    whose code cannot be called from C in this process (an emulated core)
    passes ``c_stream=None``, ``contiguous=None`` and ``direct=None``: it offers
    nothing, and every path goes through its request code.
    ``c_stream_lanes(simd)``, where given, is ``(hchacha_lanes,
    stream_lanes)`` function pointers (eight streams at once) or None, for
    templates running many messages.  ``simd_rule``: when the SIMD code runs."""
    offers = () if c_stream is None else (stream_offer(c_stream, c_stream_lanes),)
    return capi.SkcipherAlg(
        cra_name=cra_name, cra_driver_name=driver, cra_priority=priority,
        cra_blocksize=1, cra_module=module,
        min_keysize=CHACHA_KEY_SIZE, max_keysize=CHACHA_KEY_SIZE,
        ivsize=XCHACHA_IV_SIZE if xchacha else CHACHA_IV_SIZE,
        chunksize=CHACHA_BLOCK_SIZE, walksize=walksize,
        setkey=chacha12_setkey if nrounds == 12 else chacha20_setkey,
        encrypt=encrypt, decrypt=encrypt, encrypt_contiguous=contiguous, decrypt_contiguous=contiguous,
        direct=direct, exit=chacha_exit, c_entries=offers, simd_rule=simd_rule)


ALGS = (
    chacha_alg("chacha20", "chacha20-generic", 100, False, 20, crypto_chacha_crypt),
    chacha_alg("xchacha20", "xchacha20-generic", 100, True, 20, crypto_xchacha_crypt),
    chacha_alg("xchacha12", "xchacha12-generic", 100, True, 12, crypto_xchacha_crypt),
)


def chacha_family(suffix: str, priority: int, encrypts, **kw) -> tuple:
    """chacha20, xchacha20 and xchacha12 descriptors named ``<cra_name><suffix>``
    at ``priority`` over ``encrypts`` = (ChaCha callback, XChaCha callback);
    ``kw`` as :func:`chacha_alg` takes them."""
    chacha, xchacha = encrypts
    return tuple(chacha_alg(cra, cra + suffix, priority, x, rounds, fn, **kw)
                 for cra, x, rounds, fn in (("chacha20", False, 20, chacha),
                                            ("xchacha20", True, 20, xchacha),
                                            ("xchacha12", True, 12, xchacha)))


def module_init() -> None:
    capi.crypto_register_skciphers(ALGS)


def module_exit() -> None:
    capi.crypto_unregister_skciphers(ALGS)
