"""The machine crypto_api boots as: its architecture, CPU model and features.

(crypto_api.machine re-exports this module's names.)

The kernel is built for one architecture; so is one crypto_api process.  It
boots as the host unless ``CRYPTO_API_ARCH`` (a registered machine's name,
crypto_api.machine.known) and ``CRYPTO_API_CPU`` (a qemu CPU model) — or
the CLI's ``--arch`` / ``--cpu`` through :func:`select_machine_from_options`
— choose another before the first module loads.  A foreign machine is
emulated: its cores run in a helper under qemu-user (crypto_api.machine.qemu),
and its CPU model must be one the installed qemu-user knows
(crypto_api.machine.cpu_models).  What the core knows of an architecture
(its other spellings, default CPU model, whether it can be emulated) is its
descriptor's (crypto_api.machine.spec).

CPU features are the emulated CPU's own HWCAP words, read by the helper with
``getauxval``, never the host's, decoded by the names of the machine's
descriptor (as ``/proc/cpuinfo`` prints them).
"""

from __future__ import annotations

import os
import platform
import threading
from typing import Optional, Tuple

import attrs

from ..errors import EBUSY, EINVAL, CryptoError
from .known import find_machine, machine_names
from .spec import MachineSpec

__all__ = ["Machine", "current_machine", "host_arch", "hwcap_features", "select_machine",
           "select_machine_from_options"]


def host_arch() -> str:
    """The host's architecture under the kernel's name (a machine's alias, as aarch64, is its name)."""
    m = platform.machine().lower()
    spec = find_machine(m) if m else None
    return spec.name if spec is not None else m


def hwcap_features(arch: str, hwcap: int, hwcap2: int = 0) -> Tuple[str, ...]:
    """Feature names of an architecture's HWCAP words (its descriptor's bit names; none
    for a machine that names no bits, or an unknown one)."""
    spec = find_machine(arch)
    return spec.features(hwcap, hwcap2) if spec is not None else ()


@attrs.define
class Machine:
    """A booted machine.  ``features`` is read lazily (an emulated machine
    starts its helper to read them); ``has()`` answers from them."""

    arch: str
    cpu: str
    emulated: bool
    _features: Optional[Tuple[str, ...]] = None

    @property
    def features(self) -> Tuple[str, ...]:
        if self._features is None:
            self._features = _read_features(self)
        return self._features

    def has(self, feature: str) -> bool:
        """True if the machine's CPU reports ``feature`` (e.g. "asimd", "aes").

        On an emulated machine whose tools are missing this raises
        CryptoError(ENODEV) naming the missing package, so a module init
        calling it registers nothing and says why."""
        return feature.lower() in self.features

    @property
    def spec(self) -> MachineSpec:
        """The machine's descriptor (crypto_api.machine.spec)."""
        spec = find_machine(self.arch)
        if spec is None:
            raise CryptoError(EINVAL, f"machine: unknown architecture {self.arch!r}")
        return spec

    def describe(self) -> str:
        kind = "emulated" if self.emulated else "native"
        return f"{self.arch} ({kind}, cpu {self.cpu})"


def _read_features(m: Machine) -> Tuple[str, ...]:
    """HWCAP feature names of the machine's CPU: the emulated CPU's words as
    its helper reads them, or this host's.  A machine whose descriptor names
    no HWCAP bit lists none here (x86 drivers ask arch/x86/cpufeature.py)."""
    spec = m.spec
    if not (spec.hwcap or spec.hwcap2):
        return ()
    if m.emulated:
        from .qemu import helper
        h = helper(m.arch, m.cpu)
        return spec.features(h.hwcap, h.hwcap2)
    import ctypes
    libc = ctypes.CDLL(None)
    libc.getauxval.restype = ctypes.c_ulong
    return spec.features(int(libc.getauxval(16)), int(libc.getauxval(26)))   # AT_HWCAP, AT_HWCAP2


_lock = threading.Lock()
_machine: Optional[Machine] = None


#: (value, where it came from): the label names an option (``--cpu``), an
#: environment variable (``CRYPTO_API_CPU``) or a Python argument (``cpu``).
Choice = Tuple[Optional[str], str]


def _given(label: str, value: Optional[str]) -> str:
    """How a refusal names a choice, as the user wrote it: ``--cpu pentium``,
    ``CRYPTO_API_CPU=pentium``, ``select_machine(cpu='pentium')``."""
    if label.startswith("--"):
        return f"{label} {value}"
    if label.isupper():
        return f"{label}={value}"
    return f"select_machine({label}={value!r})"


def _pick(given: Optional[str], label: str, var: str) -> Choice:
    """``given`` (labelled ``label``) if set, else the environment variable ``var``."""
    if given:
        return given, label
    return os.environ.get(var), var


def _make(arch_given: Optional[str], cpu_given: Optional[str],
          labels: Tuple[str, str] = ("arch", "cpu")) -> Machine:
    """The machine of ``arch_given``/``cpu_given`` (None: the host, the arch's default CPU);
    ``labels`` say where each came from (:data:`Choice`), for the refusals."""
    host = host_arch()
    given = (arch_given or host).strip().lower()
    spec = find_machine(given)
    if spec is None:
        raise CryptoError(EINVAL, f"machine: unknown architecture {given!r} ({_given(labels[0], arch_given)}; "
                          f"known: {', '.join(machine_names())})")
    arch = spec.name
    emulated = arch != host
    if emulated and not spec.emulatable:
        raise CryptoError(EINVAL, f"machine: {arch} cannot be emulated on a {host} host")
    chosen = (cpu_given or "").strip()
    cpu = chosen or (spec.default_cpu if emulated else "host")
    if not spec.emulatable and cpu != "host":
        note = f"; {spec.cpu_note}" if spec.cpu_note else ""
        raise CryptoError(EINVAL, f"machine: the {arch} machine is the host CPU ({_given(labels[1], cpu_given)} "
                          f"is for emulated machines{note})")
    if emulated:
        from .cpu_models import check_cpu_model
        check_cpu_model(arch, cpu, _given(labels[1], cpu_given) if chosen else f"the {arch} default")
    return Machine(arch=arch, cpu=cpu, emulated=emulated)


def current_machine() -> Machine:
    """The booted machine (chosen from the environment at the first call)."""
    global _machine
    m = _machine
    if m is None:
        with _lock:
            if _machine is None:
                _machine = _make(os.environ.get("CRYPTO_API_ARCH"), os.environ.get("CRYPTO_API_CPU"),
                                 ("CRYPTO_API_ARCH", "CRYPTO_API_CPU"))
            m = _machine
    return m


def select_machine(arch: Optional[str] = None, cpu: Optional[str] = None) -> Machine:
    """Boot as ``arch``/``cpu`` (None: the environment's choice, else the host).

    The machine is fixed by the first :func:`current_machine` call (the
    first module lookup makes one); choosing another after that is EBUSY,
    as a kernel boots one machine.  An architecture or an emulated CPU model
    that does not exist (the installed qemu-user's answer,
    crypto_api.machine.cpu_models) is EINVAL."""
    return _select(_pick(arch, "arch", "CRYPTO_API_ARCH"), _pick(cpu, "cpu", "CRYPTO_API_CPU"))


def select_machine_from_options(arch: Optional[str] = None, cpu: Optional[str] = None) -> Machine:
    """:func:`select_machine` for the command line: a refusal names the
    ``--arch`` / ``--cpu`` option the user gave rather than the variable."""
    return _select(_pick(arch, "--arch", "CRYPTO_API_ARCH"), _pick(cpu, "--cpu", "CRYPTO_API_CPU"))


def _select(arch: Choice, cpu: Choice) -> Machine:
    global _machine
    with _lock:
        want = _make(arch[0], cpu[0], (arch[1], cpu[1]))
        if _machine is not None and (_machine.arch, _machine.cpu) != (want.arch, want.cpu):
            raise CryptoError(EBUSY, f"machine: cannot boot {want.describe()}: already running as "
                              f"{_machine.describe()}")
        if _machine is None:
            _machine = want
        return _machine
