"""Algorithm descriptors and flag constants (``struct crypto_alg`` and friends).

Mirrors include/linux/crypto.h, include/crypto/skcipher.h and
include/crypto/hash.h, include/crypto/aead.h of Linux v5.0: the numeric values of the type nibble and
the flag bits, and the fields a driver fills in.  Descriptors are frozen attrs
classes; the registry keeps the mutable part (flags as tested, refcount,
owning module) in its own record (:class:`crypto_api.registry.CryptoAlg`).
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Union

import attrs

# Type nibble (cra_flags & CRYPTO_ALG_TYPE_MASK), v5.0 values.
CRYPTO_ALG_TYPE_MASK = 0x0000000F
CRYPTO_ALG_TYPE_CIPHER = 0x00000001
CRYPTO_ALG_TYPE_COMPRESS = 0x00000002
CRYPTO_ALG_TYPE_AEAD = 0x00000003
CRYPTO_ALG_TYPE_BLKCIPHER = 0x00000004
CRYPTO_ALG_TYPE_ABLKCIPHER = 0x00000005
CRYPTO_ALG_TYPE_SKCIPHER = 0x00000005
CRYPTO_ALG_TYPE_KPP = 0x00000008
CRYPTO_ALG_TYPE_RNG = 0x0000000C
CRYPTO_ALG_TYPE_AKCIPHER = 0x0000000D
CRYPTO_ALG_TYPE_HASH = 0x0000000E
CRYPTO_ALG_TYPE_SHASH = 0x0000000E
CRYPTO_ALG_TYPE_AHASH = 0x0000000F

CRYPTO_ALG_TYPE_HASH_MASK = 0x0000000E
CRYPTO_ALG_TYPE_AHASH_MASK = 0x0000000E
CRYPTO_ALG_TYPE_BLKCIPHER_MASK = 0x0000000C

# Flag bits.
CRYPTO_ALG_LARVAL = 0x00000010
CRYPTO_ALG_DEAD = 0x00000020
CRYPTO_ALG_DYING = 0x00000040
CRYPTO_ALG_ASYNC = 0x00000080
CRYPTO_ALG_NEED_FALLBACK = 0x00000100
CRYPTO_ALG_TESTED = 0x00000400
CRYPTO_ALG_INSTANCE = 0x00000800
CRYPTO_ALG_KERN_DRIVER_ONLY = 0x00001000
CRYPTO_ALG_INTERNAL = 0x00002000
CRYPTO_ALG_OPTIONAL_KEY = 0x00004000
CRYPTO_ALG_NOLOAD = 0x00008000

# tfm flags (crt_flags).
CRYPTO_TFM_NEED_KEY = 0x00000001
CRYPTO_TFM_REQ_MASK = 0x000FFF00
CRYPTO_TFM_REQ_FORBID_WEAK_KEYS = 0x00000100
CRYPTO_TFM_REQ_MAY_SLEEP = 0x00000200
CRYPTO_TFM_REQ_MAY_BACKLOG = 0x00000400
CRYPTO_TFM_RES_BAD_KEY_LEN = 0x00200000

CRYPTO_MAX_ALG_NAME = 128
MAX_ALGAPI_BLOCKSIZE = 160
MAX_ALGAPI_ALIGNMASK = 127
MAX_CIPHER_BLOCKSIZE = 16
MAX_CIPHER_ALIGNMASK = 15
PAGE_SIZE = 4096
HASH_MAX_DIGESTSIZE = 64
HASH_MAX_DESCSIZE = 360
HASH_MAX_STATESIZE = 512

Callback = Optional[Callable[..., Any]]
#: What the public API takes as data, keys and IVs: any contiguous bytes-like object.
BytesLike = Union[bytes, bytearray, memoryview]
#: What it writes into: a writable bytes-like object.
WritableBuffer = Union[bytearray, memoryview]
#: A driver's per-tfm context (``crypto_*_ctx``): whatever the driver keeps there.
Ctx = Any


@attrs.frozen(kw_only=True, eq=False)
class CryptoAlgBase:
    """Fields of ``struct crypto_alg`` shared by every descriptor.

    ``cra_init(tfm)`` / ``cra_exit(tfm)`` run when a tfm is created / freed;
    ``cra_module`` names the owning module (filled in from the module being
    loaded when left as None; ``kernel`` when built in).  No kernel
    counterpart: ``c_entries``, the C entry points the driver offers
    templates (a tuple of crypto_api.cinterface ``Offer``/``Delegate``
    declarations), and ``simd_rule``, when its SIMD code runs (a
    crypto_api.simd_rule.SimdRule; None: at every length).
    """

    TYPE = 0
    KIND = "unknown"
    cra_name: str
    cra_driver_name: str = ""
    cra_priority: int = 0
    cra_flags: int = 0
    cra_blocksize: int = 1
    cra_ctxsize: int = 0
    cra_alignmask: int = 0
    cra_module: Optional[str] = None
    cra_init: Callback = None
    cra_exit: Callback = None
    cra_destroy: Callback = None
    c_entries: tuple = ()
    simd_rule: Any = None


@attrs.frozen(kw_only=True, eq=False)
class CipherAlg(CryptoAlgBase):
    """A single-block cipher (``struct cipher_alg``, type CIPHER).

    ``setkey(tfm, key)``; ``encrypt(tfm, dst, src)`` / ``decrypt(tfm, dst, src)``
    transform one ``cra_blocksize`` block from the buffer ``src`` into the
    writable buffer ``dst``.

    Optional ``direct(tfm, encrypt: bool) -> fn or None``, as for skciphers:
    ``fn(block)`` returns the transformed block as new bytes, or None to
    decline (anything but a bytes block of the right size, a traced SIMD
    use), and ``encrypt_one``/``decrypt_one`` then take the full path.
    """

    TYPE = CRYPTO_ALG_TYPE_CIPHER
    KIND = "cipher"
    min_keysize: int = 0
    max_keysize: int = 0
    setkey: Callback = None
    encrypt: Callback = None
    decrypt: Callback = None
    direct: Callback = None


@attrs.frozen(kw_only=True, eq=False)
class SkcipherAlg(CryptoAlgBase):
    """A symmetric key cipher over scatterlists (``struct skcipher_alg``).

    ``setkey(tfm, key)``, ``encrypt(req)``, ``decrypt(req)``; optional per-tfm
    ``init(tfm)`` / ``exit(tfm)``.  ``chunksize`` defaults to the block size
    and ``walksize`` to ``chunksize`` when the algorithm is registered.

    Optional ``encrypt_contiguous`` / ``decrypt_contiguous(tfm, src, dst, nbytes, iv)
    -> bool``: a contiguous entry point in the manner of the 6.7+ kernel's
    lskcipher, used by ``tfm.encrypt``/``tfm.decrypt`` (one contiguous source
    and destination, both page-aligned); it returns False to decline, and the
    scatterlist request path then runs.  Its results (and FPU trace) must be
    those of the request path.

    Optional ``direct(tfm, encrypt: bool) -> fn or None``: called after
    every successful setkey, it may return ``fn(data, iv, out)`` for
    ``tfm.encrypt``/``tfm.decrypt`` to try first — typically one C call with
    pointers cached at setkey.  ``fn`` returns the result (new bytes, or
    ``out`` filled) or None to decline, and the contiguous/request paths then run
    with all their checks.  It must decline whatever it does not check itself
    (unusual buffer types, a wrong IV length, an FPU trace recording: see
    crypto_api.fpu.simd_choice) and give exactly the bytes of the request
    path.
    """

    TYPE = CRYPTO_ALG_TYPE_SKCIPHER
    KIND = "skcipher"
    min_keysize: int = 0
    max_keysize: int = 0
    ivsize: int = 0
    chunksize: int = 0
    walksize: int = 0
    setkey: Callback = None
    encrypt: Callback = None
    decrypt: Callback = None
    init: Callback = None
    exit: Callback = None
    encrypt_contiguous: Callback = None
    decrypt_contiguous: Callback = None
    direct: Callback = None


@attrs.frozen(kw_only=True, eq=False)
class ShashAlg(CryptoAlgBase):
    """A synchronous hash (``struct shash_alg``).

    ``init(desc)``, ``update(desc, data)``, ``final(desc) -> bytes``; optional
    ``finup(desc, data)``, ``digest(desc, data)``, ``export(desc) -> bytes``,
    ``import_(desc, state)`` and ``setkey(tfm, key)``.  A descriptor's raw
    state is ``desc.state`` (``descsize`` bytes); the default export/import
    copy it, as the kernel's defaults copy the descriptor context.

    Optional ``direct(tfm) -> fn or None``: called after every successful
    setkey (at tfm creation for a hash without a key), it may return
    ``fn(data)`` for ``tfm.digest`` to try first, one C call with pointers
    cached; ``fn`` returns the digest or None to decline (it must decline
    unusual buffer types, failures and traced SIMD use, leaving them to the
    full path).
    """

    TYPE = CRYPTO_ALG_TYPE_SHASH
    KIND = "shash"
    digestsize: int = 0
    descsize: int = 0
    statesize: int = 0
    init: Callback = None
    update: Callback = None
    final: Callback = None
    finup: Callback = None
    digest: Callback = None
    export: Callback = None
    import_: Callback = None
    setkey: Callback = None
    init_tfm: Callback = None
    exit_tfm: Callback = None
    direct: Callback = None


@attrs.frozen(kw_only=True, eq=False)
class AeadAlg(CryptoAlgBase):
    """An authenticated cipher with associated data (``struct aead_alg``).

    ``setkey(tfm, key)`` (the key format is the algorithm's: no key sizes
    here), optional ``setauthsize(tfm, authsize)`` adding the algorithm's
    own rules to the frontend's ``authsize <= maxauthsize``, ``encrypt(req)``
    and ``decrypt(req)`` over the kernel layout (src/dst = assoc ‖ text
    (‖ tag)); optional per-tfm ``init(tfm)`` / ``exit(tfm)``.  A request
    returns None when done, or ``-EINPROGRESS`` / ``-EBUSY`` when it will
    complete later through the request's callback; a synchronous failure
    raises CryptoError (EBADMSG for a bad tag).  ``chunksize`` defaults to the
    block size at registration.

    Optional ``direct(tfm, encrypt: bool) -> fn or None`` (no kernel
    counterpart), as for skciphers: called after every successful setkey and
    setauthsize, it may return ``fn(data, iv, assoc, out)`` for
    ``tfm.encrypt``/``tfm.decrypt`` to try first.  ``fn`` returns the result
    (new bytes, or ``out`` filled) or None to decline (the request path then
    runs with all its checks); a decrypting ``fn`` raises EBADMSG on a bad tag
    and must not have written anything the caller can see by then.
    """

    TYPE = CRYPTO_ALG_TYPE_AEAD
    KIND = "aead"
    ivsize: int = 0
    maxauthsize: int = 0
    chunksize: int = 0
    setkey: Callback = None
    setauthsize: Callback = None
    encrypt: Callback = None
    decrypt: Callback = None
    init: Callback = None
    exit: Callback = None
    direct: Callback = None


ALG_KINDS = (CipherAlg, SkcipherAlg, ShashAlg, AeadAlg)


#: An algorithm descriptor of any type (what crypto_register_alg takes).
AlgDescriptor = Union[CipherAlg, SkcipherAlg, ShashAlg, AeadAlg]


def type_name(flags: int) -> str:
    """The /proc/crypto ``type`` word for a type nibble."""
    return {
        CRYPTO_ALG_TYPE_CIPHER: "cipher",
        CRYPTO_ALG_TYPE_SKCIPHER: "skcipher",
        CRYPTO_ALG_TYPE_SHASH: "shash",
        CRYPTO_ALG_TYPE_AEAD: "aead",
    }.get(flags & CRYPTO_ALG_TYPE_MASK, "unknown")
