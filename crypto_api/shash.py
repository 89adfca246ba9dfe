"""The shash frontend (crypto/shash.c, include/crypto/hash.h).

``crypto_alloc_shash`` gives a :class:`CryptoShash`; ``tfm.desc()`` gives a
:class:`ShashDesc` holding one hash computation.  A descriptor's raw state is
``desc.state`` (``descsize`` bytes, zeroed), which C drivers map onto their
structs; the default export/import copy it, as the kernel's defaults copy the
descriptor context.  finup defaults to update+final and digest to init+finup.
"""

from __future__ import annotations

from types import SimpleNamespace

from . import alg as A
from .errors import EINVAL, ENOSYS, CryptoError
from .scatterlist import as_byte_view
from .crypto_type import crypto_register_type
from .template import CryptoSpawn, crypto_grab_spawn
from .tfm import CryptoTfm, Frontend, call_setkey, crypto_alloc_tfm, direct_methods


class CryptoShash(CryptoTfm):
    """A synchronous hash transform (used by one thread at a time, as in the
    kernel; each thread allocates its own, or each computation its own desc)."""

    __slots__ = ("_direct_digest",)

    @property
    def digestsize(self) -> int:
        return self.alg.digestsize

    @property
    def descsize(self) -> int:
        return self.alg.descsize

    @property
    def statesize(self) -> int:
        return self.alg.statesize

    def _init(self) -> None:
        alg = self.alg
        self._direct_digest = None
        if self._keyed():
            self.crt_flags |= A.CRYPTO_TFM_NEED_KEY
        if alg.cra_init is not None:
            alg.cra_init(self)
        if alg.init_tfm is not None:
            alg.init_tfm(self)
        if alg.setkey is None:
            self._install_direct()

    def _install_direct(self) -> None:
        make = self.alg.direct
        if make is not None:
            self._direct_digest = make(self)

    def wipe_key(self) -> None:
        self._direct_digest = None
        super().wipe_key()

    def free(self) -> None:
        self._direct_digest = None
        super().free()

    def _exit(self) -> None:
        alg = self.alg
        if alg.exit_tfm is not None:
            alg.exit_tfm(self)
        if alg.cra_exit is not None:
            alg.cra_exit(self)

    def _keyed(self) -> bool:
        return self.alg.setkey is not None and not self.alg.cra_flags & A.CRYPTO_ALG_OPTIONAL_KEY

    def setkey(self, key: A.BytesLike) -> None:
        alg = self.alg
        self._check_live()
        if alg.setkey is None:
            raise CryptoError(ENOSYS, f"{alg.cra_driver_name}: this hash takes no key")
        kv = as_byte_view(key, f"{alg.cra_driver_name}: key")
        self._direct_digest = None
        try:
            call_setkey(alg.setkey, self, kv)
        except BaseException:
            self._setkey_failed()           # from 5.1: no old key stays usable
            raise
        self.crt_flags &= ~A.CRYPTO_TFM_NEED_KEY
        self._install_direct()

    def desc(self) -> "ShashDesc":
        """A new descriptor (call ``init()`` before ``update()``)."""
        return ShashDesc(self)

    def digest(self, data: A.BytesLike) -> bytes:
        """init + update + final in one call."""
        direct = self._direct_digest
        if direct is not None:
            res = direct(data)
            if res is not None:
                return res
        self._check_key()
        d = ShashDesc(self)
        return d._digest(as_byte_view(data, f"{self.alg.cra_driver_name}: data"))


direct_methods(CryptoShash, digest="_direct_digest")


class ShashDesc:
    """``struct shash_desc``: one hash computation on a tfm.

    ``state`` keeps its size for the desc's lifetime (a held export makes a
    resize raise BufferError), since C drivers map their structs onto it.
    final(), finup() and digest() consume the state: until init() or
    import_() sets it up again, update/finup/final are refused (EINVAL)
    instead of hashing on from a spent state.
    """

    __slots__ = ("tfm", "state", "ctx", "flags", "_pin", "_spent")

    def __init__(self, tfm: CryptoShash) -> None:
        self.tfm = tfm
        self.state = bytearray(tfm.alg.descsize)
        self._pin = memoryview(self.state)
        self.ctx = SimpleNamespace()
        self.flags = 0
        self._spent = False

    def _data(self, data) -> memoryview:
        return as_byte_view(data, f"{self.tfm.alg.cra_driver_name}: data")

    def _check_usable(self, what: str) -> None:
        if self._spent:
            raise CryptoError(EINVAL, f"{self.tfm.alg.cra_driver_name}: {what} after the digest was "
                                      "produced; the desc's state is consumed: re-initialise it "
                                      "with init() (or import_() a saved state)")

    def init(self) -> "ShashDesc":
        self.tfm._check_key()
        self.tfm.alg.init(self)
        self._spent = False
        return self

    def update(self, data: A.BytesLike) -> "ShashDesc":
        if self._spent:
            self._check_usable("update()")
        self.tfm.alg.update(self, self._data(data))
        return self

    def final(self) -> bytes:
        self._check_usable("final()")
        res = bytes(self.tfm.alg.final(self))
        self._spent = True
        return res

    def finup(self, data: A.BytesLike) -> bytes:
        self._check_usable("finup()")
        return self._finup(self._data(data))

    def _finup(self, mv: memoryview) -> bytes:
        alg = self.tfm.alg
        if alg.finup is not None:
            res = bytes(alg.finup(self, mv))
        else:
            alg.update(self, mv)
            res = bytes(alg.final(self))
        self._spent = True
        return res

    def _digest(self, mv: memoryview) -> bytes:
        alg = self.tfm.alg
        if alg.digest is not None:
            res = bytes(alg.digest(self, mv))
            self._spent = True
            return res
        alg.init(self)
        self._spent = False
        return self._finup(mv)

    def digest(self, data: A.BytesLike) -> bytes:
        self.tfm._check_key()
        return self._digest(self._data(data))

    def export(self) -> bytes:
        alg = self.tfm.alg
        if alg.export is not None:
            return bytes(alg.export(self))
        return bytes(self.state)

    def import_(self, state: A.BytesLike) -> "ShashDesc":
        self.tfm._check_key()
        alg = self.tfm.alg
        sv = as_byte_view(state, f"{alg.cra_driver_name}: state")
        if len(sv) != alg.statesize:
            raise CryptoError(EINVAL, f"{alg.cra_driver_name}: state is {len(sv)} bytes, expected {alg.statesize}")
        if alg.import_ is not None:
            alg.import_(self, bytes(sv))
        else:
            self.state[:] = sv
        self._spent = False
        return self

    import_state = import_


SHASH_FRONTEND = Frontend(CryptoShash, A.CRYPTO_ALG_TYPE_SHASH, A.CRYPTO_ALG_TYPE_MASK, "shash")


def crypto_alloc_shash(name: str, type: int = 0, mask: int = 0) -> CryptoShash:
    return crypto_alloc_tfm(name, SHASH_FRONTEND, type, mask)


def crypto_free_shash(tfm: CryptoShash) -> None:
    tfm.free()


def crypto_shash_ctx(tfm: CryptoShash) -> A.Ctx:
    return tfm.ctx


def shash_desc_ctx(desc: ShashDesc) -> bytearray:
    return desc.state


def crypto_shash_setkey(tfm: CryptoShash, key: A.BytesLike) -> int:
    tfm.setkey(key)
    return 0


def crypto_shash_digest(desc: ShashDesc, data: A.BytesLike) -> bytes:
    return desc.digest(data)


def crypto_shash_init(desc: ShashDesc) -> int:
    desc.init()
    return 0


def crypto_shash_update(desc: ShashDesc, data: A.BytesLike) -> int:
    desc.update(data)
    return 0


def crypto_shash_final(desc: ShashDesc) -> bytes:
    return desc.final()


def crypto_shash_finup(desc: ShashDesc, data: A.BytesLike) -> bytes:
    return desc.finup(data)


def crypto_shash_export(desc: ShashDesc) -> bytes:
    return desc.export()


def crypto_shash_import(desc: ShashDesc, state: A.BytesLike) -> int:
    desc.import_(state)
    return 0


def show(alg) -> list:
    return [("type", "shash"), ("blocksize", alg.cra_blocksize), ("digestsize", alg.digestsize)]


def crypto_grab_shash(name: str, type: int = 0, mask: int = 0) -> CryptoSpawn:
    """Grab ``name`` as an inner shash of a template instance (crypto_grab_shash)."""
    return crypto_grab_spawn(SHASH_FRONTEND, name, type, mask)


crypto_register_type("shash", SHASH_FRONTEND, show)
