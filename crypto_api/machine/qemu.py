"""The qemu-user backend: one long-lived helper per (arch, CPU model).

``QEMU -cpu MODEL helper FD SIZE`` (the machine's qemu-user binary) runs the static helper of
crypto_api.machine.helper_build.  Arguments travel through a ``memfd``
mapped MAP_SHARED on both sides (const pointers copied in, the others in
and out); a call is one fixed 72-byte request record on the helper's stdin
and one 16-byte reply on its stdout.  The helper is pinned to one CPU
(unpinned, a wake-up on the other CPU cost 70-100 µs a round trip
when measured); a process booted as an emulated machine
pins its calling threads there too (``CRYPTO_API_PIN=0`` turns it off).

A helper that dies (SIGILL: the CPU model lacks an instruction of the core)
fails that call with CryptoError(ENODEV) naming the core, its instruction
set and the CPU model — ENODEV as for a module whose CPU feature is missing
— and the next call starts a fresh helper.  Core dumps are off (RLIMIT_CORE
0).  One lock per helper: threads share it safely, one call at a time; a
forked child drops its parent's helpers and starts its own on first use.
"""

from __future__ import annotations

import mmap
import os
import resource
import signal
import struct
import subprocess
import threading
from typing import Any, Dict, List, Optional, Tuple

from errno import EFAULT, EIO, EMSGSIZE, ENODEV, EPROTO

from ..errors import CryptoError
from . import helper_build
from .cdefs import Function
from .core import Core

SHM_SIZE = 64 << 20            # sparse: only the pages a call touches are allocated
_ALIGN = 64
_REQ = struct.Struct("<II8Q")
_REP = struct.Struct("<qQ")
_HELLO = struct.Struct("<4Q")
_MASK64 = (1 << 64) - 1

try:
    import cffi
    _ffi = cffi.FFI()
    _CData = _ffi.CData
except ImportError:  # pragma: no cover - cffi is a dependency
    _ffi = None
    _CData = ()


def _bytes_view(obj: Any, writable: bool, what: str) -> memoryview:
    if isinstance(obj, _CData):
        mv = memoryview(_ffi.buffer(obj))
    else:
        mv = memoryview(obj)
    if mv.ndim != 1 or mv.itemsize != 1 or not mv.contiguous:
        mv = mv.cast("B")
    if writable and mv.readonly:
        raise BufferError(f"{what}: a read-only buffer passed for a non-const pointer")
    return mv


class QemuHelper:
    """A running helper (restarted on demand) and its function table."""

    def __init__(self, arch: str, cpu: str) -> None:
        self.arch = arch
        self.cpu = cpu
        self.lock = threading.Lock()
        self._proc: Optional[subprocess.Popen] = None
        self._shm: Optional[mmap.mmap] = None
        self._memfd = -1
        helper_build.require_tools(arch)      # the emulator too: a prebuilt helper needs no compiler
        self._exe, fns = helper_build.build_helper(arch)
        self.table: Dict[str, Tuple[int, Core, Function]] = {fn.name: (i, c, fn) for i, (c, fn) in enumerate(fns)}
        self._nfns = len(fns)
        self.hwcap = self.hwcap2 = 0
        self.starts = 0
        self._pin: Optional[int] = None
        self.pin_callers = False      # pin each calling thread to the helper's CPU
        self._pinned = threading.local()

    # -- process management -------------------------------------------------

    def _start(self) -> None:
        self._memfd = os.memfd_create(f"crypto_api-{self.arch}", os.MFD_CLOEXEC)
        os.ftruncate(self._memfd, SHM_SIZE)
        self._shm = mmap.mmap(self._memfd, SHM_SIZE, mmap.MAP_SHARED)
        cpus = os.sched_getaffinity(0)
        self._pin = self._pin if self._pin in cpus else min(cpus)
        cmd = [helper_build.toolchain_of(self.arch).qemu, "-cpu", self.cpu, self._exe,
               str(self._memfd), str(SHM_SIZE)]
        # no preexec_fn: it would run the at-fork handlers (which drop helpers) in
        # the child; the helper is limited and pinned before its first request
        self._proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, pass_fds=(self._memfd,), bufsize=0)
        resource.prlimit(self._proc.pid, resource.RLIMIT_CORE, (0, 0))
        os.sched_setaffinity(self._proc.pid, {self._pin})
        self.starts += 1
        hello = self._read(_HELLO.size)
        if hello is None:
            err = self._reap()
            raise CryptoError(ENODEV, f"machine {self.arch}: the helper did not start under "
                              f"qemu -cpu {self.cpu} ({err})")
        magic, nfns, self.hwcap, self.hwcap2 = _HELLO.unpack(hello)
        if magic != helper_build.MAGIC or nfns != self._nfns:
            self._reap()
            raise CryptoError(EPROTO, f"machine {self.arch}: the helper answered a bad hello record")

    def _read(self, n: int) -> Optional[bytes]:
        fd = self._proc.stdout.fileno()
        buf = b""
        while len(buf) < n:
            chunk = os.read(fd, n - len(buf))
            if not chunk:
                return None
            buf += chunk
        return buf

    def _reap(self) -> str:
        """Collect a dead (or misbehaving) helper; describe how it ended."""
        proc, self._proc = self._proc, None
        if proc is None:
            return "not running"
        try:
            proc.stdin.close()
        except OSError:
            pass
        try:
            rc = proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            rc = proc.wait()
        err = proc.stderr.read().decode(errors="replace").strip() if proc.stderr else ""
        proc.stdout.close()
        if proc.stderr:
            proc.stderr.close()
        if self._shm is not None:
            self._shm.close()
            self._shm = None
        if self._memfd >= 0:
            os.close(self._memfd)
            self._memfd = -1
        if rc < 0:
            try:
                return f"killed by {signal.Signals(-rc).name}" + (f": {err}" if err else "")
            except ValueError:
                return f"killed by signal {-rc}"
        return f"exited with status {rc}" + (f": {err}" if err else "")

    def _forget(self) -> None:
        """In a forked child: drop the parent's helper (closing only this
        process's copies of its pipes and memory); the next call starts one."""
        self.lock = threading.Lock()
        self._pinned = threading.local()
        proc, self._proc = self._proc, None
        if proc is not None:
            for f in (proc.stdin, proc.stdout, proc.stderr):
                if f is not None:
                    f.close()
        if self._shm is not None:
            self._shm.close()
            self._shm = None
        if self._memfd >= 0:
            os.close(self._memfd)
            self._memfd = -1

    def ensure_started(self) -> None:
        with self.lock:
            if self._proc is None:
                self._start()

    def close(self) -> None:
        with self.lock:
            if self._proc is not None:
                self._reap()

    @property
    def pid(self) -> Optional[int]:
        return self._proc.pid if self._proc is not None else None

    # -- calls ---------------------------------------------------------------

    def call(self, name: str, args: Tuple[Any, ...]) -> int:
        idx, core, fn = self.table[name]
        if len(args) != len(fn.params):
            raise TypeError(f"{name}() takes {len(fn.params)} arguments ({len(args)} given)")
        with self.lock:
            if self._proc is None:
                self._start()
            if self.pin_callers and getattr(self._pinned, "cpu", None) != self._pin:
                os.sched_setaffinity(0, {self._pin})       # this thread only (Linux)
                self._pinned.cpu = self._pin
            shm = self._shm
            vals: List[int] = []
            back: List[Tuple[memoryview, int, int]] = []
            off = 0
            for p, a in zip(fn.params, args):
                if not p.pointer:
                    vals.append(int(a) & _MASK64)
                elif a is None:
                    vals.append(helper_build.NULL_OFFSET)
                else:
                    mv = _bytes_view(a, not p.const, f"{name}({p.name})")
                    n = mv.nbytes
                    if off + n > SHM_SIZE:
                        raise CryptoError(EMSGSIZE, f"{core.name}.{name}: {off + n} bytes of arguments "
                                          f"exceed the {SHM_SIZE}-byte shared buffer")
                    shm[off:off + n] = mv
                    vals.append(off)
                    if not p.const:
                        back.append((mv, off, n))
                    off = (off + n + _ALIGN - 1) // _ALIGN * _ALIGN
            vals += [0] * (8 - len(vals))
            try:
                os.write(self._proc.stdin.fileno(), _REQ.pack(idx, 0, *vals))
                rep = self._read(_REP.size)
            except BrokenPipeError:
                rep = None
            if rep is None:
                self._died(core, name)
            ret, status = _REP.unpack(rep)
            if status:
                raise CryptoError(EPROTO, f"{core.name}.{name}: the helper does not know function {idx}")
            for mv, o, n in back:
                mv[:] = shm[o:o + n]
        if not fn.signed_ret:
            ret &= (1 << fn.ret_bits) - 1
        elif fn.ret_bits == 32:
            ret = (ret & 0xFFFFFFFF) - ((ret & 0x80000000) << 1)
        return ret

    def _died(self, core: Core, name: str) -> None:
        how = self._reap()
        if how.startswith("killed by SIGILL"):
            raise CryptoError(ENODEV, f"{self.arch} core {core.name} ({name}): illegal instruction: the "
                              f"emulated CPU {self.cpu!r} lacks the instruction set "
                              f"{core.instruction_set()}; the helper is restarted for the next call")
        errno = EFAULT if how.startswith("killed by") else EIO
        raise CryptoError(errno, f"{self.arch} core {core.name} ({name}): the helper died ({how}); "
                          "it is restarted for the next call")


class QemuLib:
    """What ``backend.load`` gives on a foreign host: ``lib.fn(*args)`` calls the helper."""

    def __init__(self, helper: QemuHelper, core: Core) -> None:
        self._helper = helper
        self.core = core
        for fn in core.functions():
            setattr(self, fn.name, self._bind(fn.name))

    def _bind(self, name: str):
        call = self._helper.call

        def fn(*args: Any) -> int:
            return call(name, args)
        fn.__name__ = name
        return fn


_helpers: Dict[Tuple[str, str], QemuHelper] = {}
_helpers_lock = threading.Lock()


def _after_fork_in_child() -> None:
    global _helpers_lock
    _helpers_lock = threading.Lock()
    for h in _helpers.values():
        h._forget()


os.register_at_fork(after_in_child=_after_fork_in_child)


def helper(arch: str, cpu: str, pin_callers: bool = False) -> QemuHelper:
    """The shared helper of (arch, cpu), built and started on first use.
    ``pin_callers``: pin the threads that call it to its CPU (a process booted
    as this emulated machine; ``CRYPTO_API_PIN=0`` turns it off)."""
    key = (arch, cpu)
    with _helpers_lock:
        h = _helpers.get(key)
        if h is None:
            h = _helpers[key] = QemuHelper(arch, cpu)
        if pin_callers and os.environ.get("CRYPTO_API_PIN", "1") != "0":
            h.pin_callers = True
    h.ensure_started()
    return h
