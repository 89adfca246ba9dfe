"""The descriptor of a machine: everything the core knows about one architecture.

Each architecture describes itself in ``arch/<arch>/machine.py`` (a
:class:`MachineSpec` named ``MACHINE``) and registers it under the
entry-point group ``crypto_api.machines`` (crypto_api.machine.known);
the core keeps no table of its own.  A spec says what the kernel's
``arch/<arch>/`` says to the rest of the kernel: the architecture's name and
the other spellings of it (``uname -m``, Debian), the names of its HWCAP
bits, its kernel-mode SIMD units and their rules; and what running it here
takes: the cross toolchain and qemu-user binary that build and run its
helper, and the CPU model it boots with.  A machine with no toolchain is
never emulated: it can only be the host (x86_64 here).

Standard library only, as crypto_api.machine.core (the helpers' prebuild
reads the specs where the run-time dependencies are not installed).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Optional, Tuple

# keyword-only where dataclasses can say so (3.10 and later), as crypto_api.machine.core.Core
_KW = {"kw_only": True} if sys.version_info >= (3, 10) else {}


@dataclass(frozen=True, **_KW)
class Toolchain:
    """What builds and runs an emulated machine's static helper: the cross
    compiler and its Debian packages (named in the errors when missing), the
    base flags every core starts from, the qemu-user binary and its package."""

    cc: str
    packages: str
    cflags: Tuple[str, ...]
    qemu: str
    qemu_package: str = "qemu-user"


@dataclass(frozen=True, **_KW)
class SimdUnit:
    """A kernel-mode SIMD unit whose sections the machine's drivers open and
    close (``kernel_neon_begin``/``kernel_neon_end``): ``name`` is what a
    section of ``fpu_trace()`` reports as its unit, ``begin``/``end`` the
    kernel functions the public API provides for it, ``about`` what the
    kernel's pair does (their docstrings).  Two machines may declare the same
    unit (arm and arm64 both have NEON): the API has one pair of functions."""

    name: str
    begin: str
    end: str
    about: str = ""


@dataclass(frozen=True, **_KW)
class MachineSpec:
    """One architecture crypto_api can boot as.

    ``name`` is the kernel's architecture name, the one ``CRYPTO_API_ARCH``,
    ``--arch`` and a driver's ``MODULE_ARCH`` use; ``aliases`` are the other
    spellings accepted for it (``platform.machine()`` of such a host, the
    Debian architecture).  ``package`` is the Python package of its drivers
    and cores (``crypto_api.arch.<dir>``): its modules load on this machine
    only.  ``hwcap``/``hwcap2`` name the AT_HWCAP/AT_HWCAP2 bits, bit 0 first
    (``""`` for an unnamed bit; none: the features come from elsewhere, as
    x86's CPUID).  ``default_cpu`` is the qemu ``-cpu`` model an emulated
    machine boots with when none is chosen; ``cpu_models`` are the models
    worth naming in the help text.  ``toolchain`` builds and runs its helper
    (None: never emulated, only ever the host).  ``simd_units`` are its
    kernel-mode SIMD units; ``simd_in_softirq`` False makes may_use_simd()
    false in a softirq too (v5.0 arm's ``!in_interrupt()``).  ``cpu_note`` is
    what a refused ``--cpu`` on a never-emulated machine suggests instead.
    """

    name: str
    package: str
    aliases: Tuple[str, ...] = ()
    hwcap: Tuple[str, ...] = ()
    hwcap2: Tuple[str, ...] = ()
    default_cpu: str = "max"
    cpu_models: Tuple[str, ...] = ()
    toolchain: Optional[Toolchain] = None
    simd_units: Tuple[SimdUnit, ...] = ()
    simd_in_softirq: bool = True
    cpu_note: str = ""

    @property
    def emulatable(self) -> bool:
        """Whether the machine can run on another host (it has a toolchain)."""
        return self.toolchain is not None

    def features(self, hwcap: int, hwcap2: int = 0) -> Tuple[str, ...]:
        """The names of the bits set in the HWCAP words (unnamed bits left out)."""
        return (tuple(n for i, n in enumerate(self.hwcap) if n and hwcap >> i & 1)
                + tuple(n for i, n in enumerate(self.hwcap2) if n and hwcap2 >> i & 1))
