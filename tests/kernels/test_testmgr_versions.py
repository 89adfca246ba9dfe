"""testmgr per kernel version: the table's TESTMGR rows, applied.

For each version (x86_64, in a fresh process: testmgr_child.py) every entry
the version has names a generic driver that exists there, so full
self-tests compare with it instead of skipping the comparison; the entries
a version lacks are absent; 5.0-5.1 compare with none.
"""

import itertools
import json
import os
import subprocess
import sys

import pytest

from crypto_api.kernels import KNOWN, query
from crypto_api.kernels.row import NO_COMPARISON
from crypto_api.kernels import table
from crypto_api.kernels.versions import key
from crypto_api.testmgr.descs import ALG_TEST_DESCS

CHILD = os.path.join(os.path.dirname(__file__), "testmgr_child.py")


def run(version):
    env = {k: v for k, v in os.environ.items() if k not in ("CRYPTO_API_KERNEL", "CRYPTO_API_ARCH", "CRYPTO_API_CPU")}
    env["CRYPTO_API_SELFTESTS"] = "off"
    out = subprocess.run([sys.executable, CHILD, version], env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_rows_are_well_formed():
    entries = {d.alg for d in ALG_TEST_DESCS}
    for e in table.testmgr_entries():
        assert e.alg == "*" or e.alg in entries, e
        assert e.until is None or key(e.since) < key(e.until), e
        assert e.source, e
    by_alg = {}
    for e in table.testmgr_entries():
        by_alg.setdefault(e.alg, []).append(e)
    for alg, rows in by_alg.items():
        for a, b in itertools.combinations(rows, 2):
            assert (a.until and key(a.until) <= key(b.since)) or (b.until and key(b.until) <= key(a.since)), alg


@pytest.mark.parametrize("version", KNOWN)
def test_each_entry_compares_with_a_driver_that_version_has(version):
    got = run(version)
    for alg, answer in got.items():
        row = query.testmgr_entry(alg, version)
        if row is not None and not row.present:
            assert answer is None, (version, alg)
            continue
        assert answer is not None, (version, alg)
        if row is not None and row.generic_driver == NO_COMPARISON:
            assert answer == "", (version, alg)
            continue
        generic, allocated = answer
        assert "ENOENT" not in allocated and "Errno" not in allocated, (version, alg, answer)
        if row is not None and row.generic_driver:
            assert generic == row.generic_driver, (version, alg)
