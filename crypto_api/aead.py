"""The AEAD frontend (crypto/aead.c, include/crypto/aead.h, Linux v5.0).

``crypto_alloc_aead`` gives a :class:`CryptoAead`: its tag length starts at
the algorithm's ``maxauthsize``; ``setauthsize`` refuses more than that
(EINVAL) and then lets the algorithm add its own rule.  Requests use the
kernel's layout: src and dst describe ``assoclen`` bytes of associated data
followed by the text; ``cryptlen`` counts the text only, and on decryption
it includes the tag (a ``cryptlen`` below the tag length is EINVAL).  The
request path does what the kernel does: a bad tag is EBADMSG, with whatever
the algorithm already wrote left in dst (rfc7539 has written the plaintext),
and the AD region of dst is the algorithm's business (rfc7539 never writes it).

``tfm.encrypt(pt, iv, assoc=b"")`` returns ciphertext ‖ tag and
``tfm.decrypt(ct_tag, iv, assoc=b"")`` the plaintext: both run the request
path (waiting when the algorithm is asynchronous) from the caller's buffers
(a decryption copies a writable text first: it is read twice, for the MAC
and the keystream) into a private one, copied once into the result; a
failed one-call decryption wipes its private buffer and raises, so
unauthenticated plaintext never reaches the caller (an ``out`` buffer is
written only on success).  A driver may offer a one-call direct path
(``AeadAlg.direct``) that these methods try first, under the same contract.
"""

from __future__ import annotations

import ctypes
from errno import EBADMSG
from typing import Any, List, Optional

from . import alg as A
from .completion import ASYNC_PENDING, crypto_init_wait, crypto_req_done, crypto_wait_req
from .crypto_type import crypto_register_type
from .errors import EINVAL, CryptoError
from .fpu import fpu_owned, fpu_recover
from .direct import output_scratch
from .request import request_set_callback, request_set_crypt, request_set_tfm
from .scatterlist import Scatterlist, as_byte_view, check_sgl
from .template import (CryptoSpawn, Template, crypto_grab_spawn, crypto_register_instance,
                       crypto_spawn_tfm)
from .tfm import Frontend, DirectTfm, call_setkey, crypto_alloc_tfm, direct_methods
from .version_rules import rule

MAX_CRYPTLEN = 1 << 40


def _int(value: Any, what: str, name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{name}: {what} must be an int, not {type(value).__name__}")
    return value


class CryptoAead(DirectTfm):
    """An AEAD transform (``struct crypto_aead``): one thread at a time, as in the kernel."""

    __slots__ = ("authsize",)

    # -- properties --------------------------------------------------------
    @property
    def ivsize(self) -> int:
        return self.alg.ivsize

    @property
    def maxauthsize(self) -> int:
        return self.alg.maxauthsize

    @property
    def chunksize(self) -> int:
        return self.alg.chunksize

    # -- lifetime ----------------------------------------------------------
    def _init(self) -> None:
        alg = self.alg
        self.crt_flags |= A.CRYPTO_TFM_NEED_KEY
        self.authsize = alg.maxauthsize
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

    def _keyed(self) -> bool:
        return True                     # setkey is mandatory for every AEAD

    # -- keys and tag length ---------------------------------------------------
    def setkey(self, key: A.BytesLike) -> None:
        """Set the key (its format is the algorithm's; rfc7539: 32 bytes, rfc7539esp: 36).

        A failure wipes the context and re-arms NEED_KEY, as kernels from
        5.1 do; a followed v5.0 keeps an old key usable after a failed
        re-key (``setkey.failed_rekey``, see CryptoTfm._setkey_failed).
        """
        alg = self.alg
        self._check_live()
        self._direct_enc = self._direct_dec = None
        kv = as_byte_view(key, f"{alg.cra_driver_name}: key")
        try:
            call_setkey(alg.setkey, self, kv)       # a wipeable copy, zeroed afterwards
        except BaseException:
            self._setkey_failed()
            raise
        self.crt_flags &= ~A.CRYPTO_TFM_NEED_KEY
        self._install_direct()

    def setauthsize(self, authsize: int) -> None:
        """Set the tag length: EINVAL above maxauthsize, then the algorithm's own rule.

        v5.0 rule: 0 passes the frontend; kernels from 5.4 refuse it there
        (``aead.setauthsize_zero`` in the kernel-version table, asked through
        crypto_api.version_rules; the composite follows v5.0).  An algorithm
        that refuses leaves the tag length as it was.
        """
        alg = self.alg
        name = alg.cra_driver_name
        self._check_live()
        _int(authsize, "authsize", name)
        if authsize < 0 or authsize > alg.maxauthsize:
            raise CryptoError(EINVAL, f"{name}: authsize {authsize} outside 0..{alg.maxauthsize} "
                                      f"(maxauthsize)")
        if authsize == 0 and alg.maxauthsize and rule("aead.setauthsize_zero", "accepted") == "refused":
            raise CryptoError(EINVAL, f"{name}: authsize 0 refused (kernels from 5.4 refuse a zero tag "
                                      f"length when maxauthsize is {alg.maxauthsize})")
        if alg.setauthsize is not None:
            alg.setauthsize(self, authsize)
        self._direct_enc = self._direct_dec = None
        self.authsize = authsize
        if not self.crt_flags & A.CRYPTO_TFM_NEED_KEY:
            self._install_direct()

    # -- one-call convenience -----------------------------------------------
    def _check_iv(self, iv: Optional[A.BytesLike]) -> bytearray:
        alg = self.alg
        if iv is None:
            if alg.ivsize:
                raise CryptoError(EINVAL, f"{alg.cra_driver_name}: an IV of {alg.ivsize} bytes is required")
            return bytearray()
        ivv = as_byte_view(iv, f"{alg.cra_driver_name}: iv")
        if len(ivv) != alg.ivsize:
            raise CryptoError(EINVAL, f"{alg.cra_driver_name}: IV is {len(ivv)} bytes, expected {alg.ivsize}")
        return bytearray(ivv)

    def _request_path(self, data: A.BytesLike, iv: Optional[A.BytesLike], assoc: A.BytesLike,
                      out: Optional[A.WritableBuffer], encrypt: bool) -> Any:
        name = self.alg.cra_driver_name
        self._check_live()
        self._check_key()
        text = as_byte_view(data, f"{name}: data")
        ad = as_byte_view(assoc, f"{name}: assoc")
        ivbuf = self._check_iv(iv)
        alen, n, t = len(ad), len(text), self.authsize
        if not encrypt and n < t:
            raise CryptoError(EINVAL, f"{name}: ciphertext is {n} bytes, shorter than the "
                                      f"{t}-byte tag")
        outlen = n + t if encrypt else n - t
        target = None
        if out is not None:
            target = as_byte_view(out, f"{name}: out")
            if target.readonly or len(target) != outlen:
                raise CryptoError(EINVAL, f"{name}: out must be a writable buffer of {outlen} bytes")
        # src: the caller's buffers themselves.  A decryption reads the text
        # twice (the MAC, then the keystream): a writable buffer is copied
        # first so what is decrypted is what was authenticated.
        if not encrypt and not text.readonly:
            text = memoryview(bytearray(text))
        src = [Scatterlist(v, 0, len(v)) for v in (ad, text) if len(v)] or [Scatterlist(text, 0, 0)]
        # dst: private (the AD room, and the result until it is final); the
        # result in the tfm's reusable scratch (crypto_api.direct): a fresh
        # megabyte costs more in page faults than the cipher
        adbuf = bytearray(alen)
        with output_scratch(self.ctx).borrowed(outlen, wipe=not encrypt) as (_, view):
            res = memoryview(view)[:outlen]     # the plaintext, authentic or not: wiped
            dst = [Scatterlist(b, 0, len(b)) for b in (memoryview(adbuf), res) if len(b)] \
                or [Scatterlist(res, 0, 0)]
            try:
                req = AeadRequest(self)
                wait = crypto_init_wait()
                aead_request_set_callback(req, A.CRYPTO_TFM_REQ_MAY_BACKLOG, crypto_req_done, wait)
                aead_request_set_crypt(req, src, dst, n, ivbuf)
                aead_request_set_ad(req, alen)
                err = crypto_wait_req(_run(req, encrypt), wait)
                if err:
                    raise _async_error(name, encrypt, err)
                if target is None:
                    return bytes(res)
                target[:] = res
                return out
            finally:
                _wipe(adbuf)

    def encrypt(self, data: A.BytesLike, iv: Optional[A.BytesLike] = None, assoc: A.BytesLike = b"",
                out: Optional[A.WritableBuffer] = None) -> Any:
        """Encrypt and authenticate: returns ciphertext ‖ tag (the assoc is not repeated).

        ``assoc`` is the whole AD region of the kernel layout (for the IPsec
        form ``rfc7539esp`` that includes the trailing copy of the IV);
        ``out``, if given, must be a writable buffer of ``len(data) + authsize``
        bytes, filled and returned instead of new bytes.
        """
        direct = self._direct_enc
        if direct is not None:
            res = direct(data, iv, assoc, out)
            if res is not None:
                return res
        return self._request_path(data, iv, assoc, out, True)

    def decrypt(self, data: A.BytesLike, iv: Optional[A.BytesLike] = None, assoc: A.BytesLike = b"",
                out: Optional[A.WritableBuffer] = None) -> Any:
        """Verify and decrypt ciphertext ‖ tag: returns the plaintext.

        A bad tag raises CryptoError(EBADMSG); nothing is returned and ``out``
        is left untouched (the plaintext the algorithm produced lived only in
        a private buffer, now zeroed).
        """
        direct = self._direct_dec
        if direct is not None:
            res = direct(data, iv, assoc, out)
            if res is not None:
                return res
        return self._request_path(data, iv, assoc, out, False)


def _wipe(buf: bytearray) -> None:
    """Zero a private bytearray in one pass (no temporary of its size)."""
    n = len(buf)
    if n:
        ctypes.memset((ctypes.c_char * n).from_buffer(buf), 0, n)


def _async_error(name: str, encrypt: bool, err: int) -> CryptoError:
    code = -err if err < 0 else err
    if code == EBADMSG:
        return CryptoError(EBADMSG, f"{name}: authentication failed (tag mismatch); "
                                    "no plaintext released")
    op = "encryption" if encrypt else "decryption"
    return CryptoError(code, f"{name}: {op} failed (error {err})")


direct_methods(CryptoAead, encrypt="_direct_enc", decrypt="_direct_dec")


class AeadRequest:
    """``struct aead_request``: src/dst, assoclen, cryptlen, iv, flags, callback, context."""

    __slots__ = ("tfm", "src", "dst", "cryptlen", "assoclen", "iv", "flags", "complete", "data", "ctx")

    def __init__(self, tfm: CryptoAead) -> None:
        self.tfm = tfm
        self.src: Optional[List[Scatterlist]] = None
        self.dst: Optional[List[Scatterlist]] = None
        self.cryptlen = 0
        self.assoclen = 0
        self.iv: Optional[A.WritableBuffer] = None
        self.flags = 0
        self.complete: A.Callback = None
        self.data: Any = None
        self.ctx: Any = None

    def __repr__(self) -> str:
        return (f"<AeadRequest {self.tfm.alg.cra_driver_name} assoclen={self.assoclen} "
                f"cryptlen={self.cryptlen}>")


AEAD_FRONTEND = Frontend(CryptoAead, A.CRYPTO_ALG_TYPE_AEAD, A.CRYPTO_ALG_TYPE_MASK, "aead")


def crypto_alloc_aead(name: str, type: int = 0, mask: int = 0) -> CryptoAead:
    """Allocate an AEAD by cra_name or driver name (loading modules, building instances)."""
    return crypto_alloc_tfm(name, AEAD_FRONTEND, type, mask)


def crypto_free_aead(tfm: CryptoAead) -> None:
    tfm.free()


def crypto_aead_setkey(tfm: CryptoAead, key: A.BytesLike) -> int:
    tfm.setkey(key)
    return 0


def crypto_aead_setauthsize(tfm: CryptoAead, authsize: int) -> int:
    tfm.setauthsize(authsize)
    return 0


def crypto_aead_authsize(tfm: CryptoAead) -> int:
    return tfm.authsize


def crypto_aead_maxauthsize(tfm: CryptoAead) -> int:
    return tfm.maxauthsize


def crypto_aead_ivsize(tfm: CryptoAead) -> int:
    return tfm.ivsize


def crypto_aead_blocksize(tfm: CryptoAead) -> int:
    return tfm.blocksize


def crypto_aead_ctx(tfm: CryptoAead) -> A.Ctx:
    return tfm.ctx


def crypto_aead_reqtfm(req: AeadRequest) -> CryptoAead:
    return req.tfm


def aead_request_alloc(tfm: CryptoAead) -> AeadRequest:
    if not isinstance(tfm, CryptoAead):
        raise TypeError(f"aead_request_alloc needs an aead tfm, not {type(tfm).__name__}")
    return AeadRequest(tfm)


def aead_request_free(req: AeadRequest) -> None:
    req.src = req.dst = req.iv = req.ctx = None


aead_request_set_tfm = request_set_tfm
aead_request_set_callback = request_set_callback
aead_request_set_crypt = request_set_crypt


def aead_request_set_ad(req: AeadRequest, assoclen: int) -> None:
    req.assoclen = assoclen


def aead_request_complete(req: AeadRequest, err: int) -> None:
    """For algorithms: deliver the final status of a request that went asynchronous."""
    if req.complete is not None:
        req.complete(req, err)


def _validate(req: AeadRequest, encrypt: bool) -> None:
    if not isinstance(req, AeadRequest):
        raise TypeError(f"expected an AeadRequest, not {type(req).__name__}")
    tfm = req.tfm
    alg = tfm.alg
    name = alg.cra_driver_name
    tfm._check_live()
    tfm._check_key()
    n = _int(req.cryptlen, "cryptlen", name)
    alen = _int(req.assoclen, "assoclen", name)
    if not 0 <= n <= MAX_CRYPTLEN or not 0 <= alen <= MAX_CRYPTLEN:
        raise CryptoError(EINVAL, f"{name}: cryptlen {n} / assoclen {alen} out of range")
    t = tfm.authsize
    if not encrypt and n < t:
        raise CryptoError(EINVAL, f"{name}: decryption cryptlen {n} is shorter than the "
                                  f"{t}-byte tag it must include")
    outlen = n + t if encrypt else n - t
    check_sgl(req.src, "src", alen + n, name, writable=False)
    check_sgl(req.dst, "dst", alen + outlen, name, writable=True)
    if alg.ivsize:
        if req.iv is None:
            raise CryptoError(EINVAL, f"{name}: an IV of {alg.ivsize} bytes is required")
        ivv = as_byte_view(req.iv, f"{name}: iv")
        if len(ivv) < alg.ivsize:
            raise CryptoError(EINVAL, f"{name}: IV is {len(ivv)} bytes, expected {alg.ivsize}")


def _run(req: AeadRequest, encrypt: bool) -> int:
    _validate(req, encrypt)
    alg = req.tfm.alg
    owned = fpu_owned()
    try:
        rc = (alg.encrypt if encrypt else alg.decrypt)(req)
    except BaseException:
        fpu_recover(owned, alg.cra_driver_name)
        raise
    if not rc:
        return 0
    if rc in ASYNC_PENDING:
        return rc
    code = -rc if isinstance(rc, int) and rc < 0 else EINVAL
    raise CryptoError(code, f"{alg.cra_driver_name}: {'en' if encrypt else 'de'}cryption "
                            f"failed (returned {rc!r})")


def crypto_aead_encrypt(req: AeadRequest) -> int:
    """Encrypt: 0 when done, ``-EINPROGRESS``/``-EBUSY`` when the callback will say; raises on error."""
    return _run(req, True)


def crypto_aead_decrypt(req: AeadRequest) -> int:
    """Decrypt and verify: EBADMSG on a bad tag (dst then holds what the algorithm wrote)."""
    return _run(req, False)


def show(alg: Any) -> list:
    """/proc/crypto lines of an AEAD (v5.0 crypto_aead_show)."""
    return [
        ("type", "aead"),
        ("async", "yes" if alg.cra_flags & A.CRYPTO_ALG_ASYNC else "no"),
        ("blocksize", alg.cra_blocksize),
        ("ivsize", alg.ivsize),
        ("maxauthsize", alg.maxauthsize),
        ("geniv", "<none>"),
    ]


def crypto_grab_aead(name: str, type: int = 0, mask: int = 0) -> CryptoSpawn:
    """Grab ``name`` as an inner AEAD of a template instance (crypto_grab_aead)."""
    return crypto_grab_spawn(AEAD_FRONTEND, name, type, mask)


def aead_register_instance(tmpl: Template, desc: A.AeadAlg, spawns: List[CryptoSpawn]) -> Any:
    """Register an AEAD instance built by ``tmpl.create`` (aead_register_instance)."""
    if not isinstance(desc, A.AeadAlg):
        raise TypeError(f"expected an AeadAlg, not {type(desc).__name__}")
    return crypto_register_instance(tmpl, desc, spawns)


crypto_spawn_aead = crypto_spawn_tfm


crypto_register_type("aead", AEAD_FRONTEND, show)
