"""p8_aes_ctr: ``ctr(aes)`` with the POWER8 vector-crypto instructions
(drivers/crypto/vmx/aes_ctr.c; arch/powerpc/crypto/aes_ctr.c from 6.8).

Priority 2000, NEED_FALLBACK, block size 1, IV and chunk size 16, keys
16/24/32.  Without SIMD the whole request goes to the fallback
``ctr(aes)``; else each walk step of 16 bytes or more runs its whole
blocks through core ``aes_p8_ctr`` in a VSX section of its own, after which
the glue advances the 128-bit big-endian counter once per block; a last
piece shorter than a block is one more section that encrypts the counter
(core ``aes_p8``) for the keystream, and the counter advances once more.
Counter: the full 128-bit carry the kernel's core has had since 5.1 (v5.0's
core carried only 32 bits in calls of fewer than 8 blocks: not modelled).
"""

from __future__ import annotations

from crypto_api.arch.ppc64le import vmx_skcipher as vmx

DRIVER = "p8_aes_ctr"
BLOCK = vmx.AES_BLOCK_SIZE


def _setkey(tfm, key) -> None:
    vmx.expand_keys(tfm, (key,))
    tfm.ctx.fallback.setkey(key)


def _advance(iv, blocks: int) -> None:
    """crypto_inc on the 16-byte big-endian counter, ``blocks`` times."""
    value = (int.from_bytes(bytes(iv[:BLOCK]), "big") + blocks) % (1 << 128)
    iv[:BLOCK] = value.to_bytes(BLOCK, "big")


def _crypt(req) -> int:
    if not vmx.vsx_glue.simd_usable():
        return vmx.forward(req, True)
    ctx = req.tfm.ctx
    blocks = vmx.core("aes_p8_ctr").aes_p8_ctr_blocks
    one = vmx.core("aes_p8").aes_p8_encrypt

    def step(walk, n):
        iv = walk.iv
        if n >= BLOCK:
            blocks(ctx.schedules[0], ctx.rounds, walk.dst[:n], walk.src[:n], n // BLOCK, bytes(iv[:BLOCK]))
            _advance(iv, n // BLOCK)
            return
        keystream = bytearray(BLOCK)           # p8_aes_ctr_final: the last partial block
        one(ctx.schedules[0], ctx.rounds, keystream, bytes(iv[:BLOCK]))
        walk.dst[:n] = bytes(a ^ b for a, b in zip(walk.src[:n], keystream))
        _advance(iv, 1)

    return vmx.vsx_walk(req, step)


def make_alg():
    return vmx.make_alg("ctr(aes)", DRIVER, _setkey, _crypt, _crypt, blocksize=1, chunksize=BLOCK)
