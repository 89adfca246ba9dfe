"""The arm (AArch32) AES Crypto Extensions mode drivers (arch/arm/crypto/aes-ce-glue.c).

Module ``aes_arm_ce`` (the kernel's aes-arm-ce.ko), priority 300, no
crypto- aliases: module_cpu_feature_match(AES) loads it at boot on a CPU
whose HWCAP2 has ``aes`` (here ``MODULE_CPU_FEATURE``) and fails its init
with ENODEV elsewhere (qemu-arm's Cortex-A7/A15 have no crypto extensions;
``max`` has them).  No bare ``aes`` cipher: modes only.

Registered per kernel version (the version table's rows, rule
``arm_aes_ce.wrapping``):

* v5.0-5.3: internal ``__ecb/__cbc/__ctr/__xts-aes-ce`` (CRYPTO_ALG_INTERNAL)
  with one SIMD wrapper each (``ecb-aes-ce`` ..., async over cryptd where
  SIMD is unusable: crypto_api.simd).
* 5.4-6.15: ``__cts-cbc-aes-ce`` (walksize 32) joins them, XTS gets
  walksize 32 and ciphertext stealing, and ``ctr-aes-ce-sync`` (299,
  synchronous, not internal) runs the NEON code where SIMD is usable and
  else the AES library's scalar code (here the generic AES C) per block.
* 6.16+: ``ecb/cbc/cts-cbc/ctr/xts-aes-ce`` registered directly
  (synchronous, not internal, no wrapper, no -sync twin): NEON is taken as
  usable (arm allows it in softirqs since about 6.3).

Sizes: keys 16/24/32 (XTS 32/48/64, checked by xts_verify_key first);
block size 16 (CTR 1, chunk size 16); IV 16 (ECB none).  setkey expands
each key with the core's AESE/AESIMC routine in a NEON section of its own,
without asking whether SIMD is usable; a bad length is EINVAL naming the
driver.  The request paths are aes_ce_walks.py's.
"""

from __future__ import annotations

from typing import Any, Callable, List, Tuple

import crypto_api as capi
from crypto_api.algs._aes_generic import ffi as gffi
from crypto_api.algs._aes_generic import lib as glib
from crypto_api.algs.xts import xts_verify_key
from crypto_api.arch.arm import aes_ce_walks as walks
from crypto_api.arch.common import glue
from crypto_api.errors import EINVAL, CryptoError
from crypto_api import registry
from crypto_api.simd import simd_skcipher_create_compat
from crypto_api.version_rules import rule

MODULE_ARCH = "arm"
MODULE_NAME = "aes_arm_ce"
MODULE_ALIASES = ()                       # none: loaded at boot by CPU feature
MODULE_CPU_FEATURE = "aes"                # module_cpu_feature_match(AES, aes_init)
PRIORITY = 300
AES_BLOCK_SIZE = 16
CORE = "aes_ce_modes"
ALGS: List[capi.SkcipherAlg] = []         # what aes_init registered itself (internal or direct)
WRAPPERS: List[capi.SkcipherAlg] = []     # their SIMD wrappers (v5.0-6.15)


def _expand(core: Any, tfm: Any, attr: str, key: Any) -> None:
    """ce_aes_expandkey into ``tfm.ctx.<attr>`` (a struct crypto_aes_ctx), one NEON section."""
    driver = tfm.alg.cra_driver_name
    if len(key) not in (16, 24, 32):
        raise CryptoError(EINVAL, f"{driver}: AES key is {len(key)} bytes, expected 16, 24 or 32")
    aes = getattr(tfm.ctx, attr, None)
    if aes is None:
        aes = gffi.new("struct crypto_aes_ctx *")
        setattr(tfm.ctx, attr, aes)
    else:
        glib.crypto_memzero(aes, gffi.sizeof(aes[0]))
    glue.neon_call(core.aes_ce_expandkey, aes.key_enc, aes.key_dec, bytes(key), len(key))
    aes.key_length = len(key)


def _setkey(core: Any) -> Callable:
    return lambda tfm, key: _expand(core, tfm, "aes", key)


def _xts_setkey(core: Any) -> Callable:
    def setkey(tfm, key):
        xts_verify_key(tfm, memoryview(bytes(key)))
        if len(key) not in (32, 48, 64):
            raise CryptoError(EINVAL, f"{tfm.alg.cra_driver_name}: XTS key is {len(key)} bytes, "
                                      "expected 32, 48 or 64")
        half = len(key) // 2
        _expand(core, tfm, "aes", key[:half])
        _expand(core, tfm, "aes2", key[half:])
    return setkey


def _exit(tfm: Any) -> None:
    for attr in ("aes", "aes2"):
        aes = getattr(tfm.ctx, attr, None)
        if aes is not None:
            glib.crypto_memzero(aes, gffi.sizeof(aes[0]))


def _ctr_sync(core: Any) -> Callable:
    """ctr-aes-ce-sync (5.4-6.15): the NEON code where SIMD is usable, else
    crypto_ctr_encrypt_walk over the AES library (the generic AES C here)."""
    def crypt(req):
        if glue.simd_usable():
            return walks.ctr(core, req)
        aes = req.tfm.ctx.aes
        walk = capi.skcipher_walk_virt(req, atomic=False)
        ks = bytearray(AES_BLOCK_SIZE)
        while walk.nbytes:
            n = walk.nbytes if walk.nbytes == walk.total else walk.nbytes - walk.nbytes % AES_BLOCK_SIZE
            for o in range(0, n, AES_BLOCK_SIZE):
                glib.aes_encrypt_generic(aes, gffi.from_buffer("uint8_t[]", ks),
                                         bytes(walk.iv[:AES_BLOCK_SIZE]))
                piece = min(AES_BLOCK_SIZE, n - o)
                walk.dst[o:o + piece] = bytes(a ^ b for a, b in zip(walk.src[o:o + piece], ks))
                ctr = (int.from_bytes(bytes(walk.iv[:AES_BLOCK_SIZE]), "big") + 1) % (1 << 128)
                walk.iv[:AES_BLOCK_SIZE] = ctr.to_bytes(AES_BLOCK_SIZE, "big")
            capi.skcipher_walk_done(walk, walk.nbytes - n)
        ks[:] = bytes(AES_BLOCK_SIZE)
    return crypt


#: (stem, cra_name, block size, IV size, walksize from 5.4, XTS keys, request path)
MODES: Tuple[Tuple[str, str, int, int, int, bool, Callable], ...] = (
    ("ecb", "ecb(aes)", AES_BLOCK_SIZE, 0, 0, False, walks.ecb),
    ("cbc", "cbc(aes)", AES_BLOCK_SIZE, AES_BLOCK_SIZE, 0, False, walks.cbc),
    ("cts-cbc", "cts(cbc(aes))", AES_BLOCK_SIZE, AES_BLOCK_SIZE, 2 * AES_BLOCK_SIZE, False, walks.cts_cbc),
    ("ctr", "ctr(aes)", 1, AES_BLOCK_SIZE, 0, False, walks.ctr),
    ("xts", "xts(aes)", AES_BLOCK_SIZE, AES_BLOCK_SIZE, 2 * AES_BLOCK_SIZE, True, walks.xts),
)


def _alg(core: Any, mode: tuple, internal: bool) -> capi.SkcipherAlg:
    stem, name, bs, ivsize, walksize, xts, path = mode
    pre = "__" if internal else ""
    return capi.SkcipherAlg(
        cra_name=pre + name, cra_driver_name=f"{pre}{stem}-aes-ce", cra_priority=PRIORITY,
        cra_flags=capi.CRYPTO_ALG_INTERNAL if internal else 0, cra_blocksize=bs,
        min_keysize=32 if xts else 16, max_keysize=64 if xts else 32, ivsize=ivsize,
        chunksize=AES_BLOCK_SIZE, walksize=walksize if walks.xts_stealing() else 0,
        setkey=(_xts_setkey if xts else _setkey)(core),
        encrypt=lambda req: path(core, req, True), decrypt=lambda req: path(core, req, False),
        exit=_exit)


def make_algs(core: Any, direct: bool) -> List[capi.SkcipherAlg]:
    """aes_algs[] in the kernel's order: the modes (internal up to 6.15,
    public from 6.16) with ctr-aes-ce-sync after the CTR mode up to 6.15.
    The version table drops what the followed kernel lacks (cts-cbc and the
    -sync twin before 5.4)."""
    out = []
    for mode in MODES:
        out.append(_alg(core, mode, internal=not direct))
        if mode[0] == "ctr" and not direct:
            sync = _ctr_sync(core)
            out.append(capi.SkcipherAlg(
                cra_name="ctr(aes)", cra_driver_name="ctr-aes-ce-sync", cra_priority=PRIORITY - 1,
                cra_blocksize=1, min_keysize=16, max_keysize=32, ivsize=AES_BLOCK_SIZE,
                chunksize=AES_BLOCK_SIZE, setkey=_setkey(core), encrypt=sync, decrypt=sync, exit=_exit))
    return out


def module_init() -> None:
    glue.require_feature("aes", MODULE_NAME, "the AES crypto extension (HWCAP2 aes)")
    core = glue.load_core("arm", CORE)
    direct = rule("arm_aes_ce.wrapping", "direct") == "direct"
    algs = make_algs(core, direct)
    capi.crypto_register_skciphers(algs)
    wrappers: List[capi.SkcipherAlg] = []
    try:
        for a in algs:          # one wrapper per internal algorithm the followed kernel has
            if a.cra_flags & capi.CRYPTO_ALG_INTERNAL and not registry.refused(a):
                wrappers.append(simd_skcipher_create_compat(a.cra_name[2:], a.cra_driver_name[2:],
                                                            a.cra_driver_name))
    except BaseException:
        for w in reversed(wrappers):
            capi.crypto_unregister_skcipher(w)
        capi.crypto_unregister_skciphers(algs)
        raise
    ALGS[:], WRAPPERS[:] = algs, wrappers


def module_exit() -> None:
    for w in reversed(WRAPPERS):
        capi.crypto_unregister_skcipher(w)
    capi.crypto_unregister_skciphers(ALGS)
    ALGS.clear()
    WRAPPERS.clear()
