"""The first answer in a fresh process, per kernel version and machine.

For each version and machine, one child process (first_answer_child.py)
allocates each name that several of that version's drivers register (the
table's cra_names with two or more drivers), each in a fresh registry, and
reports the first and the second answer.  The expectation is the rule of
docs/fidelity.md ("The first answer in a fresh process"), written here from
the kernel's facts rather than from the emulation:

* the second allocation finds the best driver registered (highest priority;
  the table's drivers at the table's priorities);
* the first does too, unless the name is reached only through a template
  whose spawn loads the drivers' modules one after another: on x86_64 the
  ARIA modes, where modprobe loads aria_aesni_avx_x86_64 first (the AVX2 and
  AVX-512 modules call its exported functions, so they depend on it) and its
  tested driver completes the lookup larval before the next module loads;
* the modules with a CPU device table in that version (the table's
  DEVICE_TABLES) are loaded before the first lookup, whatever the name.
"""

import json
import os
import subprocess
import sys

import pytest

from crypto_api.kernels import KNOWN, query

from lowered_priority import lowered

CHILD = os.path.join(os.path.dirname(__file__), "first_answer_child.py")
#: (arch, CPU model or None for the default): arm's max has the AES extension (the aes-ce modes)
MACHINES = [("x86_64", None), ("arm64", None), ("arm", None), ("arm", "max"), ("ppc64le", None),
            ("ppc64le", "power10")]
#: (machine, name) -> the driver a booted kernel answers first, and why (see the module docstring)
THROUGH_A_TEMPLATE = {("x86_64", "ecb(aria)"): "ecb-aria-avx", ("x86_64", "ctr(aria)"): "ctr-aria-avx"}


def multi_driver_names(version, arch):
    by_name = {}
    for driver, (name, _prio) in query.snapshot(version, arch).items():
        if not name.startswith("__"):
            by_name.setdefault(name, set()).add(driver)
    return sorted(n for n, ds in by_name.items() if len(ds) > 1)


def run_child(version, arch, cpu, names):
    env = dict(os.environ, CRYPTO_API_ARCH=arch, CRYPTO_API_SELFTESTS="off")
    env.pop("CRYPTO_API_KERNEL", None)
    if cpu:
        env["CRYPTO_API_CPU"] = cpu
    else:
        env.pop("CRYPTO_API_CPU", None)
    out = subprocess.run([sys.executable, CHILD, version, *names], env=env, capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@pytest.mark.parametrize("arch,cpu", MACHINES, ids=[f"{a}-{c or 'default'}" for a, c in MACHINES])
def test_first_allocation_of_each_multi_driver_name(arch, cpu):
    checked = 0
    for version in KNOWN:
        names = multi_driver_names(version, arch)
        got = run_child(version, arch, cpu, names)
        table = query.snapshot(version, arch, lowered=lowered(arch, cpu))
        boot_modules = {t.module for t in query.coldplugged(version, arch)}
        for name in names:
            case = f"{arch} {cpu or ''} kernel {version} {name}"
            answer = got[name]
            assert isinstance(answer, dict), f"{case}: {answer}"
            registered = answer["registered"]
            if not registered:
                # every driver of the name is a CPU-feature module's that refused this CPU
                # (arm's aes_arm_ce on a Cortex-A7): nothing to compare, the template answers
                refused = boot_modules - loaded_anywhere(got)
                owners = {r.module for r in query.rows_for(version, arch)
                          if r.what == "driver" and r.cra_name == name}
                assert owners and owners <= refused, case
                continue
            for driver, prio in registered.items():
                assert table.get(driver) == (name, prio), f"{case}: {driver} {prio} is not the table's"
            best = max(registered, key=registered.get)
            assert answer["second"] == best, case
            expected_first = THROUGH_A_TEMPLATE.get((arch, name), best)
            if expected_first not in registered:        # e.g. a CPU without that module's features
                expected_first = best
            assert answer["first"] == expected_first, case
            # the modules with a CPU device table were there before this lookup
            # (those whose init accepts this CPU: every other name's run loaded them)
            assert boot_modules & set(answer["loaded"]) == boot_modules & loaded_anywhere(got), case
            checked += 1
    assert checked >= len(KNOWN) * 2, arch


def loaded_anywhere(got):
    return {m for a in got.values() if isinstance(a, dict) for m in a["loaded"]}


def test_a_chosen_version_loads_the_device_table_modules_at_boot():
    """Not vacuous: with a version chosen, x86_64's aesni_intel is loaded
    before a lookup that has nothing to do with AES (in the kernel this is
    what makes 6.12's first xts(aes) the VAES driver: aesni_intel's only
    crypto alias is ``aes``, so without the coldplug the xts template would
    be instantiated and xts-aes-aesni, registered first, would answer); the
    composite registry (no version) loads only what the lookup asks for; and
    the ARIA modes' first answer is not their best."""
    assert "aesni_intel" in {t.module for t in query.coldplugged("6.12", "x86_64")}
    got = run_child("6.12", "x86_64", None, ["xts(aes)", "ctr(aria)", "chacha20"])
    # the 512-bit driver, at priority 1 where 512-bit vectors are discouraged (then the 256-bit one)
    assert got["xts(aes)"]["first"] == ("xts-aes-vaes-avx10_256" if lowered("x86_64", None)
                                        else "xts-aes-vaes-avx10_512")
    assert "aesni_intel" in got["chacha20"]["loaded"]
    assert (got["ctr(aria)"]["first"], got["ctr(aria)"]["second"]) == ("ctr-aria-avx", "ctr-aria-avx512")
    composite = run_child("composite", "x86_64", None, ["chacha20"])
    assert "aesni_intel" not in composite["chacha20"]["loaded"]
