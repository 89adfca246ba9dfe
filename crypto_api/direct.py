"""How the core builds a driver's direct path: one call from
``tfm.encrypt``, ``tfm.digest`` or ``encrypt_one`` straight into the
driver's C routine (the vocabulary of crypto_api/cinterface.py), built by
the descriptors' ``direct`` hook at setkey from one declaration, with one
constructor per kind: :func:`skcipher_direct`, :func:`aead_direct`,
:func:`digest_direct`.  Each returns the C entry point of
crypto_api._direct_call (direct_call.c, aead_call.h, digest_call.h), the one
place where the direct path's checks and its SIMD-or-generic decision are
made; where that extension is absent it returns None and the tfm has no
direct path (its full path gives the same bytes and refusals).  The module
also holds the per-tfm output scratch (:class:`OutputScratch`) that the
AEAD frontend's one-call path borrows.

No kernel counterpart: the kernel writes into the caller's scatterlist,
while ``tfm.encrypt(data, iv)`` returns new bytes.  The scratch is kept
between calls: a fresh buffer costs more than the cipher for short
messages, and for long ones two fresh megabyte-sized buffers per call (the
temporary and the result) make the C allocator hand memory back to the
system and fault it in again on the next call.  A tfm shared by threads, or
used again from a signal handler while its scratch is taken, falls back to
a fresh buffer; the scratch is wiped when the tfm's context is (free,
failed setkey).
"""

from __future__ import annotations

import collections
import contextlib
import ctypes
from typing import Callable

import cffi

from . import fpu
from .simd_rule import ANY_LENGTH, SimdRule

_ffi = cffi.FFI()

#: ``alloc_uninit("char[]", n)``: a buffer C fills completely (no zeroing).
alloc_uninit = _ffi.new_allocator(should_clear_after_alloc=False)

#: Results larger than this get a fresh buffer (the scratch does not grow beyond it).
SCRATCH_MAX = 4 << 20
#: The scratch starts at this size.
SCRATCH_MIN = 4096
_CHARS = _ffi.typeof("char[]")


try:
    # make(...) -> fn: the C entry point's constructor (crypto_api/direct_call.c)
    from ._direct_call import make as _skcipher_call, make_aead as _aead_call
    from ._direct_call import make_digest as _digest_call
except ImportError:                 # not built: no driver has a direct path
    _skcipher_call = _aead_call = _digest_call = None

try:
    # the batch entry (crypto_api/batch_call.h) and its thread pool, for crypto_api/batch.py
    from ._direct_call import batch as batch_call, batch_overlap
    from ._direct_call import batch_pool_info, batch_pool_stop
except ImportError:                 # not built: every batch loops over the one-call methods
    batch_call = batch_overlap = batch_pool_info = batch_pool_stop = None

#: The C entry point releases the GIL for messages of at least this many
#: bytes (hashlib's threshold too).  Below it, handing the GIL over costs
#: more than the cipher: two threads encrypting 512 or 1024 bytes with
#: xchacha12-simd each took ~1.5x longer per call with the GIL released
#: than with it held (AVX2, 2 vCPUs); from 2048 bytes they gain.
NOGIL_MIN = 2048


def zero(buf, size: int) -> None:
    """Zero the first ``size`` bytes of a cffi buffer in place (no temporary
    of its size; libc memset through ctypes)."""
    if size:
        ctypes.memset(_address(buf), 0, size)


_wipe = zero


class OutputScratch:
    """A tfm's reusable output buffer (see the module doc).

    The buffer is one tuple ``(buf, view, size)``: the ``char[]``, an
    ``ffi.buffer`` over it whose slices are new bytes, and its size.  While
    nobody uses it, it sits in ``pool``, a one-place deque: a user pops it and
    appends it back when done.  Both are atomic under the GIL and cheaper than
    a lock; an empty pool means someone else has it (another thread, or this
    one interrupted by a signal handler) and the caller takes a fresh buffer.
    """

    __slots__ = ("pool",)

    def __init__(self) -> None:
        self.pool = collections.deque([(None, None, 0)])

    @staticmethod
    def grow(state, n: int):
        """A state with room for n bytes in place of ``state`` (wiped)."""
        buf, _, size = state
        if buf is not None:
            _wipe(buf, size)
        size = max(n, SCRATCH_MIN)
        buf = alloc_uninit(_CHARS, size)
        return (buf, _ffi.buffer(buf), size)

    @contextlib.contextmanager
    def borrowed(self, n: int, wipe: bool = False):
        """``with scratch.borrowed(n) as (buf, view)``: the buffer with room for
        n bytes (a fresh one while another user has it), given back after;
        its first n bytes are zeroed first if ``wipe`` (it held a secret).
        If the body raises, it is zeroed and not given back: an asynchronous
        worker may still hold a view of it."""
        try:
            state = self.pool.pop()
            pooled = True
        except IndexError:              # in use elsewhere: a fresh buffer
            state, pooled = (None, None, 0), False
        if state[0] is None or state[2] < n:
            state = self.grow(state, n)
        ok = False
        try:
            yield state[0], state[1]
            ok = True
        finally:
            if wipe or not ok:
                zero(state[0], n)
            if pooled:                  # a huge buffer is not kept
                self.pool.append(state if ok and state[2] <= SCRATCH_MAX else (None, None, 0))

    def wipe(self) -> None:
        """Zero and drop the buffer (the tfm's key is going away).  If it is
        in use right now (this thread, from a signal handler), its user puts
        it back and it is freed with the tfm, unwiped."""
        try:
            buf, _, size = self.pool.pop()
        except IndexError:
            return
        if buf is not None:
            _wipe(buf, size)
        self.pool.append((None, None, 0))


def output_scratch(ctx) -> OutputScratch:
    """The tfm context's OutputScratch (made on first use; wipe_ctx wipes it)."""
    s = getattr(ctx, "direct_scratch", None)
    if s is None:
        s = ctx.direct_scratch = OutputScratch()
    return s


def _address(ptr) -> int:
    """A cffi pointer's address as an int (any FFI's cdata)."""
    return int(_ffi.cast("uintptr_t", ptr))


def _on() -> bool:
    """Whether the C entry points are there (built, and not switched off by
    setting ``_skcipher_call`` to None, as tests do): without them no driver
    has a direct path, and every call takes the full path."""
    return _skcipher_call is not None


def skcipher_direct(crypt_ptr, generic, simd, ivsize: int, *, rule: SimdRule = ANY_LENGTH,
                    min_len: int = 0, returns_int: bool = False, nogil_min: int = None,
                    align: int = 1, keep=()):
    """An skcipher's direct path ``fn(data, iv, out)``: the C entry of
    crypto_api/direct_call.c around one C routine ``crypt(handle, dst, src,
    n, iv)`` (``crypt_ptr``, a cffi function pointer; ``returns_int``: it
    returns an int, which is ignored), or None where the C entry points are
    absent (the tfm then has no direct path).

    The entry takes any C-contiguous buffer, exported before its length is
    read and held across the call; the new bytes are filled in place; the
    GIL is released only for messages of at least ``nogil_min`` bytes
    (default :data:`NOGIL_MIN`).  ``generic``/``simd``: the routine's handles
    (cffi pointers; the same object twice for a driver without SIMD code),
    chosen by the driver's declared ``rule`` (its ``above`` and ``only`` go
    into the entry's state, which applies them as :meth:`SimdRule.choice`
    does).  Messages shorter than ``min_len`` or not a multiple of ``align``,
    partly overlapping buffers and anything else it does not take are
    declined (None): the full path gives the refusal.  The function keeps
    ``crypt_ptr``, ``generic``, ``simd`` and ``keep`` alive."""
    if not _on():
        return None
    return _skcipher_call(
        _address(crypt_ptr), _address(generic), _address(simd), (crypt_ptr, generic, simd, keep),
        fpu.simd_choice, ivsize, rule.above, min_len, NOGIL_MIN if nogil_min is None else nogil_min,
        fpu.SIMD, fpu.DECLINE, returns_int, align, rule.only)


def aead_direct(core_ptr, key, keep, salt: bytes, noncelen: int, taglen: int, ad_tail: int,
                encrypt: bool, bad_tag: Callable[[], None], nogil_min: int = None):
    """An AEAD's direct path ``fn(data, iv, assoc, out)``: the C entry of
    crypto_api/aead_call.h, or None where the C entry points are absent (the
    tfm then has no direct path).

    ``core_ptr``: the one-pass core's seal routine where ``encrypt``, else
    its open routine (cffi function pointers, aead_call.h's types); ``key``:
    a cffi pointer to the key, kept alive with ``keep``; ``salt`` goes
    before the IV to make a ``noncelen``-byte nonce; the last ``ad_tail``
    bytes of the AD are not authenticated; ``bad_tag()`` raises the
    driver's EBADMSG error.  Taken only when fpu.simd_choice() says SIMD."""
    if not _on() or _aead_call is None:
        return None
    return _aead_call(_address(core_ptr), _address(key), (core_ptr, key, keep), fpu.simd_choice,
                      bad_tag, bytes(salt), noncelen, taglen, ad_tail,
                      NOGIL_MIN if nogil_min is None else nogil_min, SCRATCH_MAX, fpu.SIMD, encrypt)


def digest_direct(fn_ptr, generic, simd, out_len: int, *, in_len: int = -1, min_len: int = 0,
                  rule: SimdRule = ANY_LENGTH, nogil_min: int = None, keep=()):
    """A fixed-size result's direct path ``fn(data)`` (a shash's
    ``tfm.digest`` or a cipher's ``encrypt_one``/``decrypt_one``): the C
    entry of crypto_api/digest_call.h, or None where the C entry points are
    absent (the tfm then has no direct path).

    ``fn_ptr``: the routine ``int fn(const void *handle, char *out, const
    char *src, size_t n)`` (0: done; else declined) as a cffi function
    pointer; ``generic``/``simd``: its handles (cffi pointers; the same for a
    driver without SIMD code), the SIMD one for inputs longer than the
    driver's ``rule.above`` bytes when fpu.simd_choice() says SIMD; DECLINE
    (a trace records) declines.  ``in_len`` (>= 0): the only input length
    taken (a block); shorter inputs than ``min_len`` are declined.  The
    function keeps the pointers and ``keep`` alive."""
    if not _on() or _digest_call is None:
        return None
    return _digest_call(
        _address(fn_ptr), _address(generic), _address(simd), (fn_ptr, generic, simd, keep),
        fpu.simd_choice, in_len, min_len, out_len, rule.above,
        NOGIL_MIN if nogil_min is None else nogil_min, fpu.SIMD, fpu.DECLINE)
