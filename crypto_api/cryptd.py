"""The ``cryptd`` template: a synchronous skcipher run asynchronously by a
pool of worker threads (crypto/cryptd.c, the queue of crypto/algapi.c).

``cryptd(<inner>)`` keeps the inner ``cra_name`` (``__`` prefix included),
is named ``cryptd(<inner driver>)``, has the inner priority + 50 and the
flags ``ASYNC | (inner & INTERNAL)``; the inner algorithm must be
synchronous, and an internal one is reached when the lookup asks for
CRYPTO_ALG_INTERNAL (``cryptd_alloc_skcipher(name, INTERNAL, INTERNAL)``).

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
from typing import Any, Deque, List, Optional, Tuple

from . import alg as A
from .errors import EINVAL, CryptoError
from .modules import MODULE_ALIAS_CRYPTO
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


class CryptdQueue:
    """``struct crypto_queue`` with its workers: FIFO, max_qlen, backlog."""

    def __init__(self, max_qlen: int = CRYPTD_MAX_CPU_QLEN, workers: Optional[int] = None) -> None:
        self.max_qlen = max_qlen
        self.nworkers = workers or os.cpu_count() or 1
        self._items: Deque[Tuple[SkcipherRequest, bool]] = collections.deque()
        self._backlog = 0                   # how many of the last items are backlogged
        self._cond = threading.Condition()
        self._threads: List[threading.Thread] = []

    def __len__(self) -> int:
        return len(self._items)

    def enqueue(self, req: SkcipherRequest, encrypt: bool) -> int:
        """crypto_enqueue_request: -EINPROGRESS, -EBUSY (backlogged) or ENOSPC raised."""
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
            self._items.append((req, encrypt))
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

    def _dequeue(self) -> Tuple[SkcipherRequest, bool, Optional[SkcipherRequest]]:
        with self._cond:
            while not self._items:
                self._cond.wait()
            promoted = None
            if self._backlog:               # the first backlogged request enters the queue
                promoted = self._items[len(self._items) - self._backlog][0]
                self._backlog -= 1
            req, encrypt = self._items.popleft()
            return req, encrypt, promoted

    def _worker(self) -> None:
        while True:
            req, encrypt, promoted = self._dequeue()        # never raises
            if promoted is not None:
                _notify(promoted, -EINPROGRESS)
            try:
                cryptd_skcipher_run(req, encrypt)
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


def _notify(req: SkcipherRequest, err: int) -> None:
    cb = req.complete
    if cb is not None:
        try:
            cb(req, err)
        except Exception:                   # a callback's bug must not stop the worker
            log.exception("cryptd: completion callback of %r raised", req)


def cryptd_skcipher_run(req: SkcipherRequest, encrypt: bool) -> None:
    """The worker's step: the inner skcipher on the request's buffers, then the callback."""
    tfm = req.tfm
    st = tfm.ctx.st
    try:
        sub = SkcipherRequest(st.child, req.src, req.dst, req.cryptlen, req.iv)
        sub.flags = A.CRYPTO_TFM_REQ_MAY_SLEEP
        try:
            (crypto_skcipher_encrypt if encrypt else crypto_skcipher_decrypt)(sub)
            err = 0
        except CryptoError as e:
            err = -e.errno
        except Exception as e:              # a driver bug: reported, as a failed request
            log.warning("cryptd: %s failed: %s: %s", tfm.alg.cra_driver_name, type(e).__name__, e)
            err = -EINVAL
        _notify(req, err)
    finally:
        st.put()


class CryptdState:
    """A cryptd tfm's child and its requests in flight (the kernel's tfm
    refcount): the child outlives the tfm's free() until its last request
    is done.  Kept out of reach of the context wipe, which would zero the
    child's key under a running request."""

    __slots__ = ("child", "lock", "inflight", "dying")

    def __init__(self, child: CryptoSkcipher) -> None:
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

def cryptd_skcipher_init(tfm: CryptoSkcipher) -> None:
    tfm.ctx.st = CryptdState(crypto_spawn_tfm(tfm.alg.instance.spawns[0]))


def cryptd_skcipher_exit(tfm: CryptoSkcipher) -> None:
    tfm.ctx.st.release()


def cryptd_skcipher_setkey(tfm: CryptoSkcipher, key: Any) -> None:
    child = tfm.ctx.st.child
    child.clear_flags(A.CRYPTO_TFM_REQ_MASK)
    child.set_flags(tfm.crt_flags & A.CRYPTO_TFM_REQ_MASK)
    child.setkey(key)


def cryptd_skcipher_encrypt(req: SkcipherRequest) -> int:
    return cryptd_queue().enqueue(req, True)


def cryptd_skcipher_decrypt(req: SkcipherRequest) -> int:
    return cryptd_queue().enqueue(req, False)


def cryptd_create(tmpl: Template, tb: list) -> None:
    algt = crypto_get_attr_type(tb)
    if (algt.type ^ A.CRYPTO_ALG_TYPE_SKCIPHER) & algt.mask & A.CRYPTO_ALG_TYPE_MASK:
        raise CryptoError(EINVAL, "cryptd: only skcipher instances are supported here")
    if len(tb) != 2:
        raise CryptoError(EINVAL, f"cryptd: takes one parameter, got {len(tb) - 1}")
    name = crypto_attr_alg_name(tb, 1, "cryptd")
    internal = (algt.type & algt.mask) & A.CRYPTO_ALG_INTERNAL
    spawn = crypto_grab_skcipher(name, internal, (algt.mask & A.CRYPTO_ALG_INTERNAL) | A.CRYPTO_ALG_ASYNC)
    inner = spawn.alg
    inst = A.SkcipherAlg(
        cra_name=inner.cra_name, cra_driver_name=crypto_inst_name("cryptd", inner.cra_driver_name),
        cra_priority=inner.cra_priority + CRYPTD_PRIORITY_BOOST,
        cra_flags=A.CRYPTO_ALG_ASYNC | (inner.cra_flags & A.CRYPTO_ALG_INTERNAL),
        cra_blocksize=inner.cra_blocksize, cra_alignmask=inner.cra_alignmask,
        ivsize=inner.ivsize, chunksize=inner.chunksize,
        min_keysize=inner.min_keysize, max_keysize=inner.max_keysize,
        setkey=cryptd_skcipher_setkey, encrypt=cryptd_skcipher_encrypt,
        decrypt=cryptd_skcipher_decrypt, init=cryptd_skcipher_init, exit=cryptd_skcipher_exit)
    skcipher_register_instance(tmpl, inst, [spawn])


TEMPLATE = Template(name="cryptd", create=cryptd_create)


def module_init() -> None:
    crypto_register_template(TEMPLATE)


def module_exit() -> None:
    crypto_unregister_template(TEMPLATE)


# --------------------------------------------------------------------------
# The helpers the SIMD wrapper uses (include/crypto/cryptd.h)

def cryptd_alloc_skcipher(name: str, type: int = 0, mask: int = 0) -> CryptoSkcipher:
    """The skcipher ``cryptd(<name>)`` (EINVAL if something else answered that name)."""
    tfm = crypto_alloc_skcipher(crypto_inst_name("cryptd", name), type, mask)
    if tfm.alg.cra_module != MODULE_NAME:
        drv = tfm.alg.cra_driver_name
        tfm.free()
        raise CryptoError(EINVAL, f"cryptd({name}): answered by {drv}, which is not a cryptd instance")
    return tfm


def cryptd_skcipher_child(tfm: CryptoSkcipher) -> CryptoSkcipher:
    """The inner (synchronous) tfm of a cryptd tfm."""
    return tfm.ctx.st.child


def cryptd_skcipher_queued(tfm: CryptoSkcipher) -> bool:
    """Whether requests of this cryptd tfm are queued or running."""
    return tfm.ctx.st.inflight > 0


def cryptd_free_skcipher(tfm: CryptoSkcipher) -> None:
    tfm.free()
