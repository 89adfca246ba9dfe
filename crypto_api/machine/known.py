"""The machines crypto_api knows, found as its modules are: through entry points.

Every architecture registers its descriptor (crypto_api.machine.spec) under
the entry-point group ``crypto_api.machines``, named by the machine::

    [project.entry-points."crypto_api.machines"]
    arm64 = "crypto_api.arch.arm64.machine:MACHINE"

This project's own machines are listed there too (x86_64, the host, among
them), and an out-of-tree package may add one the same way.  The core asks
this module for a machine by name, never keeps a table of its own: adding a
machine is its ``arch/<arch>/`` directory and that one line.

An entry that does not import, is not a MachineSpec, is named differently
from its spec, or takes a name or alias another machine already has is
reported (a warning) and left out; the others stay usable.  Machines are
listed by name (installers do not keep the entry points' order).

A build tree has no installed metadata to read entry points from: the
helpers' prebuild (crypto_api.machine.prebuild) takes the machines of the
tree it builds instead, each ``arch/<dir>/machine.py`` (:func:`tree_machines`,
:func:`use`); tests/core/test_machine_registry.py checks that those and the entry
points are the same machines.  Standard library only, as the specs.
"""

from __future__ import annotations

import importlib
import logging
import os
import threading
from importlib import metadata
from typing import Dict, Iterable, List, Optional, Tuple

from ..errors import EINVAL, CryptoError
from .spec import MachineSpec

ENTRY_POINT_GROUP = "crypto_api.machines"

log = logging.getLogger("crypto_api")

_lock = threading.RLock()
_machines: Optional[Dict[str, MachineSpec]] = None      # name -> spec, by name
_names: Dict[str, str] = {}                               # name or alias (lower case) -> name


def _register(found: Iterable[Tuple[str, str, object]]) -> None:
    """Index ``(entry name, where, spec)`` triples, leaving out (with a warning) the bad ones."""
    global _machines
    specs: Dict[str, MachineSpec] = {}
    names: Dict[str, str] = {}
    for entry, where, spec in sorted(found, key=lambda f: f[0]):
        if not isinstance(spec, MachineSpec):
            log.warning("crypto_api: machine %s (%s) is not a MachineSpec: left out", entry, where)
            continue
        if spec.name != entry:
            log.warning("crypto_api: machine entry %s (%s) describes %r: left out", entry, where, spec.name)
            continue
        spellings = [spec.name.lower()] + [a.lower() for a in spec.aliases]
        taken = [s for s in spellings if names.get(s, spec.name) != spec.name]
        if spec.name in specs or taken:
            clash = spec.name if spec.name in specs else ", ".join(taken)
            log.warning("crypto_api: machine %s (%s): %s already names another machine: left out",
                        entry, where, clash)
            continue
        specs[spec.name] = spec
        for s in spellings:
            names[s] = spec.name
    _machines = specs
    _names.clear()
    _names.update(names)


def _from_entry_points() -> Iterable[Tuple[str, str, object]]:
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        try:
            yield ep.name, ep.value, ep.load()
        except Exception as e:  # a broken plug-in must not hide the other machines
            log.warning("crypto_api: cannot import machine %s (%s): %s", ep.name, ep.value, e)


def machines() -> Dict[str, MachineSpec]:
    """name -> MachineSpec of every registered machine, by name."""
    with _lock:
        if _machines is None:
            _register(_from_entry_points())
        assert _machines is not None
        return dict(_machines)


def machine_names() -> Tuple[str, ...]:
    """The names of the registered machines, in order."""
    return tuple(machines())


def find_machine(name: str) -> Optional[MachineSpec]:
    """The machine ``name`` or one of its aliases spells (case-insensitive), or None."""
    specs = machines()
    with _lock:
        canonical = _names.get(name.strip().lower())
    return specs.get(canonical) if canonical else None


def machine_spec(arch: str) -> MachineSpec:
    """The machine named ``arch`` (or an alias of it); EINVAL naming the known ones if none."""
    spec = find_machine(arch)
    if spec is None:
        raise CryptoError(EINVAL, f"machine: unknown architecture {arch!r} (known: {', '.join(machine_names())})")
    return spec


def emulated_machines() -> Tuple[MachineSpec, ...]:
    """The machines that can run on another host (those with a toolchain), in order."""
    return tuple(m for m in machines().values() if m.emulatable)


def tree_machines(arch_root: str, package: str = "crypto_api.arch") -> List[Tuple[str, str, object]]:
    """``(name, module, MACHINE)`` of each ``<arch_root>/<dir>/machine.py``, imported as
    ``<package>.<dir>.machine``: a tree's machines without metadata."""
    found = []
    for d in sorted(os.listdir(arch_root)):
        if os.path.isfile(os.path.join(arch_root, d, "machine.py")):
            mod = f"{package}.{d}.machine"
            spec = importlib.import_module(mod).MACHINE
            found.append((getattr(spec, "name", d), mod, spec))
    return found


def use(found: Iterable[Tuple[str, str, object]]) -> None:
    """Make ``found`` (as :func:`tree_machines` gives them) the registered machines."""
    with _lock:
        _register(found)


def rescan() -> None:
    """Forget the machines found (read the entry points again at the next question)."""
    global _machines
    with _lock:
        _machines = None
        _names.clear()
