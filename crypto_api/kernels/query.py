"""Questions to the kernel-version table: what a version registers on a machine.

No kernel counterpart.  :func:`decide` is what the registry's version rule
asks at each registration; :func:`snapshot` is what a booted version shows
(the rows whose status registers something), the tests' expected set;
:func:`unsettled` what a release between two read versions cannot be sure of.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

import attrs

from .row import DeviceTable, Row, Rule, TestmgrEntry
from .table import device_tables, rules, testmgr_entries
from .table import rows as table_rows
from .versions import KNOWN, bracket, check, key

_governed: Optional[Dict[Tuple[str, str, str], List[Row]]] = None


def _index() -> Dict[Tuple[str, str, str], List[Row]]:
    global _governed
    if _governed is None:
        idx: Dict[Tuple[str, str, str], List[Row]] = {}
        for r in table_rows():
            for m in r.machines:
                idx.setdefault((r.what, m, r.ours), []).append(r)
        _governed = idx
    return _governed


def covers(row, version: str) -> bool:
    """True if ``version`` is in the row's range [since, until)."""
    v = key(version)
    return key(row.since) <= v and (row.until is None or v < key(row.until))


def rows_of(what: str, machine: str, ours: str) -> Optional[List[Row]]:
    """The rows of one driver or template on ``machine``: the machine's own
    where it has any (they replace the generic ones, so a machine can end a
    generic driver's range), else the generic ones; None if the table does
    not govern it."""
    idx = _index()
    found = idx.get((what, machine, ours)) or idx.get((what, "*", ours), [])
    return found or None


def decide(what: str, machine: str, ours: str, version: str) -> Tuple[bool, Optional[Row]]:
    """(governed, row): not governed -> (False, None); governed and absent in
    ``version`` -> (True, None); else (True, the row that applies)."""
    rows = rows_of(what, machine, ours)
    if rows is None:
        return False, None
    return True, next((r for r in rows if covers(r, version)), None)


def rows_for(version: str, machine: str) -> List[Row]:
    """The rows that apply in ``version`` on ``machine``, in table order."""
    check(version)
    idx = _index()
    return [r for r in table_rows() if covers(r, version) and (
        machine in r.machines or ("*" in r.machines and (r.what, machine, r.ours) not in idx))]


def snapshot(version: str, machine: str, lowered: bool = False) -> Dict[str, Tuple[str, int]]:
    """driver name -> (cra_name, priority) of every table driver ``version`` registers on ``machine``
    (``lowered``: on a CPU where the glue lowers some, such as x86's 512-bit drivers where 512-bit
    vectors are discouraged, at that lower priority)."""
    return {r.driver: (r.cra_name, r.lowered if lowered and r.lowered is not None else r.priority)
            for r in rows_for(version, machine) if r.what == "driver"}


def templates(version: str, machine: str) -> List[str]:
    return [r.driver for r in rows_for(version, machine) if r.what == "template"]


def coldplugged(version: str, machine: str) -> List[DeviceTable]:
    """The modules ``version``'s booted system on ``machine`` loaded by their CPU device table."""
    check(version)
    return [t for t in device_tables() if machine in t.machines and covers(t, version)]


def testmgr_entry(alg: str, version: str) -> Optional[TestmgrEntry]:
    """``version``'s testmgr entry row for ``alg`` (its own, else the ``*`` rule
    of that range), or None where the table says nothing (the entry as this
    project's testmgr has it)."""
    rows = [e for e in testmgr_entries() if covers(e, version)]
    return next((e for e in rows if e.alg == alg), None) or next((e for e in rows if e.alg == "*"), None)


def rule_row(name: str, machine: str, version: str) -> Optional[Rule]:
    """The row of rule ``name`` that applies in ``version`` on ``machine`` (the
    machine's own rows first, then ``*``), or None where the table has none."""
    found = [r for r in rules() if r.name == name and covers(r, version)]
    return (next((r for r in found if machine in r.machines), None)
            or next((r for r in found if "*" in r.machines), None))


@attrs.frozen
class Unsettled:
    """A fact whose change lies between two read versions at a point the
    sources did not settle: ``kind`` (driver, template, rule, device table,
    testmgr entry), ``name``, the ``bound`` the table takes and its ``unknown``."""

    kind: str
    name: str
    bound: str
    unknown: str


def _facts(machine: str):
    """(kind, name, fact) of every fact that applies on ``machine`` (its own or ``*``)."""
    for r in table_rows():
        if machine in r.machines or "*" in r.machines:
            yield r.what, r.driver or r.ours, r
    for u in rules():
        if machine in u.machines or "*" in u.machines:
            yield "rule", u.name, u
    for t in device_tables():
        if machine in t.machines:
            yield "device table", t.module, t
    for e in testmgr_entries():
        yield "testmgr entry", e.alg, e


def unsettled(version: str, machine: str) -> List[Unsettled]:
    """The facts whose answer in ``version`` rests on a bound the sources did not
    settle: a release between two read versions (:data:`KNOWN`) takes every
    bound as the table has it, and a fact with a bound in that span and an
    ``unknown`` saying so may have changed in another release of the span.
    Empty for a read version."""
    lo, hi = bracket(version)
    if lo == hi:
        return []
    span = (key(lo), key(hi) if hi else (99,))
    found: Dict[Tuple[str, str, str], Unsettled] = {}
    for kind, name, fact in _facts(machine):
        if not fact.unknown:
            continue
        for bound in (fact.since, fact.until):
            if bound is not None and span[0] < key(bound) <= span[1]:
                found.setdefault((kind, name, bound), Unsettled(kind, name, bound, fact.unknown))
    return list(found.values())


def versions() -> Tuple[str, ...]:
    return KNOWN
