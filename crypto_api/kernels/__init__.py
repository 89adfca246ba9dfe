"""Emulating one kernel version: the version table, the switch, the registry's rule.

No kernel counterpart.  :mod:`.table` holds the facts (which driver and
template each version has, under which name and priority, and the source of
each), :mod:`.versions` the choice of version, :mod:`.query` the questions
asked of the table.  Importing this package installs the registry's version
rule: while a version is followed (6.18 unless another is chosen; none
under ``composite``), each driver a module registers is looked up
in the table and registered as that version had it (renamed, re-prioritised)
or not at all; drivers the table does not know (plug-ins) register as they
are.  It also installs the coldplug rule: the modules that version's booted
system has loaded by their CPU device table (the table's ``DEVICE_TABLES``)
load at the emulated boot, before the first lookup; the alias rule: a
driver that version renames is found by its new name (its module declares
it); and testmgr's entries
(present or not, the generic driver compared with) as that version had them;
and the answer to crypto_api.version_rules: the core's and the glue's rules
(XTS stealing, ``setauthsize(0)``, duplicate driver names, SIMD sections)
as that version had them.  :func:`boot` chooses the version, machine and CPU
in one call.
"""

from __future__ import annotations

from typing import Any, Optional

import attrs

from .. import modules, registry, version_rules
from ..testmgr import descs as testmgr
from .query import coldplugged, decide, rows_for, rule_row, testmgr_entry, unsettled
from .versions import COMPOSITE, DEFAULT, KNOWN, RELEASES, bracket, check, describe, select, selected

__all__ = ["COMPOSITE", "DEFAULT", "KNOWN", "RELEASES", "boot", "caveat", "check", "describe", "select",
           "selected"]


def _machine() -> str:
    from ..machine.selection import current_machine
    return current_machine().arch


_no_arch_code: dict = {}


def _rows_machine() -> str:
    """The machine whose driver rows apply: the chosen one, or the generic rows
    alone where no arch module can load (modules.generic_only, or an emulated
    machine whose code cannot run here: a kernel built without arch code, so
    e.g. 6.18's *-lib ChaCha drivers are the generic module's, not the
    machine library's)."""
    from ..machine.emulation import drivers_problem
    from ..machine.selection import current_machine
    if modules.generic_only_chosen():
        return "*"
    m = current_machine()
    key = (m.arch, m.cpu)
    if key not in _no_arch_code:
        _no_arch_code[key] = m.emulated and drivers_problem(m) is not None
    return "*" if _no_arch_code[key] else m.arch


def _driver(desc: Any) -> Any:
    version = selected()
    if version is None:
        return desc
    ours = desc.cra_driver_name or desc.cra_name + "-generic"
    governed, row = decide("driver", _rows_machine(), ours, version)
    if not governed:
        return desc
    if row is None:
        return None
    prio = desc.cra_priority if row.lowered is not None and desc.cra_priority == row.lowered else row.priority
    if row.driver == desc.cra_driver_name and prio == desc.cra_priority:
        return desc
    return attrs.evolve(desc, cra_driver_name=row.driver, cra_priority=prio)


def _template(name: str) -> bool:
    version = selected()
    if version is None:
        return True
    governed, row = decide("template", _machine(), name, version)
    return not governed or row is not None


def _coldplug() -> list:
    """The modules the chosen version's booted system loaded by their CPU device table."""
    version = selected()
    if version is None:
        return []
    return [t.module for t in coldplugged(version, _machine())]


def _aliases() -> dict:
    """The chosen version's names of renamed drivers, as aliases of their modules
    (``MODULE_ALIAS_CRYPTO`` of each driver name in that kernel's module)."""
    version = selected()
    out: dict = {}
    if version is not None:
        for r in rows_for(version, _machine()):
            if r.what == "driver" and r.driver != r.ours:
                for alias in modules.MODULE_ALIAS_CRYPTO(r.driver):
                    out.setdefault(alias, []).append(r.module)
    return out


def _testmgr(alg: str):
    """(present, generic driver) of ``alg``'s testmgr entry in the chosen version, or None."""
    version = selected()
    entry = None if version is None else testmgr_entry(alg, version)
    return None if entry is None else (entry.present, entry.generic_driver)


def _rule(name: str) -> Optional[str]:
    """The followed version's value of the rule ``name`` on this machine (None:
    the composite registry, or the table has no row for it there)."""
    version = selected()
    if version is None:
        return None
    row = rule_row(name, _machine(), version)
    return None if row is None else row.value


registry.set_version_rule(registry.VersionRule(driver=_driver, template=_template))
version_rules.set_rule_source(_rule)
modules.set_coldplug_rule(_coldplug)
modules.set_alias_rule(_aliases)
testmgr.set_version_entries(_testmgr)


def caveat(version: Optional[str] = None) -> str:
    """One line for a release the table's sources did not read (``version``, else
    the followed one): the read versions around it and how many facts changed
    between them at a point not settled (``crypto-api kernels VERSION`` lists
    them); empty for a read version and for the composite registry."""
    v = selected() if version is None else check(version)
    if v is None or v == COMPOSITE:
        return ""
    lo, hi = bracket(v)
    if lo == hi:
        return ""
    machine = _machine()
    doubtful = unsettled(v, machine)
    return (f"Linux {v} was not read: it answers from the table's ranges between the read versions {lo} "
            f"and {hi}; {len(doubtful)} fact{'s' if len(doubtful) != 1 else ''} on {machine} changed in "
            f"that span at a point the sources did not settle (crypto-api kernels {v} lists them)")


def boot(kernel: Optional[str] = None, arch: Optional[str] = None, cpu: Optional[str] = None) -> str:
    """Choose the kernel version (None: keep the current choice), the machine and
    its CPU model before the first module loads; returns :func:`describe`'s text.

    EINVAL for an unknown version (the message names the known ones); EBUSY
    once modules are loaded under another choice."""
    if kernel is not None:
        check(kernel)
    if arch is not None or cpu is not None:
        from ..machine.selection import select_machine
        select_machine(arch, cpu)
    if kernel is not None:
        select(kernel)
    return describe()
