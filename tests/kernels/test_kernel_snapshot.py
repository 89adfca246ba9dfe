"""Per kernel version and machine, the registry follows the version table.

Each case boots one version on one machine in a fresh process
(snapshot_child.py), loads every module, and compares the registered
(driver, cra_name, priority) set with the table's (crypto_api.kernels.query):
the rows of that version and machine whose driver the machine's CPU offered.
The table is the source; this checks that the registry applies it, and that
the table covers every driver this project's modules register.
"""

import json
import os
import subprocess
import sys

import pytest

from crypto_api.kernels import KNOWN, bracket, query
from crypto_api.kernels.table import rows
from lowered_priority import lowered

CHILD = os.path.join(os.path.dirname(__file__), "snapshot_child.py")
#: (arch, CPU model or None for the default): POWER10 shows the *-p10 rows, arm's max the aes-ce ones
MACHINES = [("x86_64", None), ("arm64", None), ("arm", None), ("arm", "max"), ("ppc64le", None),
            ("ppc64le", "power10")]


def boot_child(version, arch, cpu):
    env = dict(os.environ, CRYPTO_API_ARCH=arch, CRYPTO_API_SELFTESTS="off")
    env.pop("CRYPTO_API_KERNEL", None)
    if cpu:
        env["CRYPTO_API_CPU"] = cpu
    else:
        env.pop("CRYPTO_API_CPU", None)
    out = subprocess.run([sys.executable, CHILD, version], env=env, capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def expected(version, arch, offered, low=False):
    return {r.driver: (r.cra_name, r.lowered if low and r.lowered is not None else r.priority)
            for r in query.rows_for(version, arch) if r.what == "driver" and r.ours in offered}


@pytest.mark.parametrize("arch,cpu", MACHINES, ids=[f"{a}-{c or 'default'}" for a, c in MACHINES])
def test_registry_follows_the_table(arch, cpu):
    for version in KNOWN:
        got = boot_child(version, arch, cpu)
        assert got["arch"] == arch
        offered = set(got["offered"])
        ours = {r.ours for r in rows() if r.what == "driver" and (arch in r.machines or "*" in r.machines)}
        assert offered <= ours, f"drivers the table does not cover on {arch}: {sorted(offered - ours)}"
        registered = {d: (name, prio) for d, name, prio, _module in got["registered"]}
        assert len(registered) == len(got["registered"]), "a driver name registered twice"
        assert registered == expected(version, arch, offered, lowered(arch, cpu)), f"{arch} {cpu} kernel {version}"
        assert sorted(got["templates"]) == sorted(query.templates(version, arch)), version


#: releases between two read versions, each where a range bound falls inside the span
#: (so the release's registry differs from both read neighbours)
RELEASE_CASES = [("6.0", "x86_64", None), ("6.16", "x86_64", None), ("5.6", "arm64", None),
                 ("6.16", "arm64", None), ("6.16", "arm", None), ("6.16", "ppc64le", "power10")]


@pytest.mark.parametrize("version,arch,cpu", RELEASE_CASES,
                         ids=[f"{v}-{a}-{c or 'default'}" for v, a, c in RELEASE_CASES])
def test_a_release_between_read_versions_follows_the_ranges(version, arch, cpu):
    lo, hi = bracket(version)
    assert lo != hi and query.snapshot(version, arch) not in (query.snapshot(lo, arch), query.snapshot(hi, arch))
    got = boot_child(version, arch, cpu)
    offered = set(got["offered"])
    registered = {d: (name, prio) for d, name, prio, _module in got["registered"]}
    assert registered == expected(version, arch, offered, lowered(arch, cpu))
    assert sorted(got["templates"]) == sorted(query.templates(version, arch))


def test_the_machines_offer_what_each_range_needs():
    """The cases above are not vacuous: some version renames, drops or adds a
    driver on each machine (the table's rows differ between versions)."""
    for arch in {a for a, _ in MACHINES}:
        snaps = {v: query.snapshot(v, arch) for v in KNOWN}
        assert len({tuple(sorted(s.items())) for s in snaps.values()}) >= 3, arch
