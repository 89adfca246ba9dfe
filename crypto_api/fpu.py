"""The kernel's FPU model: kernel_fpu_begin/end, crypto_simd_usable, traces.

Mirrors arch/x86/kernel/fpu/core.c (kernel_fpu_begin/end, irq_fpu_usable) and
include/crypto/internal/simd.h (crypto_simd_usable and the self-test manager's
"SIMD disabled for test" switch).  Each Python thread plays the part of a CPU:
its FPU section, its interrupt context and its SIMD-disabled switch are its
own.

A section opened by ``kernel_fpu_begin`` disables preemption: sleeping inside
it (``might_sleep``) or opening a second one is a bug and raises
:class:`FpuUsageError`, as the kernel would WARN.  ``fpu_trace()`` records every
section with the number of bytes processed inside it (the skcipher walk and
the SIMD glue report them through :func:`fpu_account`).
"""

from __future__ import annotations

import contextlib
import threading
from typing import Iterator, List, Optional

import attrs


class FpuUsageError(RuntimeError):
    """Misuse of the FPU model: nested begin, end without begin, sleeping
    inside a section, or begin where the FPU is not usable."""


@attrs.define
class FpuSection:
    """One kernel_fpu_begin..kernel_fpu_end section."""

    nbytes: int = 0
    closed: bool = False


@attrs.define
class FpuTrace:
    """Sections recorded on one thread while the trace was active."""

    sections: List[FpuSection] = attrs.field(factory=list)

    @property
    def yields(self) -> int:
        """Number of end/begin pairs inside requests (sections beyond the first)."""
        return max(0, len(self.sections) - 1)

    @property
    def nbytes(self) -> List[int]:
        return [s.nbytes for s in self.sections]


#: Bits of ``_CpuState.mode``: why this "CPU" may not run a request in one
#: unobserved C call with SIMD.  0 means SIMD is usable and nothing records.
MODE_IN_FPU = 1         # inside kernel_fpu_begin..end
MODE_NOSIMD = 2         # simd_disabled() (the self-test manager's switch)
MODE_IRQ = 4            # interrupt_context()
MODE_TRACE = 8          # an fpu_trace() is recording


class _CpuState(threading.local):
    def __init__(self) -> None:
        self.section: Optional[FpuSection] = None
        self.in_fpu = False
        self.simd_disabled = 0
        self.irq = 0
        self.traces: List[FpuTrace] = []
        self.mode = 0           # MODE_* bits, kept in step with the fields above


def _set_mode(st: _CpuState, bit: int, on: bool) -> None:
    st.mode = (st.mode | bit) if on else (st.mode & ~bit)


def fast_path_mode() -> int:
    """This thread's MODE_* bits (0: SIMD usable, no trace recording).

    One-call fast paths (a driver's ``oneshot``) read it once per request:
    with MODE_TRACE set they decline, so the modelled path makes the real
    sections; otherwise any bit set means crypto_simd_usable() is False.
    """
    return _cpu.mode


_cpu = _CpuState()


def irq_fpu_usable() -> bool:
    """True unless this "CPU" is in an interrupt that cannot save the FPU."""
    return _cpu.irq == 0 and not _cpu.in_fpu


def may_use_simd() -> bool:
    return irq_fpu_usable()


def crypto_simd_usable() -> bool:
    """may_use_simd() and SIMD not disabled by the self-test manager."""
    return _cpu.simd_disabled == 0 and _cpu.irq == 0 and not _cpu.in_fpu


def kernel_fpu_begin() -> None:
    st = _cpu
    if st.in_fpu:
        raise FpuUsageError("kernel_fpu_begin: nested FPU section (already inside kernel_fpu_begin)")
    if st.irq:
        raise FpuUsageError("kernel_fpu_begin: FPU not usable in interrupt context")
    st.in_fpu = True
    st.mode |= MODE_IN_FPU
    if st.traces:
        sec = FpuSection()
        for t in st.traces:
            t.sections.append(sec)
        st.section = sec


def simd_fpu_begin(untraced: bool = False) -> bool:
    """``if crypto_simd_usable(): kernel_fpu_begin()`` in one call; True if begun.

    ``untraced=True`` also declines while an fpu_trace() records (for fast
    paths whose sections would not show the real ones).
    """
    st = _cpu
    if st.simd_disabled or st.irq or st.in_fpu or (untraced and st.traces):
        return False
    kernel_fpu_begin()
    return True


def fpu_owned() -> bool:
    """Whether this thread is inside an FPU section (a token for fpu_recover)."""
    return _cpu.in_fpu


def fpu_recover(owned_before: bool, who: str) -> None:
    """After a driver raised: close a section it left open (a kernel WARN)."""
    if _cpu.in_fpu and not owned_before:
        import logging
        logging.getLogger("crypto_api").warning(
            "%s: failed inside kernel_fpu_begin without kernel_fpu_end; section closed", who)
        kernel_fpu_end()


def kernel_fpu_end() -> None:
    st = _cpu
    if not st.in_fpu:
        raise FpuUsageError("kernel_fpu_end: no FPU section is open")
    st.in_fpu = False
    st.mode &= ~MODE_IN_FPU
    if st.section is not None:
        st.section.closed = True
        st.section = None


def kernel_fpu_yield() -> None:
    """End the section and begin a new one: a preemption point."""
    kernel_fpu_end()
    kernel_fpu_begin()


def in_kernel_fpu() -> bool:
    return _cpu.in_fpu


def fpu_tracing() -> bool:
    """True while an fpu_trace() is recording on this thread."""
    return bool(_cpu.traces)


def fpu_account(nbytes: int) -> None:
    """Record that ``nbytes`` were processed inside the current section."""
    sec = _cpu.section
    if sec is not None:
        sec.nbytes += nbytes


def might_sleep(where: str) -> None:
    """A point where the caller may sleep; a bug inside an FPU section."""
    if _cpu.in_fpu:
        raise FpuUsageError(f"{where}: sleeping function called inside a kernel_fpu_begin section")


@contextlib.contextmanager
def simd_disabled() -> Iterator[None]:
    """crypto_simd_usable() is False inside (the self-test manager's nosimd)."""
    st = _cpu
    st.simd_disabled += 1
    st.mode |= MODE_NOSIMD
    try:
        yield
    finally:
        st.simd_disabled -= 1
        _set_mode(st, MODE_NOSIMD, st.simd_disabled > 0)


@contextlib.contextmanager
def interrupt_context() -> Iterator[None]:
    """Run as if in a hard interrupt: the FPU cannot be used at all."""
    st = _cpu
    st.irq += 1
    st.mode |= MODE_IRQ
    try:
        yield
    finally:
        st.irq -= 1
        _set_mode(st, MODE_IRQ, st.irq > 0)


@contextlib.contextmanager
def fpu_trace() -> Iterator[FpuTrace]:
    """Record every FPU section opened on this thread inside the block."""
    trace = FpuTrace()
    st = _cpu
    st.traces.append(trace)
    st.mode |= MODE_TRACE
    try:
        yield trace
    finally:
        st.traces.remove(trace)
        _set_mode(st, MODE_TRACE, bool(st.traces))
