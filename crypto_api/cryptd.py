"""The ``cryptd`` template: a synchronous skcipher or AEAD run
asynchronously by a pool of worker threads (crypto/cryptd.c, the queue of
crypto/algapi.c).

``cryptd(<inner>)`` keeps the inner ``cra_name`` (``__`` prefix included),
is named ``cryptd(<inner driver>)``, has the inner priority + 50 and the
flags ``ASYNC | (inner & INTERNAL)``; the inner algorithm must be
synchronous, and an internal one is reached when the lookup asks for
CRYPTO_ALG_INTERNAL (``cryptd_alloc_skcipher(name, INTERNAL, INTERNAL)``,
``cryptd_alloc_aead``).  The type asked for picks the instance's type: an
AEAD lookup builds an AEAD instance over an inner AEAD (setauthsize goes to
the inner tfm, as the kernel's cryptd_aead_setauthsize does), anything else
an skcipher one.

A request is queued and returns ``-EINPROGRESS``; with more than
``max_qlen`` (1000) requests queued it is refused with ENOSPC unless it
carries CRYPTO_TFM_REQ_MAY_BACKLOG, in which case it is queued in the
backlog and returns ``-EBUSY``, and its callback hears ``-EINPROGRESS`` when
it leaves the backlog.  The workers (the kernel's per-CPU workqueue, here a
pool of threads, one per core by default) take the requests in order, run
the inner skcipher on the request's buffers with MAY_SLEEP, then call the
request's callback with 0 or the negative errno.  The inner C code runs with
the GIL released (cffi's calls do), so the pool scales over cores.  Worker
threads start with a fresh context: SIMD is usable there.
"""

from __future__ import annotations

import collections
import logging
import os
import threading
from errno import EBUSY, EINPROGRESS, ENOSPC
from typing import Any, Callable, Deque, List, Optional, Tuple, Union

from . import alg as A
from .errors import EINVAL, CryptoError
from .modules import MODULE_ALIAS_CRYPTO
from .aead import (AeadRequest, CryptoAead, aead_register_instance, aead_request_set_ad,
                   crypto_aead_decrypt, crypto_aead_encrypt, crypto_alloc_aead, crypto_grab_aead)
from .skcipher import (CryptoSkcipher, SkcipherRequest, crypto_alloc_skcipher,
                       crypto_grab_skcipher, crypto_skcipher_decrypt, crypto_skcipher_encrypt)
from .template import (Template, crypto_attr_alg_name, crypto_get_attr_type, crypto_inst_name,
                       crypto_register_template, crypto_spawn_tfm, crypto_unregister_template,
                       skcipher_register_instance)

log = logging.getLogger("crypto_api")

MODULE_NAME = "cryptd"
MODULE_ALIASES = MODULE_ALIAS_CRYPTO("cryptd")

#: The module parameter ``cryptd_max_cpu_qlen``.
CRYPTD_MAX_CPU_QLEN = 1000
CRYPTD_PRIORITY_BOOST = 50


#: A request of either type the queue carries.
Request = Union[SkcipherRequest, AeadRequest]
#: What a worker does with one: ``run(req, encrypt)``.
Runner = Callable[[Request, bool], None]


class CryptdQueue:
    """``struct crypto_queue`` with its workers: FIFO, max_qlen, backlog."""

    def __init__(self, max_qlen: int = CRYPTD_MAX_CPU_QLEN, workers: Optional[int] = None) -> None:
        self.max_qlen = max_qlen
        self.nworkers = workers or os.cpu_count() or 1
        self._items: Deque[Tuple[Request, bool, Runner]] = collections.deque()
        self._backlog = 0                   # how many of the last items are backlogged
        self._cond = threading.Condition()
        self._threads: List[threading.Thread] = []

    def __len__(self) -> int:
        return len(self._items)

    def enqueue(self, req: Request, encrypt: bool, run: Runner) -> int:
        """crypto_enqueue_request: -EINPROGRESS, -EBUSY (backlogged) or ENOSPC
        raised; a worker later calls ``run(req, encrypt)``."""
        with self._cond:
            if len(self._items) >= self.max_qlen:
                if not req.flags & A.CRYPTO_TFM_REQ_MAY_BACKLOG:
                    raise CryptoError(ENOSPC, f"{req.tfm.alg.cra_driver_name}: cryptd queue full "
                                              f"({self.max_qlen} requests) and the request may "
                                              "not backlog")
                err = -EBUSY
                self._backlog += 1
            else:
                err = -EINPROGRESS
            self._items.append((req, encrypt, run))
            st = req.tfm.ctx.st
            with st.lock:
                st.inflight += 1
            self._start_workers()
            self._cond.notify()
            return err

    def _start_workers(self) -> None:
        while len(self._threads) < self.nworkers:
            t = threading.Thread(target=self._worker, name=f"cryptd/{len(self._threads)}",
                                 daemon=True)
            self._threads.append(t)
            t.start()

    def _dequeue(self) -> Tuple[Request, bool, Runner, Optional[Request]]:
        with self._cond:
            while not self._items:
                self._cond.wait()
            promoted = None
            if self._backlog:               # the first backlogged request enters the queue
                promoted = self._items[len(self._items) - self._backlog][0]
                self._backlog -= 1
            req, encrypt, run = self._items.popleft()
            return req, encrypt, run, promoted

    def _worker(self) -> None:
        while True:
            req, encrypt, run, promoted = self._dequeue()   # never raises
            if promoted is not None:
                _notify(promoted, -EINPROGRESS)
            try:
                run(req, encrypt)
            except BaseException:           # a worker never dies with a request
                log.exception("cryptd: worker failed on %r", req)


_queue_lock = threading.Lock()
_queue: Optional[CryptdQueue] = None


def cryptd_queue() -> CryptdQueue:
    """The one queue (and worker pool) of the cryptd module."""
    global _queue
    with _queue_lock:
        if _queue is None:
            _queue = CryptdQueue()
        return _queue


def _notify(req: Request, err: int) -> None:
    cb = req.complete
    if cb is not None:
        try:
            cb(req, err)
        except Exception:                   # a callback's bug must not stop the worker
            log.exception("cryptd: completion callback of %r raised", req)


def _run_inner(req: Request, make_sub: Callable[[Any], Request], op: Callable[[Request], Any]) -> None:
    """The worker's step: ``op`` on the inner tfm's request ``make_sub(child)``
    over the request's buffers (MAY_SLEEP), then the callback with 0 or the
    negative errno; the tfm's request count is released whatever happens."""
    tfm = req.tfm
    st = tfm.ctx.st
    try:
        try:
            sub = make_sub(st.child)
            sub.flags = A.CRYPTO_TFM_REQ_MAY_SLEEP
            op(sub)
            err = 0
        except CryptoError as e:
            err = -e.errno
        except Exception as e:              # a driver bug: reported, as a failed request
            log.warning("cryptd: %s failed: %s: %s", tfm.alg.cra_driver_name, type(e).__name__, e)
            err = -EINVAL
        _notify(req, err)
    finally:
        st.put()


def cryptd_skcipher_run(req: SkcipherRequest, encrypt: bool) -> None:
    """The inner skcipher on the request's buffers, then the callback."""
    _run_inner(req, lambda child: SkcipherRequest(child, req.src, req.dst, req.cryptlen, req.iv),
               crypto_skcipher_encrypt if encrypt else crypto_skcipher_decrypt)


def _aead_sub(child: CryptoAead, req: AeadRequest) -> AeadRequest:
    sub = AeadRequest(child)
    sub.src, sub.dst, sub.cryptlen, sub.iv = req.src, req.dst, req.cryptlen, req.iv
    aead_request_set_ad(sub, req.assoclen)
    return sub


def cryptd_aead_run(req: AeadRequest, encrypt: bool) -> None:
    """The inner AEAD on the request's buffers, then the callback (EBADMSG as
    ``-EBADMSG``)."""
    _run_inner(req, lambda child: _aead_sub(child, req),
               crypto_aead_encrypt if encrypt else crypto_aead_decrypt)


class CryptdState:
    """A cryptd tfm's child and its requests in flight (the kernel's tfm
    refcount): the child outlives the tfm's free() until its last request
    is done.  Kept out of reach of the context wipe, which would zero the
    child's key under a running request."""

    __slots__ = ("child", "lock", "inflight", "dying")

    def __init__(self, child: Union[CryptoSkcipher, CryptoAead]) -> None:
        self.child = child
        self.lock = threading.Lock()
        self.inflight = 0
        self.dying = False

    def put(self) -> None:
        """One request done: after the tfm's exit, the last one frees the child."""
        with self.lock:
            self.inflight -= 1
            last = self.dying and self.inflight == 0
        if last:
            self.child.free()

    def release(self) -> None:
        """The tfm's exit: free the child now, or when its last request is done."""
        with self.lock:
            self.dying = True
            busy = self.inflight
        if not busy:
            self.child.free()


# --------------------------------------------------------------------------
# The instance's operations

def cryptd_init_tfm(tfm: Any) -> None:
    tfm.ctx.st = CryptdState(crypto_spawn_tfm(tfm.alg.instance.spawns[0]))


def cryptd_exit_tfm(tfm: Any) -> None:
    tfm.ctx.st.release()


def cryptd_setkey(tfm: Any, key: Any) -> None:
    child = tfm.ctx.st.child
    child.clear_flags(A.CRYPTO_TFM_REQ_MASK)
    child.set_flags(tfm.crt_flags & A.CRYPTO_TFM_REQ_MASK)
    child.setkey(key)


def cryptd_skcipher_encrypt(req: SkcipherRequest) -> int:
    return cryptd_queue().enqueue(req, True, cryptd_skcipher_run)


def cryptd_skcipher_decrypt(req: SkcipherRequest) -> int:
    return cryptd_queue().enqueue(req, False, cryptd_skcipher_run)


def cryptd_aead_setauthsize(tfm: CryptoAead, authsize: int) -> None:
    tfm.ctx.st.child.setauthsize(authsize)


def cryptd_aead_encrypt(req: AeadRequest) -> int:
    return cryptd_queue().enqueue(req, True, cryptd_aead_run)


def cryptd_aead_decrypt(req: AeadRequest) -> int:
    return cryptd_queue().enqueue(req, False, cryptd_aead_run)


def _instance_common(inner: Any) -> dict:
    """The fields every cryptd instance takes from its inner algorithm."""
    return dict(cra_name=inner.cra_name, cra_driver_name=crypto_inst_name("cryptd", inner.cra_driver_name),
                cra_priority=inner.cra_priority + CRYPTD_PRIORITY_BOOST,
                cra_flags=A.CRYPTO_ALG_ASYNC | (inner.cra_flags & A.CRYPTO_ALG_INTERNAL),
                cra_blocksize=inner.cra_blocksize, cra_alignmask=inner.cra_alignmask,
                ivsize=inner.ivsize, chunksize=inner.chunksize, setkey=cryptd_setkey,
                init=cryptd_init_tfm, exit=cryptd_exit_tfm)


def cryptd_create(tmpl: Template, tb: list) -> None:
    algt = crypto_get_attr_type(tb)
    asked = algt.type & algt.mask & A.CRYPTO_ALG_TYPE_MASK
    aead = asked == A.CRYPTO_ALG_TYPE_AEAD
    if not aead and (algt.type ^ A.CRYPTO_ALG_TYPE_SKCIPHER) & algt.mask & A.CRYPTO_ALG_TYPE_MASK:
        raise CryptoError(EINVAL, "cryptd: only skcipher and aead instances are supported here")
    if len(tb) != 2:
        raise CryptoError(EINVAL, f"cryptd: takes one parameter, got {len(tb) - 1}")
    name = crypto_attr_alg_name(tb, 1, "cryptd")
    internal = (algt.type & algt.mask) & A.CRYPTO_ALG_INTERNAL
    mask = (algt.mask & A.CRYPTO_ALG_INTERNAL) | A.CRYPTO_ALG_ASYNC
    if aead:
        spawn = crypto_grab_aead(name, internal, mask)
        inst = A.AeadAlg(**_instance_common(spawn.alg), maxauthsize=spawn.alg.maxauthsize,
                         setauthsize=cryptd_aead_setauthsize, encrypt=cryptd_aead_encrypt,
                         decrypt=cryptd_aead_decrypt)
        aead_register_instance(tmpl, inst, [spawn])
        return
    spawn = crypto_grab_skcipher(name, internal, mask)
    inner = spawn.alg
    inst = A.SkcipherAlg(**_instance_common(inner), min_keysize=inner.min_keysize,
                         max_keysize=inner.max_keysize, encrypt=cryptd_skcipher_encrypt,
                         decrypt=cryptd_skcipher_decrypt)
    skcipher_register_instance(tmpl, inst, [spawn])


TEMPLATE = Template(name="cryptd", create=cryptd_create)


def module_init() -> None:
    crypto_register_template(TEMPLATE)


def module_exit() -> None:
    crypto_unregister_template(TEMPLATE)


# --------------------------------------------------------------------------
# The helpers the SIMD wrapper uses (include/crypto/cryptd.h)

def _cryptd_alloc(alloc: Callable[..., Any], name: str, type: int, mask: int) -> Any:
    """``cryptd(<name>)`` through ``alloc`` (EINVAL if something else answered that name)."""
    tfm = alloc(crypto_inst_name("cryptd", name), type, mask)
    if tfm.alg.cra_module != MODULE_NAME:
        drv = tfm.alg.cra_driver_name
        tfm.free()
        raise CryptoError(EINVAL, f"cryptd({name}): answered by {drv}, which is not a cryptd instance")
    return tfm


def cryptd_alloc_skcipher(name: str, type: int = 0, mask: int = 0) -> CryptoSkcipher:
    """The skcipher ``cryptd(<name>)``."""
    return _cryptd_alloc(crypto_alloc_skcipher, name, type, mask)


def cryptd_alloc_aead(name: str, type: int = 0, mask: int = 0) -> CryptoAead:
    """The AEAD ``cryptd(<name>)``."""
    return _cryptd_alloc(crypto_alloc_aead, name, type, mask)


def cryptd_child(tfm: Any) -> Any:
    """The inner (synchronous) tfm of a cryptd tfm of either type."""
    return tfm.ctx.st.child


def cryptd_queued(tfm: Any) -> bool:
    """Whether requests of this cryptd tfm are queued or running."""
    return tfm.ctx.st.inflight > 0


def cryptd_free(tfm: Any) -> None:
    tfm.free()


# the kernel's names, one per type (include/crypto/cryptd.h)
cryptd_skcipher_child = cryptd_aead_child = cryptd_child
cryptd_skcipher_queued = cryptd_aead_queued = cryptd_queued
cryptd_free_skcipher = cryptd_free_aead = cryptd_free
