"""The SIMD skcipher wrapper (crypto/simd.c, module ``crypto_simd``).

``simd_skcipher_create_compat(algname, drvname, basename)`` registers an
asynchronous skcipher ``algname``/``drvname`` over the internal synchronous
algorithm ``basename`` (e.g. ``xts-aes-aesni`` over ``__xts-aes-aesni``):
same priority, sizes and module, flags CRYPTO_ALG_ASYNC, walksize not copied.
Each tfm holds a ``cryptd(<basename>)`` tfm; the key is set there (which keys
its child, the internal tfm, so both paths share it).

A request runs at once on the internal tfm in the caller's context, unless
SIMD is not usable there (crypto_simd_usable() false: an interrupt, the
FPU already taken, the self-test manager's nosimd) or the caller is atomic
(:func:`atomic_context`, a softirq) while requests of this tfm are still
queued in cryptd (so that they keep their order): then it is queued in
cryptd and returns -EINPROGRESS/-EBUSY, and the caller's callback is called
with the sub-request (whose ``data`` is the caller's) when it is done.
"""

from __future__ import annotations

import contextlib
import contextvars
from typing import Any, Callable, Iterator, List, Optional, Sequence

from . import alg as A
from . import registry
from .algapi import crypto_register_skcipher, crypto_unregister_skcipher
from .cinterface import Delegate
from .cryptd import (cryptd_alloc_skcipher, cryptd_skcipher_child, cryptd_skcipher_queued)
from .errors import EINVAL, CryptoError
from .fpu import SIMD, crypto_simd_usable, simd_choice
from .fpu import _switches as _fpu_switches
from .fpu import in_kernel_fpu
from .skcipher import (CryptoSkcipher, SkcipherRequest, crypto_alloc_skcipher,
                       crypto_skcipher_decrypt, crypto_skcipher_encrypt)

_atomic: contextvars.ContextVar[int] = contextvars.ContextVar("crypto_api_atomic", default=0)

__all__ = ["atomic_context", "in_atomic", "simd_register_skciphers_compat",
           "simd_skcipher_create_compat", "simd_unregister_skciphers"]


@contextlib.contextmanager
def atomic_context() -> Iterator[None]:
    """Run as atomic code where SIMD is still usable (a softirq): in_atomic() is true."""
    token = _atomic.set(_atomic.get() + 1)
    try:
        yield
    finally:
        _atomic.reset(token)


def in_atomic() -> bool:
    """True in atomic_context(), in an interrupt, or inside an FPU section."""
    return bool(_atomic.get() or _fpu_switches.get().irq or in_kernel_fpu())


def _use_cryptd(cryptd: CryptoSkcipher) -> bool:
    """The wrapper's rule: not SIMD-usable, or atomic with work already queued."""
    return not crypto_simd_usable() or (in_atomic() and cryptd_skcipher_queued(cryptd))


def _make_ops(basename: str):
    def init(tfm: CryptoSkcipher) -> None:
        tfm.ctx.cryptd = cryptd_alloc_skcipher(basename, A.CRYPTO_ALG_INTERNAL, A.CRYPTO_ALG_INTERNAL)

    def exit_(tfm: CryptoSkcipher) -> None:
        c = getattr(tfm.ctx, "cryptd", None)
        if c is not None:
            c.free()

    def setkey(tfm: CryptoSkcipher, key: Any) -> None:
        c = tfm.ctx.cryptd
        c.clear_flags(A.CRYPTO_TFM_REQ_MASK)
        c.set_flags(tfm.crt_flags & A.CRYPTO_TFM_REQ_MASK)
        c.setkey(key)

    def crypt(req: SkcipherRequest, encrypt: bool) -> int:
        c = req.tfm.ctx.cryptd
        target = c if _use_cryptd(c) else cryptd_skcipher_child(c)
        sub = SkcipherRequest(target, req.src, req.dst, req.cryptlen, req.iv)
        sub.flags, sub.complete, sub.data = req.flags, req.complete, req.data
        return (crypto_skcipher_encrypt if encrypt else crypto_skcipher_decrypt)(sub)

    def direct(tfm: CryptoSkcipher, encrypt: bool) -> Optional[Callable]:
        """tfm.encrypt's direct path: the internal tfm's own, while SIMD is usable here."""
        c = tfm.ctx.cryptd
        child = cryptd_skcipher_child(c)
        child_direct = child._direct_enc if encrypt else child._direct_dec
        if child_direct is None:
            return None

        def run(data, iv, out):
            if simd_choice() != SIMD or (in_atomic() and cryptd_skcipher_queued(c)):
                return None
            return child_direct(data, iv, out)
        return run

    return (init, exit_, setkey, lambda req: crypt(req, True), lambda req: crypt(req, False),
            direct)


def simd_direct_child(tfm: CryptoSkcipher) -> Optional[CryptoSkcipher]:
    """The internal tfm a request on the wrapper ``tfm`` would call here and
    now, or None where it would queue to cryptd (the wrapper's rule): the
    wrapper's Delegate for the C entries it offers (crypto_api.cinterface)."""
    c = tfm.ctx.cryptd
    return None if _use_cryptd(c) else cryptd_skcipher_child(c)


_DELEGATE = Delegate(simd_direct_child)


def simd_skcipher_create_compat(algname: str, drvname: str, basename: str) -> A.SkcipherAlg:
    """Register the async wrapper ``drvname`` over the internal ``basename``; returns it."""
    probe = crypto_alloc_skcipher(basename, A.CRYPTO_ALG_INTERNAL,
                                  A.CRYPTO_ALG_INTERNAL | A.CRYPTO_ALG_ASYNC)
    try:
        inner = probe.alg
        init, exit_, setkey, enc, dec, direct = _make_ops(basename)
        alg = A.SkcipherAlg(
            cra_name=algname, cra_driver_name=drvname, cra_priority=inner.cra_priority,
            cra_flags=A.CRYPTO_ALG_ASYNC, cra_blocksize=inner.cra_blocksize,
            cra_alignmask=inner.cra_alignmask, cra_module=inner.cra_module,
            ivsize=inner.ivsize, chunksize=inner.chunksize,
            min_keysize=inner.min_keysize, max_keysize=inner.max_keysize,
            init=init, exit=exit_, setkey=setkey, encrypt=enc, decrypt=dec, direct=direct,
            c_entries=(_DELEGATE,))
    finally:
        probe.free()
    crypto_register_skcipher(alg)
    return alg


def simd_register_skciphers_compat(algs: Sequence[A.SkcipherAlg]) -> List[A.SkcipherAlg]:
    """Register the internal ``__`` algorithms, then one wrapper each (names
    without the ``__``); on a failure everything registered is unregistered."""
    for a in algs:
        if not (a.cra_name.startswith("__") and a.cra_driver_name.startswith("__")):
            raise CryptoError(EINVAL, f"simd: {a.cra_driver_name} must be named __<name>")
    done: List[A.SkcipherAlg] = []
    wrappers: List[A.SkcipherAlg] = []
    try:
        for a in algs:
            crypto_register_skcipher(a)
            done.append(a)
        for a in algs:
            if registry.refused(a):     # not in the emulated kernel: no wrapper either
                continue
            wrappers.append(simd_skcipher_create_compat(a.cra_name[2:], a.cra_driver_name[2:],
                                                        a.cra_driver_name))
    except BaseException:
        simd_unregister_skciphers(done, wrappers)
        raise
    return wrappers


def simd_unregister_skciphers(algs: Sequence[A.SkcipherAlg], wrappers: Sequence[A.SkcipherAlg]) -> None:
    """Unregister the wrappers, then the internal algorithms."""
    for w in reversed(wrappers):
        crypto_unregister_skcipher(w)
    for a in reversed(algs):
        crypto_unregister_skcipher(a)
