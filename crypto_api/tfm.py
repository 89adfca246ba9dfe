"""Transform objects common to every type (``struct crypto_tfm``, crypto/api.c).

A tfm holds a reference on its algorithm for as long as it lives (freed
explicitly, by a ``with`` block, or when garbage-collected), its tfm flags
(NEED_KEY, request flags) and a per-tfm context object for the driver.
Allocation follows ``crypto_alloc_tfm``: look up, create, and retry the lookup
when the algorithm died in between (EAGAIN).

Threads: allocation, free, registration and lookup may run on any thread
(the registry serialises them under one lock).  A tfm, like the kernel's, is
used by one thread at a time: give each thread its own tfm (or hold your own
lock around a shared one); tfms of the same algorithm share no state.

Key hygiene: the driver context is wiped (:func:`wipe_ctx`) when the tfm is
freed, after the driver's exit hook (the kernel frees a tfm with
kfree_sensitive), and by the frontends when a setkey fails, except under a
followed v5.0, whose frontends left NEED_KEY and the context as they were
(``setkey.failed_rekey`` in the kernel-version table, :meth:`CryptoTfm._setkey_failed`).
"""

from __future__ import annotations

import inspect
import sys
from types import SimpleNamespace

import cffi

from . import alg as A
from . import registry
from .direct import OutputScratch
from .scatterlist import as_byte_view
from .errors import EAGAIN, EINVAL, ENOKEY, CryptoError
from .version_rules import rule

#: the kernel-version rule saying what a refused setkey does to NEED_KEY
FAILED_REKEY_RULE = "setkey.failed_rekey"

try:
    # method(cls, func, member, doc): a one-call method entered in C (crypto_api/direct_method.c)
    from ._direct_method import method as _c_method
except ImportError:                 # not built (a pure-Python install): the functions as written
    _c_method = None

_ffi = cffi.FFI()
_OWNING_CDATA = (type(_ffi.new("char[1]")),)


def _zero(value) -> None:
    if type(value) in _OWNING_CDATA:          # memory cffi allocated for the driver (ffi.new)
        buf = _ffi.buffer(value)
        buf[:] = bytes(len(buf))
    elif isinstance(value, bytearray):
        value[:] = bytes(len(value))
    elif isinstance(value, CryptoTfm):        # a child tfm of a template instance
        value.wipe_key()
    elif isinstance(value, OutputScratch):    # a direct path's output buffer
        value.wipe()


_refcount = getattr(sys, "getrefcount", None)


def call_setkey(setkey, tfm, key) -> None:
    """Run a driver's ``setkey(tfm, key)`` on a bytearray copy of ``key``.

    The copy is zeroed when setkey returns, unless the driver kept a
    reference to it (its own key buffer, then: wipe_ctx zeroes a bytearray
    held in the context), and always when setkey fails.  Key bytes thus do
    not linger in an immutable ``bytes`` object nobody can wipe.
    """
    kb = bytearray(key)
    try:
        setkey(tfm, kb)
    except BaseException:
        kb[:] = bytes(len(kb))
        raise
    if _refcount is not None and _refcount(kb) <= 2:      # this frame and the call: nobody else
        kb[:] = bytes(len(kb))


def wipe_ctx(ctx) -> None:
    """Zero the key material a driver keeps in a tfm context.

    Zeroes every buffer cffi allocated (``ffi.new``), every bytearray and
    every direct-path output scratch held directly as an attribute of ``ctx``,
    and wipes child transforms held there (a template instance's spawned
    tfms).  Pointers into memory the driver does
    not own (``ffi.from_buffer``, ``ffi.addressof``) are left alone.  Drivers
    keep their key material in such buffers and rebuild it in setkey.
    """
    for value in list(vars(ctx).values()):
        _zero(value)


class TfmCtx(SimpleNamespace):
    """Per-tfm driver context (the kernel's ``crypto_tfm_ctx``)."""


class CryptoTfm:
    """Base of every transform."""

    __slots__ = ("alg", "crt_flags", "ctx", "_live", "__weakref__")

    def __init__(self, alg: registry.CryptoAlg) -> None:
        self.alg = alg
        self.crt_flags = 0
        self.ctx = TfmCtx()
        self._live = True

    # -- names and sizes ----------------------------------------------------
    @property
    def driver_name(self) -> str:
        return self.alg.cra_driver_name

    @property
    def name(self) -> str:
        return self.alg.cra_name

    @property
    def blocksize(self) -> int:
        return self.alg.cra_blocksize

    # -- flags ------------------------------------------------------------
    def get_flags(self) -> int:
        return self.crt_flags

    def set_flags(self, flags: int) -> None:
        self.crt_flags |= flags

    def clear_flags(self, flags: int) -> None:
        self.crt_flags &= ~flags

    # -- key hygiene --------------------------------------------------------
    def wipe_key(self) -> None:
        """Forget the key: zero the driver context and require a new setkey.

        The frontends call it when a setkey fails; free() wipes the context too.
        """
        if self._keyed():
            self.crt_flags |= A.CRYPTO_TFM_NEED_KEY
        wipe_ctx(self.ctx)

    def _keyed(self) -> bool:
        """Whether the algorithm needs a key before use (NEED_KEY applies)."""
        return bool(getattr(self.alg, "max_keysize", 0))

    def _install_direct(self) -> None:
        """Build the direct paths from the keyed context (the types that have them override it)."""

    def _setkey_failed(self) -> None:
        """What a refused setkey leaves behind, as the followed kernel did.

        From 5.1 (and in the composite registry) the frontend re-arms NEED_KEY:
        here the context is wiped too, so no old key stays usable.  v5.0's
        frontends returned the error and touched nothing: a tfm that had a
        good key keeps it (a refused length reaches no driver, so the context
        is intact; a driver that refused keeps whatever it left there), and
        its direct paths are rebuilt from that context."""
        if rule(FAILED_REKEY_RULE, "rearmed") == "rearmed":
            self.wipe_key()
        elif not self.crt_flags & A.CRYPTO_TFM_NEED_KEY:
            self._install_direct()

    def _check_live(self) -> None:
        if not self._live:
            raise CryptoError(EINVAL, f"{self.alg.cra_driver_name}: the transform was freed")

    def _check_key(self) -> None:
        """ENOKEY until a setkey succeeds (EINVAL once freed: free() sets NEED_KEY too)."""
        if self.crt_flags & A.CRYPTO_TFM_NEED_KEY:
            self._check_live()
            raise CryptoError(ENOKEY, f"{self.alg.cra_driver_name}: no key set (setkey first)")

    # -- lifetime ---------------------------------------------------------
    def _exit(self) -> None:
        """Type-specific teardown (driver exit hooks); overridden."""
        hook = self.alg.cra_exit
        if hook is not None:
            hook(self)

    def free(self) -> None:
        """crypto_free_*: run the driver's exit hook and drop the reference."""
        if not self._live:
            return
        self._live = False
        self.crt_flags |= A.CRYPTO_TFM_NEED_KEY     # every use now fails (the frontends say "freed")
        try:
            self._exit()
        finally:
            try:
                wipe_ctx(self.ctx)
            finally:
                registry.crypto_mod_put(self.alg)

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.free()

    def __del__(self) -> None:
        try:
            if self._live:
                self.free()
        except Exception:
            pass

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.alg.cra_name} ({self.alg.cra_driver_name})>"


class DirectTfm(CryptoTfm):
    """Base of the types whose algorithms may offer one-call direct paths (skcipher, cipher, aead).

    After each successful setkey (and, for an AEAD, setauthsize), an
    algorithm's optional ``direct(tfm, encrypt)`` gives the direct paths
    ``_direct_enc``/``_direct_dec`` that the type's encrypt/decrypt try first; a failed
    setkey, wipe_key and free drop them before the key goes.
    """

    __slots__ = ("_direct_enc", "_direct_dec")

    def __init__(self, alg: registry.CryptoAlg) -> None:
        super().__init__(alg)
        self._direct_enc = self._direct_dec = None

    def _install_direct(self) -> None:
        make = self.alg.direct
        if make is not None:
            self._direct_enc = make(self, True)
            self._direct_dec = make(self, False)

    def wipe_key(self) -> None:
        self._direct_enc = self._direct_dec = None
        super().wipe_key()

    def free(self) -> None:
        self._direct_enc = self._direct_dec = None
        super().free()


class BoundedKeyTfm(DirectTfm):
    """Base of the types whose algorithms bound the key length (skcipher, cipher)."""

    __slots__ = ()

    @property
    def min_keysize(self) -> int:
        return self.alg.min_keysize

    @property
    def max_keysize(self) -> int:
        return self.alg.max_keysize

    def setkey(self, key) -> None:
        """Set the key: its length is checked against min/max_keysize (EINVAL
        naming the expected length) before the driver sees it; a failure
        wipes the context and re-arms NEED_KEY (v5.0: see :meth:`_setkey_failed`)."""
        alg = self.alg
        self._check_live()
        self._direct_enc = self._direct_dec = None
        kv = as_byte_view(key, f"{alg.cra_driver_name}: key")
        n = len(kv)
        if n < alg.min_keysize or n > alg.max_keysize:
            self.crt_flags |= A.CRYPTO_TFM_RES_BAD_KEY_LEN
            self._setkey_failed()           # from 5.1: no old key stays usable
            want = (str(alg.min_keysize) if alg.min_keysize == alg.max_keysize
                    else f"{alg.min_keysize}..{alg.max_keysize}")
            raise CryptoError(EINVAL, f"{alg.cra_driver_name}: key is {n} bytes, expected {want}")
        try:
            call_setkey(alg.setkey, self, kv)
        except BaseException:
            self._setkey_failed()
            raise
        self.crt_flags &= ~(A.CRYPTO_TFM_NEED_KEY | A.CRYPTO_TFM_RES_BAD_KEY_LEN)
        self._install_direct()


#: (class, method name) -> the Python function direct_methods replaced on that class
PYTHON_METHODS = {}


def _text_signature(func) -> str:
    """``name($self, a, b=None)``: the first line of a C method's docstring,
    from which inspect.signature reads its parameters."""
    sig = inspect.signature(func)
    params = [p.replace(annotation=inspect.Parameter.empty) for p in sig.parameters.values()]
    text = str(sig.replace(parameters=params, return_annotation=inspect.Signature.empty))
    return func.__name__ + text.replace("(self", "($self", 1)


def direct_methods(cls, **slots: str) -> None:
    """Have the one-call methods of ``cls`` named by ``slots`` (method name:
    its direct-path slot, e.g. ``encrypt="_direct_enc"``) entered in C where
    crypto_api._direct_method is built.

    Each such method must be the pattern ``direct = self.<slot>; if direct is
    not None: res = direct(<every parameter, in order>); if res is not None:
    return res`` followed by the full path.  C then runs that pattern without
    a Python frame and calls the function for everything else (see
    crypto_api/direct_method.c).  The class attribute becomes a C method
    descriptor with the function's signature and docstring; the function
    itself is kept in PYTHON_METHODS.
    """
    if _c_method is None:
        return
    for name, slot in slots.items():
        func = cls.__dict__[name]
        member = getattr(cls, slot)          # on the class: the slot's member descriptor
        doc = f"{_text_signature(func)}\n--\n\n{inspect.getdoc(func) or ''}"
        descr = _c_method(cls, func, member, doc)
        if descr is not None:
            PYTHON_METHODS[cls, name] = func
            setattr(cls, name, descr)


class Frontend:
    """How a type allocates: the type nibble and masks of ``crypto_find_alg``."""

    def __init__(self, tfm_class, type_: int, maskset: int, what: str) -> None:
        self.tfm_class = tfm_class
        self.TYPE = type_
        self.MASKSET = maskset
        self.WHAT = what

    def create_tfm(self, alg: registry.CryptoAlg) -> CryptoTfm:
        tfm = self.tfm_class(alg)
        try:
            tfm._init()
        except BaseException:
            tfm._live = False
            raise
        return tfm


def crypto_alloc_tfm(name: str, frontend: Frontend, type: int = 0, mask: int = 0) -> CryptoTfm:
    if not isinstance(type, int) or not isinstance(mask, int) or isinstance(type, bool) \
            or isinstance(mask, bool):
        raise TypeError("type and mask must be int")
    if not (0 <= type <= 0xFFFFFFFF and 0 <= mask <= 0xFFFFFFFF):
        raise CryptoError(EINVAL, f"{name!r}: type {type:#x} / mask {mask:#x} outside the 32-bit flag range")
    type = (type & ~A.CRYPTO_ALG_TYPE_MASK) | frontend.TYPE
    mask = (mask & ~A.CRYPTO_ALG_TYPE_MASK) | frontend.MASKSET
    last = None
    for _ in range(16):
        alg = registry.crypto_alg_mod_lookup(name, type, mask, frontend.WHAT)
        try:
            return frontend.create_tfm(alg)
        except CryptoError as e:
            registry.crypto_mod_put(alg)
            if e.errno != EAGAIN:
                raise
            last = e
        except BaseException:
            registry.crypto_mod_put(alg)
            raise
    raise last
