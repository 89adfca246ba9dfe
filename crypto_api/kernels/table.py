"""The kernel-version table: which driver and template exists in which kernel.

No kernel counterpart: facts gathered from the kernels' sources, with the file
and version each row comes from, and the project's reference that read it
(which names the kernel trees read).  One row (crypto_api.kernels.row) says,
for one of this project's drivers (its ``ours`` driver name, as its module
registers it) or templates, on the machines named (``*``: every machine),
over the versions ``[since, until)`` (``until`` None: still in the latest
release), whether the kernel has it and under which driver name and
priority.  A driver or template with rows but none covering a version is
absent from that version; one with no rows at all (plug-ins, tests' drivers)
is not governed by the table.

``status`` says how the row is applied:

* ``kernel``: as the kernel has it (``driver``/``priority`` are the kernel's);
* ``project``: a driver this project adds that no kernel has (the one-pass
  ChaCha20-Poly1305 AEADs, the seed designs, the 64-bit-limb Poly1305).  They
  stay in every version at their own (low, or explicit) priority, so that
  ``cra_name`` lookups resolve as the kernel's would except where the project
  deliberately adds a faster driver; ``note`` says which;
* ``kept``: the kernel of that range has no such driver, but this project keeps
  it registered because another part of it needs it (the reason in ``note``).

A machine's ``kernel_rows`` module may also list ``DEVICE_TABLES``
(crypto_api.kernels.row.DeviceTable): the modules that a booted system of
that version has already loaded, by udev's coldplug of their CPU device
table, before any process looks a name up; and ``TESTMGR``
(crypto_api.kernels.row.TestmgrEntry): testmgr's entries by version and the
generic driver each one's full tests compare against; and ``RULES``
(crypto_api.kernels.row.Rule): the glue's rules that changed by version
(its SIMD sections).  The core's own rules (XTS stealing, ``setauthsize(0)``,
duplicate driver names) are crypto_api.kernels.core_rules' ``RULES``.

``unknown`` names what the sources did not settle; nothing there is guessed
silently: where a priority is unknown the project's own is kept and said so.

The rows live with what they describe, so that the core names no machine:
``crypto_api.algs.kernel_rows`` (generic drivers, templates) and the
``kernel_rows`` module of each registered machine's package; :func:`rows`
collects them once, in that order.
"""

from __future__ import annotations

import importlib
from typing import Dict, List, Optional, Tuple

from .row import DeviceTable, Row, Rule, TestmgrEntry

GENERIC_ROWS = "crypto_api.algs.kernel_rows"
CORE_RULES = "crypto_api.kernels.core_rules"
_Collected = Tuple[Tuple[Row, ...], Dict[str, Tuple[str, ...]], Tuple[DeviceTable, ...],
                   Tuple[TestmgrEntry, ...], Tuple[Rule, ...]]
_collected: Optional[_Collected] = None


def _collect() -> _Collected:
    global _collected
    if _collected is None:
        from ..machine.known import machines
        found: List[Row] = []
        tables: List[DeviceTable] = []
        entries: List[TestmgrEntry] = []
        rules: List[Rule] = []
        notes: Dict[str, Tuple[str, ...]] = {}
        sources = [("*", CORE_RULES), ("*", GENERIC_ROWS)] + [(name, spec.package + ".kernel_rows")
                                           for name, spec in machines().items()]
        for owner, path in sources:
            try:
                mod = importlib.import_module(path)
            except ModuleNotFoundError as e:
                if e.name != path:
                    raise
                continue                # a machine with no rows: its drivers are ungoverned
            found += getattr(mod, "ROWS", ())
            rules += getattr(mod, "RULES", ())
            tables += getattr(mod, "DEVICE_TABLES", ())
            entries += getattr(mod, "TESTMGR", ())
            notes[owner] = notes.get(owner, ()) + tuple(getattr(mod, "NOT_MODELLED", ()))
        _collected = (tuple(found), notes, tuple(tables), tuple(entries), tuple(rules))
    return _collected


def rows() -> Tuple[Row, ...]:
    """Every row of the table."""
    return _collect()[0]


def not_modelled() -> Dict[str, Tuple[str, ...]]:
    """owner (``*`` or a machine) -> what the table does not cover there."""
    return _collect()[1]


def device_tables() -> Tuple[DeviceTable, ...]:
    """The modules with a CPU device table (loaded at boot), every machine's."""
    return _collect()[2]


def testmgr_entries() -> Tuple[TestmgrEntry, ...]:
    """testmgr's entries and generic drivers per version (the sibling table)."""
    return _collect()[3]


def rules() -> Tuple[Rule, ...]:
    """The core's and the glue's rules per version (crypto_api.version_rules asks them)."""
    return _collect()[4]
