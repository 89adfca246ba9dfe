"""A core: C sources of one architecture and the prototypes the glue calls.

The descriptor of an arch core (``arch/<arch>/cores_*.py`` list them);
:func:`arch_cores` collects an architecture's cores from the ``cores``
module of its package (the machine descriptor's ``package``,
``crypto_api.arch.<dir>``).

Standard library only, as crypto_api.machine.cdefs (the helpers' prebuild
runs it where the run-time dependencies are not installed).
"""

from __future__ import annotations

import glob
import importlib
import os
import sys
from dataclasses import dataclass
from typing import Dict, List, Tuple

from ..errors import EEXIST, ENOENT, CryptoError
from .cdefs import Function, parse_cdef
from .known import machine_spec


# keyword-only where dataclasses can say so (3.10 and later)
@dataclass(frozen=True, **({"kw_only": True} if sys.version_info >= (3, 10) else {}))
class Core:
    """One core: ``sources`` (relative to ``arch/<arch>/``), its ``cdef``
    prototypes, extra ``cflags`` and the HWCAP ``feature`` it needs."""

    name: str
    sources: Tuple[str, ...]
    cdef: str
    cflags: Tuple[str, ...] = ()
    feature: str = "asimd"

    def functions(self) -> List[Function]:
        return parse_cdef(self.cdef, f"core {self.name}")

    def instruction_set(self) -> str:
        """The instruction set the core is built for (its -march or -mcpu, else the baseline)."""
        march = [f.split("=", 1)[1] for f in self.cflags if f.startswith(("-march=", "-mcpu="))]
        fpu = [f.split("=", 1)[1] for f in self.cflags if f.startswith("-mfpu=")]
        isa = (march[-1] if march else "the arch baseline") + (f"+{fpu[-1]}" if fpu else "")
        return f"{isa} (HWCAP feature {self.feature!r})"


def collect_cores(package: str, directory: str) -> List[Core]:
    """The ``CORES`` lists of ``<package>.cores_*`` (the files ``cores_*.py`` of
    ``directory``), concatenated in sorted file order: an arch's ``cores.py``."""
    out: List[Core] = []
    for path in sorted(glob.glob(os.path.join(directory, "cores_*.py"))):
        name = os.path.splitext(os.path.basename(path))[0]
        out += importlib.import_module(f"{package}.{name}").CORES
    return out


def arch_dir(arch: str) -> str:
    """The directory holding an architecture's sources (its descriptor's package)."""
    mod = importlib.import_module(machine_spec(arch).package)
    return os.path.dirname(os.path.abspath(mod.__file__))


def arch_cores(arch: str) -> Dict[str, Core]:
    """name -> Core for every core of ``arch`` (``<package>.cores.CORES``, the package
    of its descriptor)."""
    try:
        mod = importlib.import_module(f"{machine_spec(arch).package}.cores")
    except ModuleNotFoundError:
        raise CryptoError(ENOENT, f"machine: architecture {arch} has no cores") from None
    out: Dict[str, Core] = {}
    for c in mod.CORES:
        if c.name in out:
            raise CryptoError(EEXIST, f"machine: two {arch} cores are named {c.name!r}")
        out[c.name] = c
    return out
