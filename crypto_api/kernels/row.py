"""One row of the kernel-version table, and helpers to write rows.

No kernel counterpart.  What a row says is described in crypto_api.kernels.table
(:class:`DeviceTable`: a module loaded at boot by its CPU device table);
the rows themselves live with what they describe: the generic drivers' and
templates' in algs/kernel_rows.py, each machine's in its own package
(``kernel_rows.py`` beside its drivers), so the core names no machine.
"""

from __future__ import annotations

from typing import Iterable, List, Optional, Tuple

import attrs

GENERIC = ("*",)
STATUSES = ("kernel", "project", "kept")

# The project's references that read the kernel trees, by the names the sources cite.
ARCHES = "other-arches reference"
MODES = "aead-modes reference"
LIB6X = "6.x reference"

CHACHA = ("chacha20", "xchacha20", "xchacha12")


@attrs.frozen
class Row:
    """One fact of the table (see crypto_api.kernels.table)."""

    what: str                       # "driver" or "template"
    machines: Tuple[str, ...]
    since: str
    until: Optional[str]
    cra_name: str
    ours: str                       # this project's driver name (a template: its name)
    driver: Optional[str]           # the name registered in that range (a template: its name)
    priority: Optional[int]         # None for a template
    module: str                     # this project's module registering it
    source: str
    status: str = "kernel"
    note: str = ""
    unknown: str = ""
    #: a lower priority the glue registers it at on some CPUs (x86's 512-bit
    #: drivers: 1 where 512-bit vectors are discouraged), kept as registered
    lowered: Optional[int] = None

    def __attrs_post_init__(self) -> None:
        if self.status not in STATUSES or self.what not in ("driver", "template"):
            raise ValueError(f"table row {self.ours}: status {self.status!r} / what {self.what!r}")


@attrs.frozen
class DeviceTable:
    """A module that a booted system has loaded before any lookup: its CPU
    device table (``MODULE_DEVICE_TABLE(x86cpu, ...)``, or
    ``module_cpu_feature_match``) makes udev's coldplug load it at boot on a
    CPU with one of ``features``.  Over the versions ``[since, until)``."""

    module: str
    machines: Tuple[str, ...]
    since: str
    until: Optional[str]
    features: Tuple[str, ...]
    source: str
    unknown: str = ""


#: TestmgrEntry.generic_driver: derived as testmgr does (each leaf name + ``-generic``)
DERIVED = None
#: TestmgrEntry.generic_driver: that version's testmgr compares with no generic driver
NO_COMPARISON = ""


@attrs.frozen
class TestmgrEntry:
    """testmgr's entry for ``alg`` over the versions ``[since, until)``: present
    or not, and the driver its full tests compare against (``generic_driver``:
    a name, :data:`DERIVED` or :data:`NO_COMPARISON`).  ``alg`` ``*``: every
    entry of that range (a rule of the framework, not of one entry)."""

    __test__ = False                # not a pytest class

    alg: str
    since: str
    until: Optional[str]
    present: bool
    generic_driver: Optional[str]
    source: str
    unknown: str = ""


def drivers(names: Iterable[str], suffix_ours: str, suffix: str, **kw) -> List[Row]:
    """The same row for each of ``names`` (``chacha20`` ...): ``ours`` is
    ``name + suffix_ours``, the registered driver ``name + suffix``."""
    return [Row("driver", cra_name=n, ours=n + suffix_ours, driver=n + suffix, **kw) for n in names]


#: where the generic ChaCha module's rows come from (algs/kernel_rows.py and each machine's own)
CHACHA_GENERIC_SOURCE = f"crypto/chacha_generic.c @5.0-6.15, crypto/chacha.c @6.16-6.17 ({ARCHES} §1.1)"


def chacha_arch(machines, ours_sfx, module, first, first_source, arch_name, arch_source, lib_source,
                since="5.0", prio=300, lib_note="") -> List[Row]:
    """An arch ChaCha module: its own drivers until 6.16, crypto/chacha.c's
    ``*-<arch>`` in 6.16-6.17 and ``*-lib`` from 6.18 (both over the
    machine's ChaCha library: crypto_api.algs.chacha_library); and the
    machine's own rows for the generic module, which end at 6.18 because this
    module holds the ``*-lib`` names there."""
    return (drivers(CHACHA, ours_sfx, first, machines=machines, since=since, until="6.16",
                    priority=prio, module=module, source=first_source)
            + drivers(CHACHA, ours_sfx, "-" + arch_name, machines=machines, since="6.16", until="6.18",
                      priority=300, module=module, source=arch_source)
            + drivers(CHACHA, ours_sfx, "-lib", machines=machines, since="6.18", until=None, priority=300,
                      module=module, source=lib_source,
                      note=lib_note or f"crypto/chacha.c's *-lib drivers over the {arch_name} ChaCha library; "
                                       f"here {module} registers them (the kernel's module is chacha), "
                                       "so the generic module's *-lib rows do not apply on this machine")
            + drivers(CHACHA, "-generic", "-generic", machines=machines, since="5.0", until="6.18", priority=100,
                      module="chacha_generic", source=CHACHA_GENERIC_SOURCE,
                      note="this machine's own rows for the generic module: the same as every machine's "
                           "until 6.18, after which its ChaCha library's *-lib drivers hold the names"))


@attrs.frozen
class Rule:
    """A rule of the core or of a driver's glue over the versions ``[since, until)``:
    ``name`` (what crypto_api.version_rules.rule asks), ``value`` (the code's
    word for it) and ``says`` (what a driver author observes).  ``machines``
    as for :class:`Row` (a machine's own row wins over ``*``)."""

    name: str
    machines: Tuple[str, ...]
    since: str
    until: Optional[str]
    value: str
    says: str
    source: str
    unknown: str = ""
