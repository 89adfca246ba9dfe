"""The request paths of arm's aes-ce mode drivers (arch/arm/crypto/aes-ce-glue.c's
ecb/cbc/cts_cbc/ctr/xts en- and decrypt functions), over the core
``aes_ce_modes`` (arch/arm/aes_ce_modes.c).

Two generations of the glue (rule ``arm_aes_ce.sections``):

* v5.0-5.3 ("request"): an atomic walk inside one kernel_neon_begin/end
  that spans the whole request (opened before the first step, also for an
  empty one); XTS takes whole blocks only (rule ``arm_aes_ce.xts_stealing``
  "none": a length that is not a multiple of 16 is EINVAL).
* 5.4+ ("step"): a walk that may sleep, one NEON section per step; XTS
  steals ciphertext: where the request has a partial last block and the
  first step does not cover it all, the walk is restarted over all but the
  last 16 + tail bytes, which then go through a walk and a section of their
  own; cts(cbc(aes)) runs CBC over all but the last two blocks, then the
  stealing routine over the final 17..32 bytes (walksize 32: one step).

ECB, CBC and XTS hand the core whole blocks of each step (the rest is
offered again); CTR's final partial block is a section of its own.  CBC,
CTR and XTS leave the next IV (XTS: the next tweak) in the request as the
kernel's walk does; the stealing routine of cts reads the IV only, so
cts(cbc(aes)) leaves the last CBC block's ciphertext there (or the IV
unchanged for 17..32 bytes).
"""

from __future__ import annotations

import contextlib
from typing import Any, Callable, Iterator

import crypto_api as capi
from crypto_api.arch.common import glue
from crypto_api.arch.common.aes_table import rounds
from crypto_api.errors import EINVAL, CryptoError
from crypto_api.scatterlist import scatterwalk_ffwd
from crypto_api.skcipher import SkcipherRequest
from crypto_api.version_rules import rule

AES_BLOCK_SIZE = 16


def per_step() -> bool:
    """True where the followed kernel opens one NEON section per walk step (5.4+)."""
    return rule("arm_aes_ce.sections", "step") == "step"


def xts_stealing() -> bool:
    """True where the followed kernel's xts-aes-ce steals ciphertext (5.4+)."""
    return rule("arm_aes_ce.xts_stealing", "stealing") == "stealing"


class _Neon:
    """The NEON sections of one request: one per call (5.4+), or one around it all (v5.0)."""

    def __init__(self, step: bool) -> None:
        self.step = step

    def call(self, fn: Callable, *args: Any, nbytes: int) -> None:
        if self.step:
            glue.neon_call(fn, *args, nbytes=nbytes)
        else:
            fn(*args)
            capi.fpu_account(nbytes)


@contextlib.contextmanager
def _sections() -> Iterator[_Neon]:
    step = per_step()
    if not step:
        capi.kernel_neon_begin()
    try:
        yield _Neon(step)
    finally:
        if not step:
            capi.kernel_neon_end()


def _refuse(req: Any, why: str) -> None:
    raise CryptoError(EINVAL, f"{req.tfm.alg.cra_driver_name}: cryptlen {req.cryptlen}: {why}")


def _sub(req: Any, skip: int, n: int) -> SkcipherRequest:
    """A request over ``n`` bytes of ``req`` from ``skip`` on, same tfm, flags and IV buffer."""
    src = scatterwalk_ffwd(req.src, skip) if skip else req.src
    dst = scatterwalk_ffwd(req.dst, skip) if skip else req.dst
    sub = SkcipherRequest(req.tfm, src, dst, n, req.iv)
    sub.flags = req.flags
    return sub


def _whole_blocks(req: Any, run: Callable[[_Neon, Any, int], None], tail: bool = False) -> None:
    """Walk ``req``, handing ``run(neon, walk, nbytes)`` the whole blocks of
    each step, and with ``tail`` a partial last block in a call of its own."""
    with _sections() as neon:
        walk = capi.skcipher_walk_virt(req, atomic=not neon.step)
        while walk.nbytes >= AES_BLOCK_SIZE:
            n = walk.nbytes - walk.nbytes % AES_BLOCK_SIZE
            run(neon, walk, n)
            capi.skcipher_walk_done(walk, walk.nbytes - n)
        if tail and walk.nbytes:
            run(neon, walk, walk.nbytes)
            capi.skcipher_walk_done(walk, 0)


def _block_mode(req: Any, encrypt: bool, fn: Callable, with_iv: bool) -> None:
    """ECB or CBC: whole blocks only; ``fn(rk, dst, src, blocks, [iv,] rounds, encrypt)``."""
    if req.cryptlen % AES_BLOCK_SIZE:
        _refuse(req, "not a multiple of the 16-byte block size")
    aes = req.tfm.ctx.aes
    rk, nr = (aes.key_enc if encrypt else aes.key_dec), rounds(aes)

    def run(neon, w, n):
        iv = (w.iv,) if with_iv else ()
        neon.call(fn, rk, w.dst[:n], w.src[:n], n // AES_BLOCK_SIZE, *iv, nr, int(encrypt), nbytes=n)
    _whole_blocks(req, run)


def ecb(core: Any, req: Any, encrypt: bool) -> None:
    _block_mode(req, encrypt, core.arm_aes_ce_ecb, with_iv=False)


def cbc(core: Any, req: Any, encrypt: bool) -> None:
    _block_mode(req, encrypt, core.arm_aes_ce_cbc, with_iv=True)


def ctr(core: Any, req: Any, encrypt: bool = True) -> None:
    aes = req.tfm.ctx.aes
    nr = rounds(aes)
    _whole_blocks(req, lambda neon, w, n: neon.call(core.arm_aes_ce_ctr, aes.key_enc, w.dst[:n], w.src[:n], n,
                                                     w.iv, nr, nbytes=n), tail=True)


def cts_cbc(core: Any, req: Any, encrypt: bool) -> None:
    n = req.cryptlen
    if n < AES_BLOCK_SIZE:
        _refuse(req, "CTS needs at least 16 bytes")
    cbc_blocks = 1 if n == AES_BLOCK_SIZE else -(-n // AES_BLOCK_SIZE) - 2
    if cbc_blocks > 0:
        cbc(core, _sub(req, 0, cbc_blocks * AES_BLOCK_SIZE), encrypt)
        if n == AES_BLOCK_SIZE:
            return
    aes = req.tfm.ctx.aes
    done = cbc_blocks * AES_BLOCK_SIZE
    walk = capi.skcipher_walk_virt(_sub(req, done, n - done), atomic=False)
    glue.neon_call(core.arm_aes_ce_cbc_cts, aes.key_enc, aes.key_dec, walk.dst[:walk.nbytes],
                   walk.src[:walk.nbytes], walk.nbytes, bytes(walk.iv[:AES_BLOCK_SIZE]), rounds(aes),
                   int(encrypt), nbytes=walk.nbytes)
    capi.skcipher_walk_done(walk, 0)


def xts(core: Any, req: Any, encrypt: bool) -> None:
    n = req.cryptlen
    steal = xts_stealing()
    if n < AES_BLOCK_SIZE:
        _refuse(req, "XTS needs at least 16 bytes")
    if n % AES_BLOCK_SIZE and not steal:
        _refuse(req, "not a multiple of 16 bytes (no ciphertext stealing before 5.4)")
    ctx = req.tfm.ctx
    nr = rounds(ctx.aes)
    rk1 = ctx.aes.key_enc if encrypt else ctx.aes.key_dec
    first = [1]

    def run(neon, w, nbytes):
        neon.call(core.arm_aes_ce_xts, rk1, ctx.aes2.key_enc, w.dst[:nbytes], w.src[:nbytes], nbytes, w.iv,
                  nr, int(encrypt) | first[0] << 1, nbytes=nbytes)
        first[0] = 0

    tail = n % AES_BLOCK_SIZE
    with _sections() as neon:
        walk = capi.skcipher_walk_virt(req, atomic=not neon.step)
        head = req
        if tail and walk.nbytes < walk.total:       # restart over all but the last 16 + tail bytes
            capi.skcipher_walk_done(walk, -EINVAL)  # skcipher_walk_abort
            head = _sub(req, 0, (-(-n // AES_BLOCK_SIZE) - 2) * AES_BLOCK_SIZE)
            walk = capi.skcipher_walk_virt(head, atomic=False)
        else:
            tail = 0
        while walk.nbytes >= AES_BLOCK_SIZE:
            step = walk.nbytes if walk.nbytes == walk.total else walk.nbytes - walk.nbytes % AES_BLOCK_SIZE
            run(neon, walk, step)
            capi.skcipher_walk_done(walk, walk.nbytes - step)
    if tail:
        walk = capi.skcipher_walk_virt(_sub(req, head.cryptlen, AES_BLOCK_SIZE + tail), atomic=False)
        run(_Neon(True), walk, walk.nbytes)
        capi.skcipher_walk_done(walk, 0)
