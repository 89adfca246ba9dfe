"""What vmx_crypto's three AES skciphers share (drivers/crypto/vmx/aes_cbc.c,
aes_ctr.c, aes_xts.c; arch/powerpc/crypto from 6.8): the fallback skcipher,
the POWER8 key schedules, the descriptor, the per-step VSX walk.

No kernel counterpart as a file: each kernel file holds its own copy of
these.  Every p8 mode driver is CRYPTO_ALG_NEED_FALLBACK and allocates at
tfm init a fallback by its own cra_name with mask NEED_FALLBACK | ASYNC
(the best synchronous implementation that needs no fallback itself: the
template over the best ``aes``, which a kernel before 5.10 let be p8_aes);
setkey keys it too.  A request goes to the fallback whole when
crypto_simd_usable() is false (v5.0 asked in_interrupt(): the same question
here), else it walks (not atomic) with one VSX section per walk step
(preempt_disable, pagefault_disable, enable_kernel_vsx ... and back, one
section in the FPU trace).  setkey expands the schedules in one VSX section
(core ``aes_p8``'s expansion; one schedule serves both directions, where
the kernel keeps an encryption and a decryption schedule).
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import crypto_api as capi
from crypto_api.arch.ppc64le import vsx_glue
from crypto_api.errors import EINVAL, CryptoError

AES_BLOCK_SIZE = 16
SCHEDULE_SIZE = 15 * AES_BLOCK_SIZE
PRIORITY = 2000
#: the cores the mode drivers call, loaded by vmx.py's module_init
CORES: dict = {}


def core(name: str) -> Any:
    """Core ``name`` (aes_p8, aes_p8_cbc, ...), loaded by vmx.py's module_init."""
    return CORES[name]


def _init(tfm) -> None:
    tfm.ctx.fallback = capi.crypto_alloc_skcipher(tfm.alg.cra_name, 0,
                                                  capi.CRYPTO_ALG_NEED_FALLBACK | capi.CRYPTO_ALG_ASYNC)


def _wipe(ctx) -> None:
    for rk in getattr(ctx, "schedules", ()):
        rk[:] = bytes(len(rk))
    ctx.schedules = ()


def _exit(tfm) -> None:
    ctx = tfm.ctx
    _wipe(ctx)
    fb = getattr(ctx, "fallback", None)
    if fb is not None:
        capi.crypto_free_skcipher(fb)
        ctx.fallback = None


def expand_keys(tfm, keys: Sequence[Any]) -> None:
    """aes_p8_set_encrypt_key for each AES key of ``keys``, all in one VSX
    section, then the fallback's setkey with the whole key; EINVAL naming
    the driver for an AES key of another length than 16, 24 or 32 bytes
    (the kernel's core refuses it and the glue answers -EINVAL)."""
    driver = tfm.alg.cra_driver_name
    for k in keys:
        if len(k) not in (16, 24, 32):
            raise CryptoError(EINVAL, f"{driver}: AES key of {len(k)} bytes, expected 16, 24 or 32")
    expand = core("aes_p8").aes_p8_expandkey
    schedules = [bytearray(SCHEDULE_SIZE) for _ in keys]

    def run():
        return [expand(bytes(k), len(k), rk) for k, rk in zip(keys, schedules)]

    rounds = vsx_glue.vsx_call(run)
    ctx = tfm.ctx
    _wipe(ctx)
    ctx.schedules, ctx.rounds = tuple(schedules), rounds[0]


def forward(req, encrypt: bool) -> int:
    """The whole request to the fallback (the kernel's subrequest: flags,
    callback, buffers, length and IV as they are)."""
    sub = capi.skcipher_request_alloc(req.tfm.ctx.fallback)
    capi.skcipher_request_set_callback(sub, req.flags, req.complete, req.data)
    capi.skcipher_request_set_crypt(sub, req.src, req.dst, req.cryptlen, req.iv)
    return (capi.crypto_skcipher_encrypt if encrypt else capi.crypto_skcipher_decrypt)(sub)


def vsx_walk(req, step: Callable[[Any, int], int]) -> int:
    """The walk, one VSX section per step: ``step(walk, n)`` runs inside the
    section on the step's first ``n`` bytes, its whole blocks (a step shorter
    than a block, CTR's last, whole); the rest of the step is offered again."""
    walk = capi.skcipher_walk_virt(req, atomic=False)
    while walk.nbytes:
        n = walk.nbytes
        if n >= AES_BLOCK_SIZE:
            n -= n % AES_BLOCK_SIZE
        vsx_glue.vsx_call(step, walk, n, nbytes=n)
        capi.skcipher_walk_done(walk, walk.nbytes - n)
    return 0


def make_alg(cra_name: str, driver: str, setkey: Callable, encrypt: Callable, decrypt: Callable,
             blocksize: int = AES_BLOCK_SIZE, keys: int = 1, chunksize: int = 0) -> capi.SkcipherAlg:
    """One p8 mode driver: priority 2000, NEED_FALLBACK, IV 16, keys of
    ``keys`` AES keys, with the fallback's init/exit."""
    return capi.SkcipherAlg(
        cra_name=cra_name, cra_driver_name=driver, cra_priority=PRIORITY,
        cra_flags=capi.CRYPTO_ALG_NEED_FALLBACK, cra_blocksize=blocksize, cra_module="vmx_crypto",
        min_keysize=16 * keys, max_keysize=32 * keys, ivsize=AES_BLOCK_SIZE, chunksize=chunksize,
        setkey=setkey, encrypt=encrypt, decrypt=decrypt, init=_init, exit=_exit)
