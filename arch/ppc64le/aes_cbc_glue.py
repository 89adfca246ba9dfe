"""p8_aes_cbc: ``cbc(aes)`` with the POWER8 vector-crypto instructions
(drivers/crypto/vmx/aes_cbc.c; arch/powerpc/crypto/aes_cbc.c from 6.8).

Priority 2000, NEED_FALLBACK, block size 16, IV 16, keys 16/24/32 (a blkcipher
until 5.2, an skcipher from 5.3: the same behaviour here).  Without SIMD the
whole request goes to the fallback ``cbc(aes)``; else each walk step's
whole blocks run through core ``aes_p8_cbc`` in a VSX section of their own,
the chaining value carried in the walk's IV, which is left as the last
ciphertext block (vmx_skcipher has what the three mode drivers share).
"""

from __future__ import annotations

from crypto_api.arch.ppc64le import vmx_skcipher as vmx

DRIVER = "p8_aes_cbc"


def _setkey(tfm, key) -> None:
    vmx.expand_keys(tfm, (key,))
    tfm.ctx.fallback.setkey(key)


def _crypt(req, encrypt: bool) -> int:
    if not vmx.vsx_glue.simd_usable():
        return vmx.forward(req, encrypt)
    ctx = req.tfm.ctx
    run = vmx.core("aes_p8_cbc").aes_p8_cbc_crypt

    def step(walk, n):
        run(ctx.schedules[0], ctx.rounds, walk.dst[:n], walk.src[:n], n, walk.iv, int(encrypt))

    return vmx.vsx_walk(req, step)


def make_alg():
    return vmx.make_alg("cbc(aes)", DRIVER, _setkey,
                        lambda req: _crypt(req, True), lambda req: _crypt(req, False))
