"""The machine crypto_api boots as: its architecture, CPU model and features.

(crypto_api.machine re-exports this module's names.)

The kernel is built for one architecture; so is one crypto_api process.  It
boots as the host unless ``CRYPTO_API_ARCH`` (``x86_64``, ``arm64``, ``arm``, ``ppc64le``)
and ``CRYPTO_API_CPU`` (a qemu CPU model: ``max``, ``cortex-a53``, ``cortex-a7``,
``power9``, ...) — or the
CLI's ``--arch`` / ``--cpu`` through :func:`select_machine_from_options` —
choose another before the first module loads.  A foreign machine is
emulated: its cores run in a helper under qemu-user (crypto_api.machine.qemu),
and its CPU model must be one the installed qemu-user knows
(crypto_api.machine.cpu_models).

CPU features are the emulated CPU's own HWCAP words, read by the helper with
``getauxval``, never the host's, decoded by :data:`HWCAP_NAMES`
(arch/arm64/include/uapi/asm/hwcap.h and arch/powerpc/include/uapi/asm/cputable.h
bit names, as ``/proc/cpuinfo`` prints them).
"""

from __future__ import annotations

import os
import platform
import threading
from typing import Optional, Tuple

import attrs

from ..errors import EBUSY, EINVAL, CryptoError

__all__ = ["ARCHES", "ARM64_HWCAP", "ARM_HWCAP", "ARM_HWCAP2", "DEFAULT_CPUS", "HWCAP_NAMES",
           "PPC64LE_HWCAP", "PPC64LE_HWCAP2", "Machine", "current_machine", "host_arch",
           "hwcap_features", "select_machine", "select_machine_from_options"]

#: Architectures a machine may be booted as (Kbuild-like names).
ARCHES = ("x86_64", "arm64", "arm", "ppc64le")

#: arm64 ``elf_hwcap`` bit names, bit 0 first (v5.0 uapi/asm/hwcap.h).
ARM64_HWCAP = ("fp", "asimd", "evtstrm", "aes", "pmull", "sha1", "sha2", "crc32", "atomics",
               "fphp", "asimdhp", "cpuid", "asimdrdm", "jscvt", "fcma", "lrcpc", "dcpop", "sha3",
               "sm3", "sm4", "asimddp", "sha512", "sve", "asimdfhm", "dit", "uscat", "ilrcpc",
               "flagm", "ssbs", "sb", "paca", "pacg")

#: arm (32-bit) ``elf_hwcap`` / ``elf_hwcap2`` bit names (arch/arm/include/uapi/asm/hwcap.h).
ARM_HWCAP = ("swp", "half", "thumb", "26bit", "fastmult", "fpa", "vfp", "edsp", "java", "iwmmxt",
             "crunch", "thumbee", "neon", "vfpv3", "vfpv3d16", "tls", "vfpv4", "idiva", "idivt",
             "vfpd32", "lpae", "evtstrm")
ARM_HWCAP2 = ("aes", "pmull", "sha1", "sha2", "crc32")

#: The CPU model an emulated machine boots with when none is chosen.
DEFAULT_CPUS = {"arm64": "max", "arm": "cortex-a7", "ppc64le": "power9"}

#: Host ``platform.machine()`` names -> the kernel's architecture names.
_ARCH_ALIASES = {"aarch64": "arm64", "arm64": "arm64", "amd64": "x86_64",
                 "armv7l": "arm", "armv7hl": "arm", "armhf": "arm", "arm32": "arm",
                 "ppc64el": "ppc64le", "powerpc64le": "ppc64le"}

#: powerpc AT_HWCAP bit names, bit 0 first (uapi/asm/cputable.h PPC_FEATURE_*; "" unnamed).
PPC64LE_HWCAP = ("ppcle", "true_le", "", "", "", "", "archpmu", "vsx", "arch_2_06", "power6x",
                 "dfp", "pa6t", "arch_2_05", "ic_snoop", "smt", "booke", "cellbe", "power5+",
                 "power5", "power4", "notb", "efpdouble", "efpsingle", "spe", "ucache", "4xxmac",
                 "mmu", "fpu", "altivec", "ppc601", "ppc64", "ppc32")
#: powerpc AT_HWCAP2 bit names, bit 0 first (PPC_FEATURE2_*: vcrypto POWER8, arch_3_00
#: POWER9, arch_3_1 POWER10).
PPC64LE_HWCAP2 = ("",) * 17 + ("mma", "arch_3_1", "htm-no-suspend", "scv", "darn", "ieee128",
                                "arch_3_00", "htm-nosc", "vcrypto", "tar", "isel", "ebb", "dscr",
                                "htm", "arch_2_07")

#: Per architecture: the names of the AT_HWCAP and AT_HWCAP2 bits, bit 0 first (an arch
#: missing here decodes none).
HWCAP_NAMES = {"arm64": (ARM64_HWCAP, ()), "arm": (ARM_HWCAP, ARM_HWCAP2),
               "ppc64le": (PPC64LE_HWCAP, PPC64LE_HWCAP2)}


def host_arch() -> str:
    """The host's architecture under the kernel's name (aarch64 is arm64)."""
    m = platform.machine().lower()
    return _ARCH_ALIASES.get(m, m)


def hwcap_features(arch: str, hwcap: int, hwcap2: int = 0) -> Tuple[str, ...]:
    """Feature names of an architecture's HWCAP words (:data:`HWCAP_NAMES`; none for x86_64)."""
    names1, names2 = HWCAP_NAMES.get(arch, ((), ()))
    return (tuple(n for i, n in enumerate(names1) if n and hwcap >> i & 1)
            + tuple(n for i, n in enumerate(names2) if n and hwcap2 >> i & 1))


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

    def describe(self) -> str:
        kind = "emulated" if self.emulated else "native"
        return f"{self.arch} ({kind}, cpu {self.cpu})"


def _read_features(m: Machine) -> Tuple[str, ...]:
    """HWCAP feature names of the machine's CPU: the emulated CPU's words as
    its helper reads them, or this host's (an arm64 host).  The x86_64
    machine lists none here: x86 drivers ask arch/x86/cpufeature.py."""
    if m.arch == "x86_64":
        return ()
    if m.emulated:
        from .qemu import helper
        h = helper(m.arch, m.cpu)
        return hwcap_features(m.arch, h.hwcap, h.hwcap2)
    import ctypes
    libc = ctypes.CDLL(None)
    libc.getauxval.restype = ctypes.c_ulong
    return hwcap_features(m.arch, int(libc.getauxval(16)), int(libc.getauxval(26)))   # AT_HWCAP, AT_HWCAP2


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
    arch = (arch_given or host).strip().lower()
    arch = _ARCH_ALIASES.get(arch, arch)
    if arch not in ARCHES:
        raise CryptoError(EINVAL, f"machine: unknown architecture {arch!r} ({_given(labels[0], arch_given)}; "
                          f"known: {', '.join(ARCHES)})")
    emulated = arch != host
    if arch == "x86_64" and emulated:
        raise CryptoError(EINVAL, f"machine: x86_64 cannot be emulated on a {host} host")
    chosen = (cpu_given or "").strip()
    cpu = chosen or (DEFAULT_CPUS.get(arch, "max") if emulated else "host")
    if arch == "x86_64" and cpu != "host":
        raise CryptoError(EINVAL, f"machine: the x86_64 machine is the host CPU ({_given(labels[1], cpu_given)} "
                          "is for emulated machines; CRYPTO_API_CPU_MASK masks x86 features)")
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
