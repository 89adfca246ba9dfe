"""A plug-in driver written for one kernel version's rules, self-tested under
another (the kernel-version issue's test list).

Each case boots a version in a fresh process (plugin_child.py), insmods a
plug-in XChaCha12 at the full self-test level and reads its /proc/crypto
``selftest`` field:

* plugin_fallback_by_name.py allocates its fallback as ``xchacha12-generic``,
  the generic driver's name until 6.18 renamed it ``xchacha12-lib``: it
  passes under 5.10 and fails (ENOENT from its init) under 6.18;
* tests/core's planted_length.py is wrong only for lengths no test vector
  has, so only the comparison with the generic driver finds it: 5.2+
  testmgr compares with that version's generic driver (``xchacha12-generic``
  in 5.10, ``xchacha12-lib`` in 6.18, the table's TESTMGR rows), so both
  fail it; 5.0's testmgr has no such comparison, so it passes there.
"""

import json
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(__file__)
CHILD = os.path.join(HERE, "plugin_child.py")
FALLBACK = (os.path.join(HERE, "plugin_fallback_by_name.py"), "xchacha12-fallback-by-name")
PLANTED = (os.path.join(HERE, "..", "core", "test_testmgr_drivers", "planted_length.py"),
           "xchacha12-planted-length")


def run(version, plugin):
    env = {k: v for k, v in os.environ.items()
           if k not in ("CRYPTO_API_KERNEL", "CRYPTO_API_ARCH", "CRYPTO_API_CPU", "CRYPTO_API_SELFTESTS")}
    out = subprocess.run([sys.executable, CHILD, version, "full", *plugin], env=env,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_fallback_by_an_old_name_passes_where_that_name_exists():
    got = run("5.10", FALLBACK)
    assert got["selftest"] == "passed" and got["resolves"] == FALLBACK[1], got


def test_fallback_by_an_old_name_fails_under_6_18():
    got = run("6.18", FALLBACK)
    assert got["selftest"] == "unknown", got           # failed: found only by the ELIBBAD pass
    assert any("self-tests for xchacha12-fallback-by-name" in w and "rc=-2" in w for w in got["warnings"])
    assert got["resolves"] == "xchacha12-lib"


@pytest.mark.parametrize("version", ["5.10", "6.18"])
def test_the_versions_generic_driver_finds_a_bug_vectors_miss(version):
    got = run(version, PLANTED)
    assert got["selftest"] == "unknown", got
    assert not any("skipping comparison" in w for w in got["warnings"]), got["warnings"]
    assert any("wrong result" in w and "random:" in w for w in got["warnings"]), got["warnings"]


def test_v50_testmgr_has_no_comparison_with_a_generic_driver():
    got = run("5.0", PLANTED)
    assert got["selftest"] == "passed", got
    assert got["resolves"] == PLANTED[1]
