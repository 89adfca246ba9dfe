"""Machines: which architecture and CPU crypto_api boots as, and how cores run.

``current_machine()`` (crypto_api.machine.selection) is the booted machine;
each architecture describes itself (crypto_api.machine.spec) in
``arch/<arch>/machine.py`` and registers under the entry-point group
``crypto_api.machines`` (crypto_api.machine.known);
``crypto_api.machine.backend.load(arch, core)`` gives a core's functions,
natively or through the qemu-user helper (crypto_api.machine.qemu, built by
crypto_api.machine.helper_build from the cores of arch/<arch>/cores*.py).
"""

from .known import emulated_machines, find_machine, machine_names, machine_spec, machines
from .selection import (Machine, current_machine, host_arch, hwcap_features, select_machine,
                        select_machine_from_options)
from .spec import MachineSpec, SimdUnit, Toolchain

__all__ = ["Machine", "MachineSpec", "SimdUnit", "Toolchain", "current_machine", "emulated_machines",
           "find_machine", "host_arch", "hwcap_features", "machine_names", "machine_spec", "machines",
           "select_machine", "select_machine_from_options"]
