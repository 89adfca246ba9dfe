"""What the drivers' direct paths share: one call from ``tfm.encrypt``,
``tfm.digest`` or ``encrypt_one`` straight into the driver's C routine
(the vocabulary of crypto_api/cinterface.py), built by the descriptors'
``oneshot`` hook at setkey: the skcipher direct path itself
(:func:`skcipher_direct`), the C entries of the AEAD and fixed-size ones
(:func:`c_aead_direct`, :func:`c_digest_direct`) and the output buffers for
results returned as new bytes.

No kernel counterpart: the kernel writes into the caller's scatterlist,
while ``tfm.encrypt(data, iv)`` returns new bytes.  A direct path has C write
into a buffer and copies that into the bytes it returns (on CPython, long
results are written straight into the new bytes object instead: see
:func:`_uninit_bytes_maker`).  That buffer is a
per-tfm scratch (:class:`OutputScratch`), kept between calls: a fresh one
costs more than the cipher for short messages, and for long ones two fresh
megabyte-sized buffers per call (the temporary and the result) make the C
allocator hand memory back to the system and fault it in again on the next
call.  A tfm shared by threads, or used again from a signal handler while
its scratch is taken, falls back to a fresh buffer; the scratch is wiped
when the tfm's context is (free, failed setkey).
"""

from __future__ import annotations

import collections
import contextlib
import ctypes
import os
import sys
from typing import Callable

import cffi

from . import fpu
from .scatterlist import spans_meet
from .simd_rule import ANY_LENGTH, SimdRule

_ffi = cffi.FFI()
_from_buffer = _ffi.from_buffer

#: What ``ffi.from_buffer`` raises for an object the one-call paths do not
#: take (not a buffer, not C-contiguous, read-only where ``out`` must be
#: written): they decline it, and the full path gives its refusal.
NOT_A_BUFFER = (TypeError, BufferError, ValueError)


def readable(data):
    """``data`` as a one-call path hands it to C: any C-contiguous buffer
    through an export (``ffi.from_buffer``) held while the result lives, so
    that it cannot be resized under C; None where it is no such buffer (the
    path declines, and the full path says what is wrong).  The paths pass a
    bytes object as it is without calling this."""
    try:
        return _from_buffer(data)
    except NOT_A_BUFFER:
        return None

#: ``alloc_uninit("char[]", n)``: a buffer C fills completely (no zeroing).
alloc_uninit = _ffi.new_allocator(should_clear_after_alloc=False)
#: ``unpack(buf, n)``: the first n bytes of a ``char[]`` as new bytes.
unpack = _ffi.unpack

#: Results larger than this get a fresh buffer (the scratch does not grow beyond it).
SCRATCH_MAX = 4 << 20
#: The scratch starts at this size.
SCRATCH_MIN = 4096
#: On CPython, results of at least this many bytes are written straight into
#: the bytes object returned (see :func:`_uninit_bytes_maker`).
DIRECT_MIN = 16384
_CHARS = _ffi.typeof("char[]")


def _uninit_bytes_maker(write=None):
    """``new(None, n)``: a fresh bytes object of n uninitialised bytes, or None
    where the direct path must copy instead (off CPython, or the check below fails).

    This is PyBytes_FromStringAndSize(NULL, n), whose contents the C API
    leaves for the caller to fill before the object is shared; C extensions
    build their results this way.  The direct path fills it in one C call with
    the GIL released (so threads overlap) and without the copy out of a
    scratch buffer, then returns it: nothing else sees the object before.
    Through ctypes the call costs about as much as copying 16 KiB, hence
    DIRECT_MIN.  A prototype of our own keeps ctypes.pythonapi's shared
    function objects untouched.

    That C writes into the object relies on cffi passing a bytes argument
    to a ``char *`` parameter as a pointer to the object's own contents (it
    documents that C must not modify it, so it could copy instead): checked
    once here by :func:`_writes_in_place`, with ``write`` standing for the
    C call (default: libc memmove through cffi, declared on ``char *``).
    """
    if sys.implementation.name != "cpython":
        return None
    proto = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.c_void_p, ctypes.c_ssize_t)
    make = proto(("PyBytes_FromStringAndSize", ctypes.pythonapi))
    try:
        write = write or _c_memmove()
        ok = _writes_in_place(make, write)
    except Exception:           # no libc to check with, or the call failed: copy
        return None
    return make if ok else None


def _c_memmove():
    """``write(dst, src, n)``: libc memmove called through cffi as the fast
    paths call their C code (a bytes object passed for ``char *dst``)."""
    ffi = cffi.FFI()
    ffi.cdef("char *memmove(char *dst, const char *src, size_t n);")
    return ffi.dlopen(None).memmove


def _writes_in_place(make, write) -> bool:
    """Whether ``write`` called on a fresh ``make(None, n)`` bytes object fills
    that object (rather than a temporary copy of it)."""
    n = DIRECT_MIN
    want = os.urandom(n)                # nothing the fresh object can hold by chance
    res = make(None, n)
    if type(res) is not bytes or len(res) != n:
        return False
    write(res, want, n)
    return res == want


new_uninit_bytes = _uninit_bytes_maker()

try:
    # make(...) -> fn: the C entry point's constructor (crypto_api/linear_call.c)
    from ._linear_call import make as _linear_call, make_aead as _aead_call
    from ._linear_call import make_digest as _digest_call
except ImportError:                 # not built (a pure-Python install): cffi calls
    _linear_call = _aead_call = _digest_call = None

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
    s = getattr(ctx, "oneshot_scratch", None)
    if s is None:
        s = ctx.oneshot_scratch = OutputScratch()
    return s


def skcipher_direct(crypt, generic, simd, ivsize: int, scratch: OutputScratch, *,
                   rule: SimdRule = ANY_LENGTH, min_len: int = 0, crypt_ptr=None,
                   returns_int: bool = False, align: int = 1, keep=()):
    """An skcipher ``oneshot`` function ``fn(data, iv, out)`` around one C call
    ``crypt(handle, dst, src, n, iv)`` (char pointers; dst may equal src).

    Given ``crypt_ptr`` (the same routine as a cffi function pointer;
    ``returns_int``: it returns an int, which is ignored) and where the C
    entry point crypto_api._linear_call is built, ``fn`` is that entry
    point (:func:`c_skcipher_direct`), same decisions and results; else the
    Python function below (:func:`py_skcipher_direct`).  ``rule``: the
    driver's declared SimdRule (its descriptor's ``simd_rule``), which both
    apply.  ``keep``: what the handles point into (e.g. a key schedule),
    kept alive with ``fn``.
    """
    if crypt_ptr is not None and _linear_call is not None:
        return c_skcipher_direct(crypt_ptr, generic, simd, ivsize, rule=rule,
                                min_len=min_len, returns_int=returns_int, align=align, keep=keep)
    return py_skcipher_direct(crypt, generic, simd, ivsize, scratch, rule=rule,
                             min_len=min_len, align=align)


def _address(ptr) -> int:
    """A cffi pointer's address as an int (any FFI's cdata)."""
    return int(_ffi.cast("uintptr_t", ptr))


def sharing(a, b) -> bool:
    """Two cffi buffers (of any FFI) with a byte in common."""
    return spans_meet(_address(a), len(a), _address(b), len(b))


def _partly_overlapping(src, dst, n: int) -> bool:
    """Two n-byte cffi buffers that share memory without being the same bytes."""
    a, b = _address(src), _address(dst)
    return a != b and spans_meet(a, n, b, n)


def c_skcipher_direct(crypt_ptr, generic, simd, ivsize: int, *, rule: SimdRule = ANY_LENGTH,
                     min_len: int = 0, returns_int: bool = False, nogil_min: int = None,
                     align: int = 1, keep=()):
    """``fn(data, iv, out)`` as :func:`py_skcipher_direct` makes it, in C
    (crypto_api/linear_call.c): the buffers taken as Py_buffer exports held
    across the call, the new bytes filled in place, and the GIL released
    only for messages of at least ``nogil_min`` bytes (default
    :data:`NOGIL_MIN`): below that, handing the GIL to another thread and
    taking it back costs more than the cipher.  ``rule``'s ``above`` and
    ``only`` go into the C entry's state, which applies the rule as
    :meth:`SimdRule.choice` does.  The function keeps ``crypt_ptr``,
    ``generic`` and ``simd`` (cdata pointers) and ``keep`` alive."""
    if _linear_call is None:
        raise RuntimeError("crypto_api._linear_call is not built")
    return _linear_call(
        _address(crypt_ptr), _address(generic), _address(simd), (crypt_ptr, generic, simd, keep),
        fpu.simd_choice, ivsize, rule.above, min_len, NOGIL_MIN if nogil_min is None else nogil_min,
        fpu.SIMD, fpu.DECLINE, returns_int, align, rule.only)


def c_aead_direct(core_ptr, key, keep, salt: bytes, noncelen: int, taglen: int, ad_tail: int,
                   encrypt: bool, bad_tag: Callable[[], None], nogil_min: int = None):
    """An AEAD ``oneshot`` function ``fn(data, iv, assoc, out)`` in C
    (crypto_api/aead_call.h), or None where the C entry points are not built
    (or switched off: ``_linear_call`` None) and the driver's Python function
    must serve.

    ``core_ptr``: the one-pass core's seal routine where ``encrypt``, else
    its open routine (cffi function pointers, aead_call.h's types); ``key``:
    a cffi pointer to the key, kept alive with ``keep``; ``salt`` goes
    before the IV to make a ``noncelen``-byte nonce; the last ``ad_tail``
    bytes of the AD are not authenticated; ``bad_tag()`` raises the
    driver's EBADMSG error.  Taken and declined as the driver's Python
    function does: only when fpu.simd_choice() says SIMD."""
    if _linear_call is None or _aead_call is None:
        return None
    return _aead_call(_address(core_ptr), _address(key), (core_ptr, key, keep), fpu.simd_choice,
                      bad_tag, bytes(salt), noncelen, taglen, ad_tail,
                      NOGIL_MIN if nogil_min is None else nogil_min, SCRATCH_MAX, fpu.SIMD, encrypt)


def c_digest_direct(fn_ptr, generic, simd, out_len: int, *, in_len: int = -1, min_len: int = 0,
                     rule: SimdRule = ANY_LENGTH, nogil_min: int = None, keep=()):
    """A fixed-size result's ``oneshot`` function ``fn(data)`` in C
    (crypto_api/digest_call.h): a shash's ``tfm.digest`` or a cipher's
    ``encrypt_one``/``decrypt_one``, or None where the C entry points are not
    built (or switched off: ``_linear_call`` None) and the driver's Python
    function must serve.

    ``fn_ptr``: the routine ``int fn(const void *handle, char *out, const
    char *src, size_t n)`` (0: done; else declined) as a cffi function
    pointer; ``generic``/``simd``: its handles (cffi pointers; the same for a
    driver without SIMD code), the SIMD one for inputs longer than the
    driver's ``rule.above`` bytes when fpu.simd_choice() says SIMD; DECLINE
    (a trace records) declines.  ``in_len`` (>= 0): the only input length taken (a
    block); shorter inputs than ``min_len`` are declined.  The function
    keeps the pointers and ``keep`` alive."""
    if _linear_call is None or _digest_call is None:
        return None
    return _digest_call(
        _address(fn_ptr), _address(generic), _address(simd), (fn_ptr, generic, simd, keep),
        fpu.simd_choice, in_len, min_len, out_len, rule.above,
        NOGIL_MIN if nogil_min is None else nogil_min, fpu.SIMD, fpu.DECLINE)


def digest_direct(fn_ptr, generic, simd, out_len: int, *, in_len: int = -1, min_len: int = 0,
                  rule: SimdRule = ANY_LENGTH, keep=()):
    """A fixed-size result's direct path ``fn(data)`` from one declaration:
    the C entry (:func:`c_digest_direct`) where built, else
    :func:`py_digest_direct` from the very same arguments."""
    fn = c_digest_direct(fn_ptr, generic, simd, out_len, in_len=in_len, min_len=min_len, rule=rule,
                         keep=keep)
    if fn is not None:
        return fn
    return py_digest_direct(fn_ptr, generic, simd, out_len, in_len=in_len, min_len=min_len,
                            rule=rule, keep=keep)


def py_digest_direct(fn_ptr, generic, simd, out_len: int, *, in_len: int = -1, min_len: int = 0,
                     rule: SimdRule = ANY_LENGTH, keep=()):
    """The Python ``fn(data)`` of :func:`digest_direct`: crypto_api/digest_call.h's
    rules over the same routine ``fn_ptr(handle, out, src, n)``, called
    through cffi (any C-contiguous input, exported before its length is
    read; ``in_len``/``min_len``; ``rule`` picks the handle, DECLINE and a
    nonzero return decline)."""
    choose, simd_ok, decline = rule.choice, fpu.SIMD, fpu.DECLINE
    has_simd = simd is not generic
    alloc, unpack_, chars = alloc_uninit, unpack, _CHARS

    def fn(data):
        src = data if type(data) is bytes else readable(data)
        if src is None:
            return None
        n = len(src)
        if (in_len >= 0 and n != in_len) or n < min_len:
            return None
        handle = generic
        if has_simd:
            choice = choose(n)
            if choice == simd_ok:
                handle = simd
            elif choice == decline:
                return None
        out = alloc(chars, out_len)
        if fn_ptr(handle, out, src, n):
            return None
        return unpack_(out, out_len)
    fn.keep = keep                      # what the handles point into lives as long as fn
    return fn


def py_skcipher_direct(crypt, generic, simd, ivsize: int, scratch: OutputScratch, *,
                      rule: SimdRule = ANY_LENGTH, min_len: int = 0, align: int = 1):
    """The Python ``fn(data, iv, out)`` of :func:`skcipher_direct` (cffi call).

    ``handle`` is ``simd`` where ``rule.choice(n)`` says SIMD, else
    ``generic`` (pass the same object twice for a driver without SIMD code);
    DECLINE (a trace records) declines, so that the modelled path makes the
    real sections.  ``rule.only``: a driver with SIMD code only (pass the
    handle twice): anything but SIMD declines, at every length.  It accepts data in any
    C-contiguous buffer (bytes, bytearray, memoryview, array, mmap...) with
    no ``out`` (new bytes back) or a writable C-contiguous ``out`` of the same
    length that is either the same bytes as data (in place) or shares none
    of them, and a bytes IV of ``ivsize`` bytes (or None where ``ivsize`` is
    0); messages shorter than ``min_len`` or not a multiple of ``align``,
    partly overlapping buffers and everything else are declined (None): the
    full path gives the refusal.

    Buffers other than bytes are exported (``ffi.from_buffer``) before their
    length is read, and the exports are held until C returns: a bytearray
    cannot be resized meanwhile (by another thread, a signal handler or a
    trace function: the resize raises BufferError), so C never sees a length
    larger than the memory.
    """
    choose, simd_ok, decline, simd_only = rule.choice, fpu.SIMD, fpu.DECLINE, rule.only
    alloc, unpack_, fb, chars = alloc_uninit, unpack, _from_buffer, _CHARS
    take, give, grow, scratch_max = scratch.pool.pop, scratch.pool.append, OutputScratch.grow, SCRATCH_MAX
    new_bytes = new_uninit_bytes
    direct_min = DIRECT_MIN if new_bytes is not None else SCRATCH_MAX + 1
    has_simd = simd is not generic or simd_only

    def fn(data, iv, out):
        if iv is None and not ivsize:
            iv = b""
        elif type(iv) is not bytes or len(iv) != ivsize:
            return None
        src = data if type(data) is bytes else readable(data)   # the export first: then the length
        if src is None:
            return None
        n = len(src)
        if n < min_len or n % align:
            return None
        if out is not None:
            try:
                dst = fb(out, require_writable=True)
            except NOT_A_BUFFER:
                return None
            if len(dst) != n or (type(data) is not bytes and type(out) is not bytearray
                                 and _partly_overlapping(src, dst, n)):
                return None         # (bytes and a bytearray own their memory alone)
        handle = generic
        if has_simd:
            choice = choose(n)
            if choice == simd_ok:
                handle = simd
            elif choice == decline or simd_only:
                return None
        if out is None:
            if n >= direct_min:
                res = new_bytes(None, n)
                crypt(handle, res, src, n, iv)     # cffi passes a pointer to its contents
                return res
            if n <= scratch_max:
                try:
                    state = take()
                except IndexError:          # in use elsewhere: a fresh buffer below
                    state = None
                if state is not None:
                    try:
                        buf, view, size = state
                        if size < n or buf is None:
                            state = grow(state, n)
                            buf, view, size = state
                        crypt(handle, buf, src, n, iv)
                        return view[:n]
                    finally:
                        give(state)
            dst = alloc(chars, n)
            crypt(handle, dst, src, n, iv)
            return unpack_(dst, n)
        crypt(handle, dst, src, n, iv)
        return out

    return fn
