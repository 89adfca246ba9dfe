"""p8_aes_xts: ``xts(aes)`` with the POWER8 vector-crypto instructions
(drivers/crypto/vmx/aes_xts.c; arch/powerpc/crypto/aes_xts.c from 6.8).

Priority 2000, NEED_FALLBACK, block size 16, IV 16, keys of 32, 48 or 64
bytes (data key first, tweak key second) checked by xts_verify_key; all
three schedules (tweak, encryption, decryption) are expanded in one VSX
section.  A request: from 5.4 (``p8.xts_tail`` = "fallback") under 16 bytes
is EINVAL, and a length that is not whole blocks goes to the fallback
``xts(aes)`` (the template's ciphertext stealing), as does every request
without SIMD; before 5.4 ("refused") the request goes to the fallback only
without SIMD, and a partial last block is EINVAL (the walk of a 16-byte
block size refused it; 0 bytes do nothing).  Otherwise the tweak E_K2(IV)
is computed in a VSX section of its own (core ``aes_p8``), then each walk
step's whole blocks run through core ``aes_p8_xts`` in a section each, the
tweak carried from step to step; the IV is left as it was.
"""

from __future__ import annotations

from crypto_api.algs.xts import xts_verify_key   # include/crypto/xts.h: one check for every xts(aes)
from crypto_api.arch.ppc64le import vmx_skcipher as vmx
from crypto_api.errors import EINVAL, CryptoError
from crypto_api.version_rules import rule

DRIVER = "p8_aes_xts"
BLOCK = vmx.AES_BLOCK_SIZE
#: the kernel-version rule: a partial last block to the fallback (5.4+) or EINVAL
TAIL_RULE = "p8.xts_tail"


def _setkey(tfm, key) -> None:
    key = memoryview(key)
    xts_verify_key(tfm, key)
    half = len(key) // 2
    vmx.expand_keys(tfm, (key[:half], key[half:]))    # data schedule, tweak schedule
    tfm.ctx.fallback.setkey(key)


def _crypt(req, encrypt: bool) -> int:
    n = req.cryptlen
    tail_fallback = rule(TAIL_RULE, "fallback") == "fallback"
    if tail_fallback and n < BLOCK:
        raise CryptoError(EINVAL, f"{DRIVER}: request of {n} bytes, XTS needs at least {BLOCK}")
    if not vmx.vsx_glue.simd_usable() or (tail_fallback and n % BLOCK):
        return vmx.forward(req, encrypt)
    if n % BLOCK:
        raise CryptoError(EINVAL, f"{DRIVER}: request of {n} bytes is not whole {BLOCK}-byte blocks "
                                  f"(no ciphertext stealing before 5.4)")
    ctx = req.tfm.ctx
    data_rk, tweak_rk = ctx.schedules
    tweak = bytearray(BLOCK)
    vmx.vsx_glue.vsx_call(vmx.core("aes_p8").aes_p8_encrypt, tweak_rk, ctx.rounds, tweak,
                          bytes(memoryview(req.iv)[:BLOCK]), nbytes=BLOCK)
    run = vmx.core("aes_p8_xts").aes_p8_xts_crypt

    def step(walk, m):
        run(data_rk, ctx.rounds, walk.dst[:m], walk.src[:m], m, tweak, int(encrypt))

    try:
        return vmx.vsx_walk(req, step)
    finally:
        tweak[:] = bytes(BLOCK)


def make_alg():
    return vmx.make_alg("xts(aes)", DRIVER, _setkey,
                        lambda req: _crypt(req, True), lambda req: _crypt(req, False), keys=2)
