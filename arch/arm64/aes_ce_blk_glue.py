"""xctr-aes-ce: XCTR with the ARMv8 Crypto Extensions (arch/arm64/crypto/aes-glue.c
built as aes-ce-blk, the XCTR driver 6.0 added).

Module ``aes_ce_blk``, alias ``xctr(aes)``, loaded at boot through
module_cpu_feature_match(AES) (here ``MODULE_CPU_FEATURE``); ENODEV
(nothing registered) on a CPU without the AES feature.  Of the module's
modes only ``xctr(aes)`` / ``xctr-aes-ce`` (priority 300) is modelled:
block size 1, IV and chunk size 16, keys of 16/24/32 bytes.  setkey is
aes-ce's exported key expansion (one NEON section), so loading this module
loads ``aes_ce_cipher``.

encrypt = decrypt: a walk that is not atomic, each step in a NEON section
of its own, never asking whether SIMD is usable (the kernel's arm64 mode
glue has no fallback): a step shorter than the rest of the request is
rounded down to whole blocks, the last one runs as it is (a piece of less
than a block included).  The core ``aes_ce_xctr`` numbers blocks from the
bytes done so far in the request; the IV is left as it was.
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.algs._aes_generic import ffi as gffi
from crypto_api.algs._aes_generic import lib as glib
from crypto_api.arch.arm64 import aes_ce_cipher_glue as aes_ce
from crypto_api.arch.arm64 import neon_glue
from crypto_api.arch.common.aes_table import rounds

MODULE_ARCH = "arm64"
MODULE_NAME = "aes_ce_blk"
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("xctr(aes)")
MODULE_CPU_FEATURE = "aes"                # module_cpu_feature_match(AES, aes_init)
PRIORITY = 300
AES_BLOCK_SIZE = 16
ALGS = []
_core = None


def xctr_encrypt(req) -> None:
    aes = req.tfm.ctx.aes
    nr = rounds(aes)
    iv = bytes(memoryview(req.iv)[:AES_BLOCK_SIZE])
    byte_ctr = 0
    walk = capi.skcipher_walk_virt(req, atomic=False)
    while walk.nbytes:
        n = walk.nbytes
        if AES_BLOCK_SIZE <= n < walk.total:
            n -= n % AES_BLOCK_SIZE
        neon_glue.neon_call(_core.aes_ce_xctr, aes.key_enc, walk.dst[:n], walk.src[:n], n, iv,
                            byte_ctr, nr, nbytes=n)
        byte_ctr += n
        capi.skcipher_walk_done(walk, walk.nbytes - n)


def _setkey(tfm, key) -> None:
    aes_ce.ce_aes_expandkey(tfm.ctx, key, "xctr-aes-ce")


def _exit(tfm) -> None:
    aes = getattr(tfm.ctx, "aes", None)
    if aes is not None:
        glib.crypto_memzero(aes, gffi.sizeof(aes[0]))


def make_alg() -> capi.SkcipherAlg:
    return capi.SkcipherAlg(
        cra_name="xctr(aes)", cra_driver_name="xctr-aes-ce", cra_priority=PRIORITY, cra_blocksize=1,
        min_keysize=16, max_keysize=32, ivsize=AES_BLOCK_SIZE, chunksize=AES_BLOCK_SIZE,
        setkey=_setkey, encrypt=xctr_encrypt, decrypt=xctr_encrypt, exit=_exit)


def module_init() -> None:
    global _core
    neon_glue.require_feature("aes", MODULE_NAME, "the AES crypto extension")
    _core = neon_glue.load_core("aes_ce_xctr")
    neon_glue.ensure_module(aes_ce.MODULE_NAME)
    ALGS[:] = [make_alg()]
    capi.crypto_register_skcipher(ALGS[0])


def module_exit() -> None:
    capi.crypto_unregister_skcipher(ALGS.pop())
