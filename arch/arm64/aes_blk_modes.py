"""The block-mode skciphers of arch/arm64/crypto/aes-glue.c, shared by its two builds.

aes-glue.c is compiled as aes-ce-blk (impl "ce", priority 300,
arch/arm64/aes_ce_blk_glue.py) and aes-neon-blk ("neon", 200,
arch/arm64/aes_neon_blk_glue.py); both register, from one set of
descriptors and request functions that live here, ``ecb(aes)``,
``cbc(aes)``, ``ctr(aes)``, ``xts(aes)``, ``cts(cbc(aes))`` and (5.4+)
``essiv(cbc(aes),sha256)`` as ``<stem>-aes-<impl>``.  Sizes as the kernel's
descriptors: block size 16 (CTR 1), IV 16 (ECB none), CTR chunk size 16,
CTS walk size 32, XTS walk size 32 where it steals ciphertext (none in
v5.0), ESSIV one above the build's priority; keys 16/24/32 (XTS twice).

Up to 5.13 (rule ``arm64.aes_blk_wrapping`` "simd") each is an internal
``__<cra_name>`` / ``__<driver>`` algorithm under crypto/simd.c's wrapper
(async, cryptd where SIMD is unusable); from 5.14 ("direct") registered
directly, synchronous, never asking whether SIMD is usable.  XTS: v5.0-5.3
(rule ``arm64.aes_blk_xts_stealing`` "refused") whole blocks only, 0 bytes
a no-op; 5.4+ 16 bytes or more, a partial last block by ciphertext
stealing.  The composite registry (no version followed) takes the latest
kernels' forms: direct, stealing.

Requests: a non-atomic walk, one NEON section per step (whole blocks on all
but the last step).  CTS and a stealing XTS run the part before their last
17..32 bytes as a walk of its own (a sub-request over whole blocks) and
those bytes in one more section, as the kernel's glue does.  CBC, CTS and
ESSIV leave the chaining value of the CBC part in the request's IV, CTR
the next counter; XTS leaves it unchanged (its running tweak is kept
aside).  The blocks run in the build's arm64 core (aes_ce_blk or
aes_neon_blk: the loops of arch/common/aes_modes.h).

Not modelled: v5.0-5.13's extra synchronous ``ctr-aes-<impl>`` (priority
one below the build's, a scalar fallback without SIMD), which shares its
driver name with the wrapper of ``__ctr-aes-<impl>``: the registry here keeps
driver names unique per version.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, Callable, List

import attrs

import crypto_api as capi
from crypto_api.algs._aes_generic import ffi as gffi
from crypto_api.algs._aes_generic import lib as glib
from crypto_api.algs.xts import xts_verify_key
from crypto_api.arch.arm64 import neon_glue
from crypto_api.arch.common.aes_table import rounds
from crypto_api.errors import EINVAL, CryptoError
from crypto_api.scatterlist import as_byte_view, scatterwalk_map_and_copy
from crypto_api.skcipher import SkcipherRequest
from crypto_api.version_rules import rule

AES_BLOCK_SIZE = 16
_XTS_DECRYPT, _XTS_FIRST = 1, 2
#: ``expand(holder, key, driver)``: the build's key expansion into ``holder.aes``
Expand = Callable[[Any, Any, str], None]


@attrs.frozen
class BlkMode:
    """One mode of aes-glue.c: its names, sizes and request functions."""
    name: str                       # "ecb", "cbc", "cts", "ctr", "xts", "essiv"
    cra_name: str
    stem: str                       # the driver name before "-<impl>"
    crypt: Callable[..., None]      # crypt(mode, req, core, decrypt)
    blocksize: int = AES_BLOCK_SIZE
    ivsize: int = AES_BLOCK_SIZE
    chunksize: int = 0
    walksize: int = 0
    keys: int = 1                   # XTS: two AES keys
    prio_delta: int = 0

    def driver(self, impl: str) -> str:
        return f"{self.stem}-{impl}"


def wrapped() -> bool:
    """True where the followed kernel registers the modes under the SIMD wrapper (up to 5.13)."""
    return rule("arm64.aes_blk_wrapping", "direct") == "simd"


def xts_stealing() -> bool:
    """True where the followed kernel's aes-glue XTS steals ciphertext (5.4+)."""
    return rule("arm64.aes_blk_xts_stealing", "stealing") == "stealing"


def _refuse(req: Any, why: str) -> None:
    raise CryptoError(EINVAL, f"{req.tfm.alg.cra_driver_name}: cryptlen {req.cryptlen}: {why}")


def _whole_blocks(req: Any) -> None:
    if req.cryptlen % AES_BLOCK_SIZE:
        _refuse(req, "not a multiple of the 16-byte block size")


def _walk(req: Any, step: Callable[[memoryview, memoryview, int], None], whole: bool = True) -> None:
    """``step(dst, src, n)`` per walk step, one NEON section each: whole blocks
    on all but the last step (``whole``: on the last too)."""
    walk = capi.skcipher_walk_virt(req, atomic=False)
    while walk.nbytes:
        n = walk.nbytes
        if whole or n < walk.total:
            n -= n % AES_BLOCK_SIZE
        neon_glue.neon_call(step, walk.dst[:n], walk.src[:n], n, nbytes=n)
        capi.skcipher_walk_done(walk, walk.nbytes - n)


def _sub_walk(req: Any, n: int, iv: Any, step: Callable) -> None:
    """The first ``n`` bytes (whole blocks) of ``req`` as a walk of their own."""
    if n:
        _walk(SkcipherRequest(req.tfm, req.src, req.dst, n, iv), step)


def _tail(req: Any, start: int, fn: Callable[[bytearray, bytearray, int], None]) -> None:
    """The bytes of ``req`` from ``start`` on, in one NEON section over linear copies."""
    n = req.cryptlen - start
    src, dst = bytearray(n), bytearray(n)
    try:
        scatterwalk_map_and_copy(src, req.src, start, n, out=False)
        neon_glue.neon_call(fn, dst, src, n, nbytes=n)
        scatterwalk_map_and_copy(dst, req.dst, start, n, out=True)
    finally:
        src[:] = dst[:] = bytes(n)


def _iv(req: Any) -> bytearray:
    return bytearray(as_byte_view(req.iv, "iv")[:AES_BLOCK_SIZE])


def _iv_out(req: Any, iv: bytearray) -> None:
    as_byte_view(req.iv, "iv")[:AES_BLOCK_SIZE] = iv


def _schedule(key: Any, decrypt: bool) -> Any:
    return key.key_dec if decrypt else key.key_enc


def _ecb(mode: BlkMode, req: Any, core: Any, decrypt: bool) -> None:
    _whole_blocks(req)
    aes = req.tfm.ctx.k1.aes
    rk, nr = _schedule(aes, decrypt), rounds(aes)
    _walk(req, lambda d, s, n: core.ecb(rk, d, s, n, nr, int(decrypt)))


def _cbc_step(req: Any, core: Any, decrypt: bool, iv: bytearray) -> Callable:
    aes = req.tfm.ctx.k1.aes
    rk, nr = _schedule(aes, decrypt), rounds(aes)
    return lambda d, s, n: core.cbc(rk, d, s, n, iv, nr, int(decrypt))


def _cbc(mode: BlkMode, req: Any, core: Any, decrypt: bool) -> None:
    _whole_blocks(req)
    iv = _iv(req)
    _walk(req, _cbc_step(req, core, decrypt, iv))
    _iv_out(req, iv)


def _essiv(mode: BlkMode, req: Any, core: Any, decrypt: bool) -> None:
    """The first step through the ESSIV entry (the IV encrypted under the
    salt's key, then CBC), the others as plain CBC steps."""
    _whole_blocks(req)
    ctx = req.tfm.ctx
    k1, k2 = ctx.k1.aes, ctx.k2.aes
    rk, nr = _schedule(k1, decrypt), rounds(k1)
    iv = _iv(req)
    cbc = _cbc_step(req, core, decrypt, iv)
    first = [True]

    def step(d, s, n):
        if first[0]:
            first[0] = False
            return core.essiv_cbc(rk, k2.key_enc, d, s, n, iv, nr, int(decrypt))
        return cbc(d, s, n)
    _walk(req, step)
    _iv_out(req, iv)


def _cts(mode: BlkMode, req: Any, core: Any, decrypt: bool) -> None:
    """CBC over all but the last 17..32 bytes (16 bytes: one CBC block), then the swap."""
    n = req.cryptlen
    if n < AES_BLOCK_SIZE:
        _refuse(req, "CTS needs at least 16 bytes")
    iv = _iv(req)
    head = AES_BLOCK_SIZE if n == AES_BLOCK_SIZE else (-(-n // AES_BLOCK_SIZE) - 2) * AES_BLOCK_SIZE
    _sub_walk(req, head, iv, _cbc_step(req, core, decrypt, iv))
    if head < n:
        aes = req.tfm.ctx.k1.aes
        rk, nr = _schedule(aes, decrypt), rounds(aes)
        _tail(req, head, lambda d, s, m: core.cts(rk, d, s, m, bytes(iv), nr, int(decrypt)))
    _iv_out(req, iv)


def _ctr(mode: BlkMode, req: Any, core: Any, decrypt: bool) -> None:
    aes = req.tfm.ctx.k1.aes
    rk, nr = aes.key_enc, rounds(aes)
    ctr = _iv(req)
    _walk(req, lambda d, s, n: core.ctr(rk, d, s, n, ctr, nr), whole=False)
    _iv_out(req, ctr)


def _xts(mode: BlkMode, req: Any, core: Any, decrypt: bool) -> None:
    n = req.cryptlen
    stealing = xts_stealing()
    if not stealing and n % AES_BLOCK_SIZE:
        _refuse(req, "not a multiple of 16 bytes (no ciphertext stealing before 5.4)")
    if stealing and n < AES_BLOCK_SIZE:
        _refuse(req, "XTS needs at least 16 bytes")
    ctx = req.tfm.ctx
    k1, k2 = ctx.k1.aes, ctx.k2.aes
    rk, nr = _schedule(k1, decrypt), rounds(k1)
    tweak = _iv(req)
    flags = [_XTS_FIRST | (_XTS_DECRYPT if decrypt else 0)]

    def step(d, s, m):
        core.xts(rk, k2.key_enc, d, s, m, tweak, nr, flags[0])
        flags[0] &= ~_XTS_FIRST
    tail = n % AES_BLOCK_SIZE
    head = n - AES_BLOCK_SIZE - tail if tail else n
    _sub_walk(req, head, tweak, step)
    if tail:
        _tail(req, head, step)
    tweak[:] = bytes(AES_BLOCK_SIZE)


def _expand(tfm: Any, expand: Expand, slot: str, key: Any) -> None:
    """The build's key expansion of ``key`` into ``tfm.ctx.<slot>.aes``."""
    holder = getattr(tfm.ctx, slot, None)
    if holder is None:
        holder = SimpleNamespace()
        setattr(tfm.ctx, slot, holder)
    expand(holder, key, tfm.alg.cra_driver_name)


def _setkey(mode: BlkMode, expand: Expand, tfm: Any, key: Any) -> None:
    """k1: the data key; k2: XTS's tweak key (the second half) or ESSIV's
    salt key (the SHA-256 digest of the key, an AES-256 key)."""
    if mode.keys == 2:
        xts_verify_key(tfm, key)
        half = len(key) // 2
        _expand(tfm, expand, "k1", key[:half])
        _expand(tfm, expand, "k2", key[half:])
        return
    _expand(tfm, expand, "k1", key)
    if mode.name == "essiv":
        salt = bytearray(tfm.ctx.hash.digest(bytes(key)))
        try:
            _expand(tfm, expand, "k2", salt)
        finally:
            salt[:] = bytes(len(salt))


def _init(mode: BlkMode, tfm: Any) -> None:
    if mode.name == "essiv":
        tfm.ctx.hash = capi.crypto_alloc_shash("sha256")


def _exit(tfm: Any) -> None:
    ctx = tfm.ctx
    for name in ("k1", "k2"):
        aes = getattr(getattr(ctx, name, None), "aes", None)
        if aes is not None:
            glib.crypto_memzero(aes, gffi.sizeof(aes[0]))
    h = getattr(ctx, "hash", None)
    if h is not None:
        ctx.hash = None
        h.free()


ECB = BlkMode("ecb", "ecb(aes)", "ecb-aes", _ecb, ivsize=0)
CBC = BlkMode("cbc", "cbc(aes)", "cbc-aes", _cbc)
CTR = BlkMode("ctr", "ctr(aes)", "ctr-aes", _ctr, blocksize=1, chunksize=AES_BLOCK_SIZE)
XTS = BlkMode("xts", "xts(aes)", "xts-aes", _xts, keys=2)
CTS = BlkMode("cts", "cts(cbc(aes))", "cts-cbc-aes", _cts, walksize=2 * AES_BLOCK_SIZE)
ESSIV = BlkMode("essiv", "essiv(cbc(aes),sha256)", "essiv-cbc-aes-sha256", _essiv, prio_delta=1)
#: the kernel's array order (v5.0: ecb, cbc, cts, ctr, xts; 5.4+: ecb, cbc, ctr, xts, cts, essiv)
MODES = (ECB, CBC, CTR, XTS, CTS, ESSIV)


class _Core:
    """The build's six mode entries (``aes_<impl>_ecb`` ...) under short names."""

    def __init__(self, core: Any, impl: str) -> None:
        for fn in ("ecb", "cbc", "cts", "ctr", "xts", "essiv_cbc"):
            setattr(self, fn, getattr(core, f"aes_{impl}_{fn}"))


def make_alg(mode: BlkMode, impl: str, priority: int, expand: Expand, core: Any,
             internal: bool) -> capi.SkcipherAlg:
    """``<stem>-aes-<impl>`` (``internal``: ``__``-prefixed, CRYPTO_ALG_INTERNAL)."""
    calls = _Core(core, impl)
    pre = "__" if internal else ""
    walksize = 2 * AES_BLOCK_SIZE if mode.name == "xts" and xts_stealing() else mode.walksize
    return capi.SkcipherAlg(
        cra_name=pre + mode.cra_name, cra_driver_name=pre + mode.driver(impl),
        cra_priority=priority + mode.prio_delta, cra_flags=capi.CRYPTO_ALG_INTERNAL if internal else 0,
        cra_blocksize=mode.blocksize, min_keysize=16 * mode.keys, max_keysize=32 * mode.keys,
        ivsize=mode.ivsize, chunksize=mode.chunksize, walksize=walksize,
        setkey=lambda tfm, key: _setkey(mode, expand, tfm, key),
        encrypt=lambda req: mode.crypt(mode, req, calls, False),
        decrypt=lambda req: mode.crypt(mode, req, calls, True),
        init=lambda tfm: _init(mode, tfm), exit=_exit)


class Registered:
    """What one build registered: the mode algorithms, their SIMD wrappers, and
    the algorithms it registers directly in every version (its XCTR driver)."""

    def __init__(self) -> None:
        self.algs: List[capi.SkcipherAlg] = []
        self.wrappers: List[capi.SkcipherAlg] = []
        self.direct: List[capi.SkcipherAlg] = []

    def register(self, impl: str, priority: int, expand: Expand, core: Any,
                 direct: List[capi.SkcipherAlg]) -> None:
        """The followed kernel's modes of this build (wrapped or direct), then ``direct``."""
        from crypto_api.simd import simd_register_skciphers_compat
        internal = wrapped()
        algs = [make_alg(m, impl, priority, expand, core, internal) for m in MODES]
        if internal:
            self.wrappers = simd_register_skciphers_compat(algs)
        else:
            capi.crypto_register_skciphers(algs)
        self.algs = algs
        try:
            capi.crypto_register_skciphers(direct)
        except BaseException:
            self.unregister()
            raise
        self.direct = list(direct)

    def unregister(self) -> None:
        from crypto_api.simd import simd_unregister_skciphers
        capi.crypto_unregister_skciphers(self.direct)
        simd_unregister_skciphers(self.algs, self.wrappers)
        self.algs, self.wrappers, self.direct = [], [], []
