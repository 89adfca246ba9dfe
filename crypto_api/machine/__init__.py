"""Machines: which architecture and CPU crypto_api boots as, and how cores run.

``current_machine()`` (crypto_api.machine.selection) is the booted machine;
``crypto_api.machine.backend.load(arch, core)`` gives a core's functions,
natively or through the qemu-user helper (crypto_api.machine.qemu, built by
crypto_api.machine.helper_build from the cores of arch/<arch>/cores*.py).
"""

from .selection import (ARCHES, ARM64_HWCAP, ARM_HWCAP, ARM_HWCAP2, DEFAULT_CPUS, HWCAP_NAMES,
                        PPC64LE_HWCAP, PPC64LE_HWCAP2, Machine, current_machine, host_arch,
                        hwcap_features, select_machine, select_machine_from_options)

__all__ = ["ARCHES", "ARM64_HWCAP", "ARM_HWCAP", "ARM_HWCAP2", "DEFAULT_CPUS", "HWCAP_NAMES",
           "PPC64LE_HWCAP", "PPC64LE_HWCAP2", "Machine", "current_machine", "host_arch",
           "hwcap_features", "select_machine", "select_machine_from_options"]
