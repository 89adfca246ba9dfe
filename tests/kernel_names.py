"""The followed kernel's name of one of this project's drivers, for tests that
name a driver by hand (a reference built of generic drivers, a pinned peer).

The kernel-version table (crypto_api.kernels) renames some drivers in some
versions (``xchacha12-generic`` is ``xchacha12-lib`` in 6.18); a test that
runs under the default kernel asks :func:`driver` instead of hard-coding one
version's name, and gets the composite registry's own name when that is
what the suite runs.  :func:`instance` does the same for the leaf driver
names inside a template instance's driver name.
"""

import re

from crypto_api import kernels
from crypto_api.kernels import query


def _machine() -> str:
    from crypto_api.machine.selection import current_machine
    return current_machine().arch


def driver(ours: str, arch: str = None) -> str:
    """The driver name under which the followed kernel registers this project's
    driver ``ours`` (``ours`` itself in the composite registry, or where the
    table does not govern it) on ``arch`` (default: the machine this process
    runs); KeyError where that kernel has no such driver."""
    version = kernels.selected()
    if version is None:
        return ours
    machine = arch or _machine()
    governed, row = query.decide("driver", machine, ours, version)
    if not governed:
        return ours
    if row is None:
        # a generic driver whose name this machine's own driver holds in that
        # version (x86's *-lib ChaCha from 6.18): the name every machine has
        _, row = query.decide("driver", "*", ours, version)
        if row is None or row.driver not in query.snapshot(version, machine):
            raise KeyError(f"{ours}: not a driver of Linux {version}")
    return row.driver


def ours(name: str, arch: str = None) -> str:
    """The inverse of :func:`driver`: this project's own name of the followed
    kernel's driver ``name`` (``name`` itself where the kernel keeps it)."""
    version = kernels.selected()
    if version is not None:
        for r in query.rows_for(version, arch or _machine()):
            if r.what == "driver" and r.driver == name:
                return r.ours
    return name


def instance(name: str) -> str:
    """``name`` with each leaf driver name replaced by :func:`driver`'s
    (``adiantum(xchacha12-generic,aes-generic,nhpoly1305-generic)`` ->
    ``adiantum(xchacha12-lib,aes-generic,nhpoly1305-generic)`` in 6.18); a
    name without parentheses is one driver's.  KeyError where that kernel
    lacks one of them."""
    if "(" not in name:
        return driver(name)
    return re.sub(r"[^(),]+(?=[,)])", lambda m: driver(m.group(0)), name)


def specs(names):
    """``names`` (dm-crypt specifications ``capi:NAME-IVMODE``, or ``(spec, x)``
    pairs) with the followed kernel's driver names, in order, each once; those
    naming a driver that kernel lacks are left out."""
    out = []
    for item in names:
        spec, rest = (item[0], item[1:]) if isinstance(item, tuple) else (item, None)
        if spec.startswith("capi:"):
            name, iv = spec[5:].rsplit("-", 1)
            try:
                spec = f"capi:{instance(name)}-{iv}"
            except KeyError:
                continue
        new = spec if rest is None else (spec,) + rest
        if new not in out:
            out.append(new)
    return out


def listing_lines(text):
    """The lines of a listing (``crypto-api list``, /proc/crypto) after the
    line naming the followed kernel it opens with, checked to name this
    process's kernel; the composite registry's listing has no such line."""
    from crypto_api.kernels import describe, selected
    lines = text.splitlines()
    if selected():
        assert lines and lines[0] == f"# kernel: {describe()}", lines[:1]
        del lines[0]
    return lines
