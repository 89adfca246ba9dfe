"""The kernel's FPU model: kernel_fpu_begin/end, crypto_simd_usable, traces.

Mirrors arch/x86/kernel/fpu/core.c (kernel_fpu_begin/end, irq_fpu_usable),
whose rules v5.0's other architectures share for their kernel-mode SIMD
units (arm64's kernel_neon_begin/end in arch/arm64/kernel/fpsimd.c,
powerpc's enable_kernel_vsx/disable_kernel_vsx), and
include/crypto/internal/simd.h (crypto_simd_usable and the self-test
manager's "SIMD disabled for test" switch).  One model serves every unit:
a thread's open section is the FPU section or a machine's SIMD unit's
(``FpuSection.unit`` says which: "fpu", or the unit's name).  A nested user
sees may_use_simd() false, a nested begin is a bug, interrupts cannot use it.

What differs per architecture is the machine's descriptor's
(crypto_api.machine.spec): the SIMD units its drivers open, whose begin/end
pair :func:`machine_sections` makes (``crypto_api`` provides every
registered machine's), and whether SIMD is usable in a softirq (v5.0 arm's
kernel-mode NEON is ``!in_interrupt()``: not there either, see
:func:`softirq_context`).

Where the state lives:

- Per thread (a Python thread plays a CPU): the open ``kernel_fpu_begin``
  section.  The kernel's section belongs to the CPU and disables preemption,
  so nothing else runs on that CPU until it ends: a second begin on the same
  thread is a nesting bug whichever code makes it.
- Per context (``contextvars``): ``simd_disabled()``, ``interrupt_context()``
  and ``fpu_trace()``.  They describe the code running, not the CPU, so two
  asyncio tasks on one thread each see only their own, and a task (or an
  ``asyncio.to_thread`` call) starts with a copy of its creator's.  A new
  ``threading.Thread`` starts with none of them.

A section is opened and closed by the same code without sleeping in between
(``might_sleep`` inside it raises), hence in one context; kernel_fpu_begin
therefore also records "FPU taken" in that context (kernel_fpu_end restores
its answer), which lets a single context variable answer the one question
the drivers ask.

That question is :func:`simd_choice`: SIMD (usable, nothing records: one
unobserved C call may use SIMD), GENERIC (crypto_simd_usable() is false: the
generic code, which opens no section) or DECLINE (usable, but an fpu_trace()
records: take the modelled path that makes the real sections).  It is a
context variable's ``get``, so a hot path pays one C call for it.

A section opened by ``kernel_fpu_begin`` disables preemption: sleeping inside
it (``might_sleep``) or opening a second one is a bug and raises
:class:`FpuUsageError`, as the kernel would WARN.  ``fpu_trace()`` records every
section with the number of bytes processed inside it (the skcipher walk and
the SIMD glue report them through :func:`fpu_account`).
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import threading
from typing import Callable, ContextManager, Dict, Iterator, List, NamedTuple, Optional, Tuple

import attrs


class FpuUsageError(RuntimeError):
    """Misuse of the FPU model: nested begin, end without begin, sleeping
    inside a section, or begin where the FPU is not usable."""


@attrs.define
class FpuSection:
    """One kernel_fpu_begin..kernel_fpu_end section (or a SIMD unit's begin..end)."""

    nbytes: int = 0
    closed: bool = False
    unit: str = "fpu"       # "fpu", or the name of a machine's SIMD unit
    worker: Optional[int] = None    # a batch's native worker that ran it (None: this thread)


@attrs.define
class FpuTrace:
    """Sections recorded in one context while the trace was active."""

    sections: List[FpuSection] = attrs.field(factory=list)

    @property
    def yields(self) -> int:
        """Number of end/begin pairs inside requests (sections beyond the first)."""
        return max(0, len(self.sections) - 1)

    @property
    def nbytes(self) -> List[int]:
        return [s.nbytes for s in self.sections]

    @property
    def units(self) -> List[str]:
        return [s.unit for s in self.sections]


#: :func:`simd_choice` answers.
SIMD = 0        # crypto_simd_usable() and no trace recording
GENERIC = 1     # crypto_simd_usable() is false
DECLINE = 2     # usable, but an fpu_trace() records: take the modelled path


class _Switches(NamedTuple):
    """A context's FPU switches (immutable: a change sets a new value, so a
    task's copy of its creator's context never changes under it)."""

    nosimd: int = 0                         # simd_disabled() depth
    irq: int = 0                            # interrupt_context() depth
    softirq: int = 0                        # softirq_context() depth
    traces: Tuple[FpuTrace, ...] = ()


def _choice_for(sw: _Switches) -> int:
    """The one rule outside a section (inside one it is GENERIC): GENERIC
    unless SIMD is usable, then DECLINE while a trace records, else SIMD."""
    if sw.nosimd or sw.irq or (sw.softirq and _softirq_blocks_simd()):
        return GENERIC
    return DECLINE if sw.traces else SIMD


def _softirq_blocks_simd() -> bool:
    """Whether the booted machine forbids SIMD in a softirq (its descriptor's
    ``simd_in_softirq`` False: may_use_simd() is ``!in_interrupt()`` there);
    most allow SIMD in a softirq that interrupts no SIMD user."""
    from .machine.known import find_machine
    from .machine.selection import current_machine
    spec = find_machine(current_machine().arch)
    return spec is not None and not spec.simd_in_softirq


_NONE = _Switches()
_switches: contextvars.ContextVar[_Switches] = contextvars.ContextVar("crypto_api_fpu", default=_NONE)
_choice: contextvars.ContextVar[int] = contextvars.ContextVar("crypto_api_simd_choice",
                                                              default=_choice_for(_NONE))

#: ``simd_choice() -> SIMD | GENERIC | DECLINE`` for the running context (a
#: context variable's C ``get``: bind it once, call it per request).
simd_choice = _choice.get


def _set(sw: _Switches) -> None:
    _switches.set(sw)
    _choice.set(GENERIC if _cpu.in_fpu else _choice_for(sw))


class _Cpu(threading.local):
    """This thread's "CPU": the open section, if any."""

    def __init__(self) -> None:
        self.in_fpu = False
        self.unit = "fpu"
        self.section: Optional[FpuSection] = None


_cpu = _Cpu()


def irq_fpu_usable() -> bool:
    """True unless in an interrupt or this "CPU" already holds the FPU."""
    return _switches.get().irq == 0 and not _cpu.in_fpu


def may_use_simd() -> bool:
    """irq_fpu_usable() (arm64 v5.0's "not in an interrupt and this CPU's
    unit not busy" is the same answer in this model); on a machine whose
    SIMD is not usable in a softirq, not in any interrupt, softirq included."""
    return irq_fpu_usable() and not (_switches.get().softirq and _softirq_blocks_simd())


def crypto_simd_usable() -> bool:
    """may_use_simd() and SIMD not disabled by the self-test manager."""
    return _choice.get() != GENERIC


def kernel_fpu_begin() -> None:
    _begin("fpu", "kernel_fpu_begin")


def _begin(unit: str, who: str) -> None:
    st = _cpu
    if st.in_fpu:
        raise FpuUsageError(f"{who}: nested SIMD section (a {st.unit} section is already open)")
    sw = _switches.get()
    if sw.irq:
        raise FpuUsageError(f"{who}: SIMD not usable in interrupt context")
    if sw.softirq and _softirq_blocks_simd():
        from .machine.selection import current_machine
        raise FpuUsageError(f"{who}: {current_machine().arch} kernel-mode {unit} is not usable in softirq "
                            "context (v5.0: BUG_ON(in_interrupt()))")
    st.in_fpu = True
    st.unit = unit
    if sw.traces:
        sec = FpuSection(unit=unit)
        for t in sw.traces:
            t.sections.append(sec)
        st.section = sec
    _choice.set(GENERIC)


def kernel_fpu_end() -> None:
    _end("fpu", "kernel_fpu_end")


def _end(unit: str, who: str) -> None:
    st = _cpu
    if not st.in_fpu:
        raise FpuUsageError(f"{who}: no FPU section is open (no {unit} section)")
    if st.unit != unit:
        raise FpuUsageError(f"{who}: the open section is a {st.unit} section")
    st.in_fpu = False
    if st.section is not None:
        st.section.closed = True
        st.section = None
    _choice.set(_choice_for(_switches.get()))


def section_functions(unit: str, begin: str, end: str,
                      about: str = "") -> Tuple[Callable[[], None], Callable[[], None]]:
    """The begin and end functions of a SIMD unit's sections, named ``begin`` and
    ``end`` (``kernel_neon_begin``/``kernel_neon_end`` for "neon"): the model's
    kernel_fpu_begin/end for sections whose trace says ``unit``."""

    def begin_fn() -> None:
        _begin(unit, begin)

    def end_fn() -> None:
        _end(unit, end)

    for fn, name, what in ((begin_fn, begin, "take"), (end_fn, end, "release")):
        fn.__name__ = fn.__qualname__ = name
        fn.__doc__ = f"{what.capitalize()} the {unit} unit: {what} a {unit!r} section of the FPU model." + (
            f"\n\n{about}" if about else "")
    return begin_fn, end_fn


def machine_sections() -> Dict[str, Callable[[], None]]:
    """name -> function: the begin and end of every SIMD unit of every registered machine
    (crypto_api.machine.known), as :func:`section_functions` makes them.  Machines
    that declare the same unit under the same names share one pair (arm and arm64's
    NEON); a pair whose names another unit has taken is left out, with a warning."""
    from .machine.known import machines
    units: Dict[str, Tuple[str, str, List[str]]] = {}       # begin name -> unit, end name, abouts
    taken: Dict[str, str] = {}                               # function name -> unit
    for spec in machines().values():
        for u in spec.simd_units:
            if taken.get(u.begin, u.name) != u.name or taken.get(u.end, u.name) != u.name or \
                    (u.begin in units and units[u.begin][1] != u.end):
                logging.getLogger("crypto_api").warning(
                    "crypto_api: machine %s: SIMD unit %s: %s/%s already name another unit's "
                    "sections: left out", spec.name, u.name, u.begin, u.end)
                continue
            taken[u.begin] = taken[u.end] = u.name
            entry = units.setdefault(u.begin, (u.name, u.end, []))
            if u.about and u.about not in entry[2]:
                entry[2].append(u.about)
    out: Dict[str, Callable[[], None]] = {}
    for begin, (unit, end, abouts) in units.items():
        out[begin], out[end] = section_functions(unit, begin, end, "\n".join(abouts))
    return out


def simd_fpu_begin(untraced: bool = False) -> bool:
    """``if crypto_simd_usable(): kernel_fpu_begin()`` in one call; True if begun.

    ``untraced=True`` also declines while an fpu_trace() records (for fast
    paths whose sections would not show the real ones).
    """
    c = _choice.get()
    if c == GENERIC or (untraced and c == DECLINE):
        return False
    kernel_fpu_begin()
    return True


def fpu_owned() -> bool:
    """Whether this thread is inside an FPU section (a token for fpu_recover)."""
    return _cpu.in_fpu


def fpu_recover(owned_before: bool, who: str) -> None:
    """After a driver raised: close a section it left open (a kernel WARN)."""
    if _cpu.in_fpu and not owned_before:
        logging.getLogger("crypto_api").warning(
            "%s: failed inside kernel_%s_begin without kernel_%s_end; section closed",
            who, _cpu.unit, _cpu.unit)
        _end(_cpu.unit, "fpu_recover")


def kernel_fpu_yield() -> None:
    """End the section and begin a new one (of the same unit): a preemption point."""
    unit = _cpu.unit
    _end(unit, "kernel_fpu_yield")
    _begin(unit, "kernel_fpu_yield")


def in_kernel_fpu() -> bool:
    return _cpu.in_fpu


def fpu_tracing() -> bool:
    """True while an fpu_trace() is recording in this context."""
    return bool(_switches.get().traces)


def fpu_account(nbytes: int) -> None:
    """Record that ``nbytes`` were processed inside the current section."""
    sec = _cpu.section
    if sec is not None:
        sec.nbytes += nbytes


def fpu_record_worker(worker: int, nbytes: int, unit: str = "fpu") -> None:
    """Record in this context's traces that native worker ``worker`` of a
    batch (crypto_api/batch.py) ran ``nbytes`` with SIMD in a section of its
    own: the worker plays another CPU, so the section is closed when the
    batch returns and is not this thread's."""
    sw = _switches.get()
    if sw.traces:
        sec = FpuSection(nbytes=nbytes, closed=True, unit=unit, worker=worker)
        for t in sw.traces:
            t.sections.append(sec)


def might_sleep(where: str) -> None:
    """A point where the caller may sleep; a bug inside an FPU section."""
    if _cpu.in_fpu:
        raise FpuUsageError(f"{where}: sleeping function called inside a kernel_fpu_begin section")


@contextlib.contextmanager
def _raised(switch: str) -> Iterator[None]:
    """One more level of the counted context ``switch`` (a _Switches field) inside."""
    sw = _switches.get()
    _set(sw._replace(**{switch: getattr(sw, switch) + 1}))
    try:
        yield
    finally:
        sw = _switches.get()
        _set(sw._replace(**{switch: getattr(sw, switch) - 1}))


def simd_disabled() -> ContextManager[None]:
    """crypto_simd_usable() is False inside (the self-test manager's nosimd)."""
    return _raised("nosimd")


def interrupt_context() -> ContextManager[None]:
    """Run as if in a hard interrupt: the FPU cannot be used at all."""
    return _raised("irq")


def softirq_context() -> ContextManager[None]:
    """Run as if in a softirq (bottom half): SIMD stays usable, except on a
    machine whose descriptor says otherwise (v5.0 arm's ``!in_interrupt()``),
    where opening a SIMD section there is a bug."""
    return _raised("softirq")


@contextlib.contextmanager
def fpu_trace() -> Iterator[FpuTrace]:
    """Record every FPU section opened in this context inside the block."""
    trace = FpuTrace()
    sw = _switches.get()
    _set(sw._replace(traces=sw.traces + (trace,)))
    try:
        yield trace
    finally:
        sw = _switches.get()
        _set(sw._replace(traces=tuple(t for t in sw.traces if t is not trace)))
