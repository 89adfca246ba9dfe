"""poly1305-p10 (arch/powerpc/crypto/poly1305-p10-glue.c, 6.5-6.15).

Module ``poly1305_p10_crypto``, aliases poly1305 and poly1305-p10,
priority 300, blocksize 16, digest 16, no setkey: the first 32 bytes hashed
are r then s (final without s: ENOKEY).  Init is
module_cpu_feature_match(PPC_MODULE_FEATURE_P10) in every version: ENODEV
without HWCAP2 ``arch_3_1`` (``MODULE_CPU_FEATURE``: loaded at boot on
POWER10).

Section pattern of update: r and s are taken without VSX; a completed
buffered message block gets one VSX section; then, if crypto_simd_usable()
and 64 bytes or more remain, one section runs poly1305_p10le_4blocks over
the multiple of 64; then every remaining whole block gets a section of its
own (poly1305_64s), even when SIMD is not usable: this driver has no
fallback.  final pads a partial block with 1 then zeros and emits, in one
more section.

Descriptor (``desc.state``, 88 bytes): st (uint64 r0, r1, h0, h1, h2),
s (16), buf (16), buflen (uint64), flags (uint64: 1 r set, 2 s set).
"""

from __future__ import annotations

import struct

import crypto_api as capi
from crypto_api.arch.ppc64le import vsx_glue
from crypto_api.errors import ENOKEY, CryptoError

MODULE_ARCH = "ppc64le"
MODULE_NAME = "poly1305_p10_crypto"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("poly1305", "poly1305-p10")
MODULE_CPU_FEATURE = "arch_3_1"

BLOCK = 16
ST, S, BUF, BUFLEN, FLAGS, DESCSIZE = 0, 40, 56, 72, 80, 88
R_SET, S_SET = 1, 2
_CLAMP = (0x0FFFFFFC0FFFFFFF, 0x0FFFFFFC0FFFFFFC)
ALGS: list = []
_core = None


def _u64(mv, off: int) -> int:
    return struct.unpack_from("<Q", mv, off)[0]


def _set_u64(mv, off: int, v: int) -> None:
    struct.pack_into("<Q", mv, off, v)


def p10_init(desc) -> None:
    mv = memoryview(desc.state)
    mv[:] = bytes(DESCSIZE)


def _key_block(mv, block) -> bool:
    """Take ``block`` as r or s while they are unset (no VSX); False once both are set."""
    flags = _u64(mv, FLAGS)
    if not flags & R_SET:
        r = bytes(block)
        _set_u64(mv, ST, int.from_bytes(r[:8], "little") & _CLAMP[0])
        _set_u64(mv, ST + 8, int.from_bytes(r[8:], "little") & _CLAMP[1])
        _set_u64(mv, FLAGS, flags | R_SET)
        return True
    if not flags & S_SET:
        mv[S:S + BLOCK] = block
        _set_u64(mv, FLAGS, flags | S_SET)
        return True
    return False


def p10_update(desc, data) -> None:
    mv = memoryview(desc.state)
    src = memoryview(data).cast("B")
    st = mv[ST:ST + 40]
    buflen = _u64(mv, BUFLEN)
    if buflen:
        take = min(BLOCK - buflen, len(src))
        mv[BUF + buflen:BUF + buflen + take] = src[:take]
        src = src[take:]
        buflen += take
        if buflen == BLOCK:
            block = mv[BUF:BUF + BLOCK]
            if not _key_block(mv, block):
                vsx_glue.vsx_call(_core.poly1305_64s, st, block, BLOCK, 1, nbytes=BLOCK)
            buflen = 0
        _set_u64(mv, BUFLEN, buflen)
    while len(src) >= BLOCK and _key_block(mv, src[:BLOCK]):
        src = src[BLOCK:]
    n4 = len(src) - len(src) % 64
    if n4 and vsx_glue.simd_usable():
        vsx_glue.vsx_call(_core.poly1305_p10le_4blocks, st, src[:n4], n4, nbytes=n4)
        src = src[n4:]
    while len(src) >= BLOCK:      # no fallback: VSX whether usable or not
        vsx_glue.vsx_call(_core.poly1305_64s, st, src[:BLOCK], BLOCK, 1, nbytes=BLOCK)
        src = src[BLOCK:]
    if len(src):
        mv[BUF:BUF + len(src)] = src
        _set_u64(mv, BUFLEN, len(src))


def p10_final(desc) -> bytes:
    mv = memoryview(desc.state)
    if not _u64(mv, FLAGS) & S_SET:
        raise CryptoError(ENOKEY, "poly1305-p10: fewer than 32 bytes hashed, so the one-time "
                                  "key r||s is incomplete")
    st = mv[ST:ST + 40]
    buflen = _u64(mv, BUFLEN)
    mac = bytearray(16)
    capi.enable_kernel_vsx()
    try:
        if buflen:
            pad = bytearray(BLOCK)
            pad[:buflen] = mv[BUF:BUF + buflen]
            pad[buflen] = 1
            _core.poly1305_64s(st, pad, BLOCK, 0)
        _core.poly1305_emit_64(st, mv[S:S + BLOCK], mac)
        capi.fpu_account(buflen)
    finally:
        capi.disable_kernel_vsx()
    mv[:] = bytes(DESCSIZE)
    return bytes(mac)


def make_alg() -> capi.ShashAlg:
    return capi.ShashAlg(
        cra_name="poly1305", cra_driver_name="poly1305-p10", cra_priority=300,
        cra_blocksize=BLOCK, cra_module=MODULE_NAME, digestsize=16, descsize=DESCSIZE,
        init=p10_init, update=p10_update, final=p10_final)


def module_init() -> None:
    global _core
    vsx_glue.require_feature("arch_3_1", MODULE_NAME, "ISA 3.1 (POWER10)")
    _core = vsx_glue.load_core("poly1305_p10")
    ALGS[:] = [make_alg()]
    capi.crypto_register_shash(ALGS[0])


def module_exit() -> None:
    capi.crypto_unregister_shash(ALGS.pop())
