"""The single-block cipher frontend (crypto/cipher.c, include/linux/crypto.h).

``crypto_alloc_cipher`` gives a :class:`CryptoCipher` that transforms one
``cra_blocksize`` block at a time.  Key lengths are checked against the
algorithm before its setkey runs; using the cipher before a successful
setkey is refused with ENOKEY.
"""

from __future__ import annotations

from . import alg as A
from .errors import EINVAL, CryptoError
from .scatterlist import as_byte_view
from .crypto_type import crypto_register_type
from .template import CryptoSpawn, crypto_grab_spawn
from .tfm import BoundedKeyTfm, Frontend, crypto_alloc_tfm, direct_methods


class CryptoCipher(BoundedKeyTfm):
    """A single-block cipher transform (used by one thread at a time, as in
    the kernel: allocate one per thread)."""

    __slots__ = ()

    def _init(self) -> None:
        if self.alg.max_keysize:
            self.crt_flags |= A.CRYPTO_TFM_NEED_KEY
        if self.alg.cra_init is not None:
            self.alg.cra_init(self)

    def _setkey_failed(self) -> None:
        """The kernel's single-block cipher has no NEED_KEY in any version; this
        project's ENOKEY (before a key, after a refused one) is the same in every
        version, so a refused setkey always wipes (core_rules' NOT_MODELLED)."""
        self.wipe_key()

    def _one(self, fn, dst, src) -> None:
        alg = self.alg
        if self.crt_flags & A.CRYPTO_TFM_NEED_KEY:
            self._check_key()               # raises: ENOKEY, or EINVAL once freed
        bs = alg.cra_blocksize
        if len(src) != bs or len(dst) != bs:
            raise CryptoError(EINVAL, f"{alg.cra_driver_name}: block is {len(src)} bytes, expected {bs}")
        fn(self, dst, src)

    def _one_new(self, fn, block) -> bytes:
        src = as_byte_view(block, f"{self.alg.cra_driver_name}: block")
        dst = bytearray(len(src))
        self._one(fn, dst, src)
        return bytes(dst)

    def encrypt_one(self, block: A.BytesLike) -> bytes:
        """Encrypt exactly one block; returns new bytes."""
        direct = self._direct_enc
        if direct is not None:
            res = direct(block)
            if res is not None:
                return res
        return self._one_new(self.alg.encrypt, block)

    def decrypt_one(self, block: A.BytesLike) -> bytes:
        direct = self._direct_dec
        if direct is not None:
            res = direct(block)
            if res is not None:
                return res
        return self._one_new(self.alg.decrypt, block)


direct_methods(CryptoCipher, encrypt_one="_direct_enc", decrypt_one="_direct_dec")


CIPHER_FRONTEND = Frontend(CryptoCipher, A.CRYPTO_ALG_TYPE_CIPHER, A.CRYPTO_ALG_TYPE_MASK, "cipher")


def crypto_alloc_cipher(name: str, type: int = 0, mask: int = 0) -> CryptoCipher:
    return crypto_alloc_tfm(name, CIPHER_FRONTEND, type, mask)


def crypto_free_cipher(tfm: CryptoCipher) -> None:
    tfm.free()


def crypto_cipher_setkey(tfm: CryptoCipher, key: A.BytesLike) -> int:
    tfm.setkey(key)
    return 0


def _writable(tfm: CryptoCipher, dst) -> memoryview:
    dv = as_byte_view(dst, f"{tfm.alg.cra_driver_name}: dst")
    if dv.readonly:
        raise CryptoError(EINVAL, f"{tfm.alg.cra_driver_name}: dst is a read-only buffer")
    return dv


def crypto_cipher_encrypt_one(tfm: CryptoCipher, dst: A.WritableBuffer, src: A.BytesLike) -> None:
    """Encrypt one block from ``src`` into the writable buffer ``dst``."""
    tfm._one(tfm.alg.encrypt, _writable(tfm, dst), as_byte_view(src, f"{tfm.alg.cra_driver_name}: src"))


def crypto_cipher_decrypt_one(tfm: CryptoCipher, dst: A.WritableBuffer, src: A.BytesLike) -> None:
    tfm._one(tfm.alg.decrypt, _writable(tfm, dst), as_byte_view(src, f"{tfm.alg.cra_driver_name}: src"))


def crypto_cipher_ctx(tfm: CryptoCipher) -> A.Ctx:
    return tfm.ctx


def show(alg) -> list:
    return [("type", "cipher"), ("blocksize", alg.cra_blocksize),
            ("min keysize", alg.min_keysize), ("max keysize", alg.max_keysize)]


def crypto_grab_cipher(name: str, type: int = 0, mask: int = 0) -> CryptoSpawn:
    """Grab ``name`` as an inner cipher of a template instance (crypto_grab_cipher)."""
    return crypto_grab_spawn(CIPHER_FRONTEND, name, type, mask)


crypto_register_type("cipher", CIPHER_FRONTEND, show)
