"""The typed interface between a template and its children's C code.

No kernel counterpart: in the kernel a template calls its children through
the crypto API only; here a template whose children all offer C entry points
may run a whole request over one contiguous buffer in a single C call (for
Adiantum: algs/adiantum_core.c; for the mode templates: the inner cipher's
block function in a C loop; for dm-crypt's batches: algs/sector_batch.c).
The composed path through the Python API stays the reference and the
fallback: its results are the same, and a child that offers nothing (a
plug-in, an emulated core) simply gets it.

Vocabulary (one name per idea; docs/drivers.md, "The call tiers", says
why each tier is there):

* the **direct path**: one call from ``tfm.encrypt``/``tfm.decrypt``,
  ``tfm.digest`` or ``encrypt_one`` straight into the driver's C routine.
  The descriptor's ``direct`` hook builds it at setkey through the one
  constructor of its kind in crypto_api/direct.py (``skcipher_direct``,
  ``aead_direct``, ``digest_direct``); the CPython function that runs it is
  made by crypto_api/direct_call.c (with aead_call.h, digest_call.h), the
  one place of its checks and of its SIMD-or-generic choice.
* the **direct methods**: ``tfm.encrypt`` and its siblings as C method
  descriptors (crypto_api/direct_method.c, installed by
  ``crypto_api.tfm.direct_methods``) that call the tfm's direct path
  without a Python frame, and the Python method for everything else.
* the **contiguous entry**: a skcipher driver's optional
  ``encrypt_contiguous``/``decrypt_contiguous``, its glue code over one
  contiguous source and destination; ``tfm.encrypt`` runs it where the
  direct path declines or is absent.
* the **request path**: the kernel-shaped request over scatterlists (the
  walk), the reference that every other tier must match byte for byte.
* the **C entries** (this module): the pointers a driver offers
  *templates*, so that a template's own direct path can call the child's C
  code.

A driver declares what it offers as data on its descriptor: ``c_entries``,
a tuple of :class:`Offer` (one per :class:`Kind`: how to get the record
from a keyed tfm) or a :class:`Delegate` (a wrapper whose child's offers
stand for its own, e.g. the SIMD wrapper of crypto_api/simd.py).  A template
asks only through :func:`entries`, which gives a frozen record of the kind's
type (:class:`StreamEntries`, :class:`BlockEntries`, ...) or None: never by
probing attributes or reading another driver's context.  A descriptor
derived from another with its callbacks replaced (arch/common/glue.py
``request_path_variant``) declares none, so it never offers the code it
replaced.

``simd`` says whether the caller may use SIMD (crypto_simd_usable()).  The
pointers are cffi cdata (``ffi.addressof(lib, name)``, the context cdata):
a function pointer type is the same in every extension, and the struct
types (``poly1305_core_ops``, ``struct nhpoly1305_key``) are declared once,
in ``crypto_api.algs._poly1305``, and included by the others
(``ffi.include``; the ``includes`` of algs/cores.py and arch/x86/cores.py),
so a pointer from one extension is passed to another's functions as it is,
never as an integer.  A record
keeps the cdata it names alive; it is good until the child's next setkey.
"""

from __future__ import annotations

import enum
from typing import Any, Callable, Optional, Tuple, Union

import attrs

from .alg import CRYPTO_TFM_NEED_KEY


@attrs.frozen
class StreamEntries:
    """A stream skcipher (XChaCha): ``crypt`` and ``hchacha`` with the
    signatures of chacha_crypt_generic / hchacha_block_generic, the 32-byte
    ``key`` and ``nrounds``; ``lanes``: ``(hchacha_lanes, stream_lanes)``,
    eight streams at once, or None."""
    crypt: Any
    hchacha: Any
    key: Any
    nrounds: int
    lanes: Optional[Tuple[Any, Any]] = None


@attrs.frozen
class BlockEntries:
    """A block cipher: ``encrypt``/``decrypt(const void *key, uint8_t *out,
    const uint8_t *in)`` of one block, and their ``key`` (the key schedule)."""
    encrypt: Any
    decrypt: Any
    key: Any


@attrs.frozen
class Nhpoly1305Entries:
    """An nhpoly1305 shash: NH for long (``nh_bulk``) and short (``nh_small``)
    inputs, the Poly1305 core (``poly_ops``) and the ``struct nhpoly1305_key``."""
    nh_bulk: Any
    nh_small: Any
    poly: Any
    key: Any


@attrs.frozen
class XtsEntries:
    """An XTS skcipher: ``crypt(key, tweak_key, out, in, n, iv, decrypt) -> int``
    (0 or -errno) over whole messages of at least one block."""
    crypt: Any
    key: Any
    tweak_key: Any


@attrs.frozen
class CbcEntries:
    """A CBC skcipher: ``encrypt``/``decrypt(key, out, in, nblocks, iv)``, the
    IV updated in place, and their ``key`` (the key schedule)."""
    encrypt: Any
    decrypt: Any
    key: Any


@attrs.frozen
class WideEntries:
    """A wide-block skcipher (Adiantum): ``crypt(handle, dst, src, n, tweak,
    tweaklen, encrypt) -> int`` and ``crypt_many`` over many messages, with
    their ``handle`` (the keys and inner routines)."""
    crypt: Any
    crypt_many: Any
    handle: Any


@attrs.frozen
class EssivCbcEntries:
    """ESSIV over CBC: the CBC child's entries (``cbc_driver`` names the
    driver that offers them) and the ESSIV cipher's block entries (which
    encrypt each IV)."""
    cbc: CbcEntries
    cbc_driver: str
    iv: BlockEntries


@attrs.frozen
class XctrEntries:
    """An XCTR skcipher (HCTR2's counter mode): ``crypt(key, out, in,
    nbytes, iv)`` over a whole request from block number 1, any length, the
    16-byte IV left unchanged, and its ``key``."""
    crypt: Any
    key: Any


@attrs.frozen
class PolyvalEntries:
    """A POLYVAL shash: ``blocks(acc, key, data, nblocks)`` (the
    ``polyval_blocks_fn`` of algs/polyval_generic.h) and its ``struct
    polyval_key``."""
    blocks: Any
    key: Any


class Kind(enum.Enum):
    """What a driver can offer templates, each with its record type."""
    STREAM = StreamEntries
    BLOCK = BlockEntries
    NHPOLY1305 = Nhpoly1305Entries
    XTS = XtsEntries
    CBC = CbcEntries
    WIDE = WideEntries
    ESSIV_CBC = EssivCbcEntries
    XCTR = XctrEntries
    POLYVAL = PolyvalEntries

    @property
    def record(self) -> type:
        return self.value


Record = Union[StreamEntries, BlockEntries, Nhpoly1305Entries, XtsEntries, CbcEntries,
               WideEntries, EssivCbcEntries, XctrEntries, PolyvalEntries]


@attrs.frozen
class Offer:
    """A descriptor's declaration: ``get(tfm, simd)`` gives a keyed tfm's
    record of ``kind`` (or None where it has none right now, e.g. no SIMD
    code for ``simd=False``)."""
    kind: Kind
    get: Callable[[Any, bool], Optional[Record]]


@attrs.frozen
class Delegate:
    """A descriptor's declaration that ``child(tfm)`` (a tfm, or None where a
    call would not reach it directly now) offers what this tfm offers."""
    child: Callable[[Any], Optional[Any]]


Declaration = Union[Offer, Delegate]


def offering_tfm(tfm: Any, kind: Kind) -> Optional[Any]:
    """The keyed tfm whose driver itself offers ``kind`` for ``tfm``: ``tfm``,
    or the child a Delegate leads to (followed through wrappers of
    wrappers); None where there is none right now."""
    for _ in range(8):                  # a bound on wrappers of wrappers
        if tfm is None or tfm.crt_flags & CRYPTO_TFM_NEED_KEY:
            return None
        delegate = None
        for decl in getattr(tfm.alg, "c_entries", ()):
            if isinstance(decl, Offer) and decl.kind is kind:
                return tfm
            if isinstance(decl, Delegate):
                delegate = decl
        if delegate is None:
            return None
        tfm = delegate.child(tfm)
    return None


def entries(tfm: Any, kind: Kind, simd: bool = True) -> Optional[Record]:
    """The record of ``kind`` that keyed ``tfm``'s driver offers (SIMD code
    where ``simd``), or None: a driver that declares no such offer, a tfm
    without its key, or an offer that has nothing for ``simd``."""
    owner = offering_tfm(tfm, kind)
    if owner is None:
        return None
    decl = next(d for d in owner.alg.c_entries if isinstance(d, Offer) and d.kind is kind)
    rec = decl.get(owner, simd)
    if rec is not None and not isinstance(rec, kind.record):
        raise TypeError(f"{owner.alg.cra_driver_name}: its {kind.name} offer gave "
                        f"{type(rec).__name__}, not {kind.record.__name__}")
    return rec


def offers(alg: Any) -> Tuple[Kind, ...]:
    """The kinds ``alg`` (a descriptor or registry record) declares itself
    (a delegate's child is known only per tfm)."""
    return tuple(d.kind for d in getattr(alg, "c_entries", ()) if isinstance(d, Offer))
