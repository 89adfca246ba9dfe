"""The skcipher frontend (crypto/skcipher.c, include/crypto/skcipher.h).

``crypto_alloc_skcipher`` gives a :class:`CryptoSkcipher`; setkey checks the
key length against the algorithm before the driver sees it and arms NEED_KEY
on failure.  Requests are kernel-shaped (:class:`SkcipherRequest` over
scatterlists, in place or out of place); ``tfm.encrypt(data, iv)`` is the
one-buffer convenience.  A failed request leaves the destination untouched.
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence

from . import alg as A
from .batch import skcipher_batch
from .completion import ASYNC_PENDING, CryptoWait, crypto_req_done, crypto_wait_req
from .errors import EINVAL, CryptoError
from .fpu import _cpu as _this_cpu
from .fpu import fpu_owned, fpu_recover
from .kernel_version import shows_as_blkcipher
from .scatterlist import partly_overlapping, Scatterlist, as_byte_view, check_sgl
from .crypto_type import crypto_register_type
from .request import request_set_callback, request_set_crypt, request_set_tfm
from .template import CryptoSpawn, crypto_grab_spawn
from .tfm import BoundedKeyTfm, Frontend, crypto_alloc_tfm, direct_methods


class CryptoSkcipher(BoundedKeyTfm):
    """A symmetric-key cipher transform.

    One tfm is meant to be used by one thread at a time (as in the kernel);
    allocate one per thread.
    """

    __slots__ = ("_enc", "_dec", "_ivsize", "_cenc", "_cdec")

    # -- properties --------------------------------------------------------
    @property
    def ivsize(self) -> int:
        return self.alg.ivsize

    @property
    def chunksize(self) -> int:
        return self.alg.chunksize

    @property
    def walksize(self) -> int:
        return self.alg.walksize

    # -- lifetime ----------------------------------------------------------
    def _init(self) -> None:
        alg = self.alg
        self._enc = alg.encrypt
        self._dec = alg.decrypt
        self._ivsize = alg.ivsize
        self._cenc = alg.encrypt_contiguous
        self._cdec = alg.decrypt_contiguous
        if alg.max_keysize:
            self.crt_flags |= A.CRYPTO_TFM_NEED_KEY
        if alg.cra_init is not None:
            alg.cra_init(self)
        if alg.init is not None:
            alg.init(self)

    def _exit(self) -> None:
        alg = self.alg
        if alg.exit is not None:
            alg.exit(self)
        if alg.cra_exit is not None:
            alg.cra_exit(self)

    # -- one-buffer convenience ---------------------------------------------
    def _check_iv(self, iv) -> bytes:
        alg = self.alg
        ivsize = alg.ivsize
        if iv is None:
            if ivsize:
                raise CryptoError(EINVAL, f"{alg.cra_driver_name}: an IV of {ivsize} bytes is required")
            return b""
        ivv = as_byte_view(iv, f"{alg.cra_driver_name}: iv")
        if len(ivv) != ivsize:
            raise CryptoError(EINVAL, f"{alg.cra_driver_name}: IV is {len(ivv)} bytes, expected {ivsize}")
        return bytes(ivv)

    def _crypt(self, data, iv, encrypt: bool, out) -> bytes:
        if self.crt_flags & A.CRYPTO_TFM_NEED_KEY:
            self._check_key()               # raises: ENOKEY, or EINVAL once freed
        # a view holds an export: a bytearray cannot be resized under the driver
        src = data if type(data) is bytes else as_byte_view(data, f"{self.alg.cra_driver_name}: data")
        if type(iv) is bytes and len(iv) == self._ivsize:
            ivbuf = iv
        else:
            ivbuf = self._check_iv(iv)
        n = len(src)
        if out is None:
            dst = bytearray(n)
        else:
            dst = as_byte_view(out, f"{self.alg.cra_driver_name}: out")
            if dst.readonly or len(dst) != n:
                raise CryptoError(EINVAL, f"{self.alg.cra_driver_name}: out must be a writable "
                                          f"buffer of {n} bytes")
            if n and partly_overlapping(src, dst):
                raise CryptoError(EINVAL, f"{self.alg.cra_driver_name}: out overlaps data without "
                                          "being the same bytes (use the same buffer for in place)")
        lin = self._cenc if encrypt else self._cdec
        saved = None if out is None else bytes(dst)   # a failing driver leaves out untouched
        owned = _this_cpu.in_fpu            # fpu_owned(), without a call on the hot path
        try:
            if lin is None or not lin(self, src, dst, n, ivbuf):
                req = SkcipherRequest(self, [Scatterlist(memoryview(src), 0, n)],
                                      [Scatterlist(memoryview(dst), 0, n)], n, bytearray(ivbuf))
                _call_and_wait(req, self._enc if encrypt else self._dec)
        except BaseException:
            fpu_recover(owned, self.alg.cra_driver_name)
            if saved is not None:
                dst[:] = saved
            raise
        return bytes(dst) if out is None else out

    def encrypt(self, data: A.BytesLike, iv: Optional[A.BytesLike] = None,
                out: Optional[A.WritableBuffer] = None) -> bytes:
        """Encrypt a bytes-like object; returns new bytes (``iv`` is not changed).

        ``out``: an optional writable buffer of the same length to write into
        (it is returned instead of new bytes); no allocation on the hot path.
        """
        direct = self._direct_enc
        if direct is not None:
            res = direct(data, iv, out)
            if res is not None:
                return res
        return self._crypt(data, iv, True, out)

    def decrypt(self, data: A.BytesLike, iv: Optional[A.BytesLike] = None,
                out: Optional[A.WritableBuffer] = None) -> bytes:
        direct = self._direct_dec
        if direct is not None:
            res = direct(data, iv, out)
            if res is not None:
                return res
        return self._crypt(data, iv, False, out)

    # -- many messages in one call ---------------------------------------------
    def encrypt_batch(self, datas: Sequence[A.BytesLike], ivs: Optional[Sequence[A.BytesLike]] = None,
                      outs: Optional[Sequence[A.WritableBuffer]] = None, *,
                      workers: Optional[int] = None) -> List[Any]:
        """Encrypt many messages in one call: ``datas[i]`` with ``ivs[i]``
        (``ivs`` None for a mode without IV), into new bytes or into
        ``outs[i]`` (the same buffer as ``datas[i]`` for in place); returns
        the list.  A driver with a direct path runs the batch on
        ``workers`` native threads (default: the CPUs this process may use)
        with the GIL released; others loop over :meth:`encrypt`.  Every
        refusal comes before any byte is written (crypto_api/batch.py)."""
        return skcipher_batch(self, datas, ivs, outs, workers, True)

    def decrypt_batch(self, datas: Sequence[A.BytesLike], ivs: Optional[Sequence[A.BytesLike]] = None,
                      outs: Optional[Sequence[A.WritableBuffer]] = None, *,
                      workers: Optional[int] = None) -> List[Any]:
        """Decrypt many messages in one call (see :meth:`encrypt_batch`)."""
        return skcipher_batch(self, datas, ivs, outs, workers, False)


direct_methods(CryptoSkcipher, encrypt="_direct_enc", decrypt="_direct_dec")


def _call_and_wait(req: "SkcipherRequest", op) -> None:
    """Run ``op(req)``; an asynchronous driver's request is waited for (the
    one-call methods always return the result), its error raised here."""
    wait = CryptoWait()
    req.flags = A.CRYPTO_TFM_REQ_MAY_SLEEP | A.CRYPTO_TFM_REQ_MAY_BACKLOG
    req.complete, req.data = crypto_req_done, wait
    err = crypto_wait_req(op(req) or 0, wait)
    if err:
        raise CryptoError(-err, f"{req.tfm.alg.cra_driver_name}: asynchronous request failed")


class SkcipherRequest:
    """``struct skcipher_request``: src/dst scatterlists, cryptlen, iv, flags."""

    __slots__ = ("tfm", "src", "dst", "cryptlen", "iv", "flags", "complete", "data", "ctx")

    def __init__(self, tfm: CryptoSkcipher, src: Optional[List[Scatterlist]] = None,
                 dst: Optional[List[Scatterlist]] = None, cryptlen: int = 0,
                 iv: Optional[A.WritableBuffer] = None) -> None:
        self.tfm = tfm
        self.src = src
        self.dst = dst
        self.cryptlen = cryptlen
        self.iv = iv
        self.flags = 0
        self.complete = None
        self.data = None
        self.ctx = None

    def __repr__(self) -> str:
        return f"<SkcipherRequest {self.tfm.alg.cra_driver_name} cryptlen={self.cryptlen}>"


SKCIPHER_FRONTEND = Frontend(CryptoSkcipher, A.CRYPTO_ALG_TYPE_SKCIPHER,
                             A.CRYPTO_ALG_TYPE_BLKCIPHER_MASK, "skcipher")


def crypto_alloc_skcipher(name: str, type: int = 0, mask: int = 0) -> CryptoSkcipher:
    """Allocate a skcipher by cra_name or driver name (loading modules as needed)."""
    return crypto_alloc_tfm(name, SKCIPHER_FRONTEND, type, mask)


def crypto_alloc_sync_skcipher(name: str, type: int = 0, mask: int = 0) -> CryptoSkcipher:
    return crypto_alloc_skcipher(name, type, mask | A.CRYPTO_ALG_ASYNC)


def crypto_free_skcipher(tfm: CryptoSkcipher) -> None:
    tfm.free()


def crypto_skcipher_setkey(tfm: CryptoSkcipher, key: A.BytesLike) -> int:
    tfm.setkey(key)
    return 0


def crypto_skcipher_ctx(tfm: CryptoSkcipher) -> A.Ctx:
    return tfm.ctx


def crypto_skcipher_reqtfm(req: SkcipherRequest) -> CryptoSkcipher:
    return req.tfm


def crypto_skcipher_ivsize(tfm: CryptoSkcipher) -> int:
    return tfm.ivsize


def crypto_skcipher_blocksize(tfm: CryptoSkcipher) -> int:
    return tfm.blocksize


def crypto_skcipher_alg(tfm: CryptoSkcipher) -> Any:          # the registry entry
    return tfm.alg


def skcipher_request_alloc(tfm: CryptoSkcipher) -> SkcipherRequest:
    if not isinstance(tfm, CryptoSkcipher):
        raise TypeError(f"skcipher_request_alloc needs a skcipher tfm, not {type(tfm).__name__}")
    return SkcipherRequest(tfm)


def skcipher_request_free(req: SkcipherRequest) -> None:
    req.src = req.dst = req.iv = None


skcipher_request_set_tfm = request_set_tfm
skcipher_request_set_callback = request_set_callback
skcipher_request_set_crypt = request_set_crypt


def _validate(req: SkcipherRequest) -> None:
    if not isinstance(req, SkcipherRequest):
        raise TypeError(f"expected a SkcipherRequest, not {type(req).__name__}")
    tfm = req.tfm
    alg = tfm.alg
    name = alg.cra_driver_name
    tfm._check_live()
    tfm._check_key()
    n = req.cryptlen
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"{name}: cryptlen must be an int, not {type(n).__name__}")
    if n < 0 or n > 1 << 40:
        raise CryptoError(EINVAL, f"{name}: cryptlen {n} out of range")
    check_sgl(req.src, "src", n, name, writable=False)
    check_sgl(req.dst, "dst", n, name, writable=True)
    if alg.ivsize:
        if req.iv is None:
            raise CryptoError(EINVAL, f"{name}: an IV of {alg.ivsize} bytes is required")
        ivv = as_byte_view(req.iv, f"{name}: iv")
        if len(ivv) < alg.ivsize:
            raise CryptoError(EINVAL, f"{name}: IV is {len(ivv)} bytes, expected {alg.ivsize}")


def _snapshot(sgl, n: int):
    saved = []
    for sg in sgl:
        if n <= 0:
            break
        take = min(sg.length, n)
        if take:                    # unused (empty) entries of sg_init_table have no buffer
            # where the bytes were, not the entry: its fields may change meanwhile
            saved.append((sg.buf, sg.offset, bytes(sg.buf[sg.offset:sg.offset + take])))
        n -= take
    return saved


def _restore(saved) -> None:
    for buf, offset, data in saved:
        buf[offset:offset + len(data)] = data


def _run(req: SkcipherRequest, encrypt: bool) -> int:
    """Run the driver; if it raises, dst (and a writable IV) are put back as they were."""
    _validate(req)
    alg = req.tfm.alg
    saved = _snapshot(req.dst, req.cryptlen)
    ivv = None if req.iv is None else as_byte_view(req.iv, "iv")
    ivsaved = None if ivv is None or ivv.readonly else bytes(ivv)
    owned = fpu_owned()
    try:
        rc = (alg.encrypt if encrypt else alg.decrypt)(req)
    except BaseException:
        fpu_recover(owned, alg.cra_driver_name)
        _restore(saved)
        if ivsaved is not None:
            ivv[:] = ivsaved
        raise
    return rc if rc in ASYNC_PENDING else 0


def crypto_skcipher_encrypt(req: SkcipherRequest) -> int:
    """Encrypt ``req`` (0 on success; CryptoError otherwise, dst untouched).

    An asynchronous driver returns -EINPROGRESS (or -EBUSY) instead and
    reports the result through the request's callback (crypto_api.completion)."""
    return _run(req, True)


def crypto_skcipher_decrypt(req: SkcipherRequest) -> int:
    return _run(req, False)


def show(alg) -> list:
    """/proc/crypto lines of a skcipher (of a v5.0 blkcipher where the
    emulated kernel is v5.0 and the alg is one: crypto_api.kernel_version)."""
    if shows_as_blkcipher(alg):
        return [
            ("type", "blkcipher"),
            ("blocksize", alg.cra_blocksize),
            ("min keysize", alg.min_keysize),
            ("max keysize", alg.max_keysize),
            ("ivsize", alg.ivsize),
            ("geniv", "<default>"),
        ]
    return [
        ("type", "skcipher"),
        ("async", "yes" if alg.cra_flags & A.CRYPTO_ALG_ASYNC else "no"),
        ("blocksize", alg.cra_blocksize),
        ("min keysize", alg.min_keysize),
        ("max keysize", alg.max_keysize),
        ("ivsize", alg.ivsize),
        ("chunksize", alg.chunksize),
        ("walksize", alg.walksize),
    ]


def crypto_grab_skcipher(name: str, type: int = 0, mask: int = 0) -> CryptoSpawn:
    """Grab ``name`` as an inner skcipher of a template instance (crypto_grab_skcipher)."""
    return crypto_grab_spawn(SKCIPHER_FRONTEND, name, type, mask)


crypto_register_type("skcipher", SKCIPHER_FRONTEND, show)
