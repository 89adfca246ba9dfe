"""``make run`` (``python -m crypto_api boot``) under the default kernel, 6.18:
every module's self-tests pass and the demos run with 6.18's drivers."""

import os
import platform
import re
import subprocess
import sys

from crypto_api.kernels import query


def test_make_runs_boot_under_6_18():
    env = {k: v for k, v in os.environ.items()
           if k not in ("CRYPTO_API_KERNEL", "CRYPTO_API_ARCH", "CRYPTO_API_CPU", "CRYPTO_API_SELFTESTS")}
    out = subprocess.run([sys.executable, "-m", "crypto_api", "boot"], env=env, capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr
    lines = out.stdout.splitlines()
    assert re.match(r"crypto_api \S+: booting the crypto subsystem of Linux 6\.18 on ", lines[0]), lines[0]
    assert "# kernel: Linux 6.18" in lines
    tests = [line for line in lines if line.startswith("alg: ")]
    # testmgr has no entry for a project driver's algorithm only (xts(aria)): it
    # says so as the kernel does; every other driver's self-tests pass
    project = {r.driver for r in query.rows_for("6.18", platform.machine()) if r.status == "project"}
    untested = [t for t in tests if not t.endswith(" passed")]
    no_test = [re.fullmatch(r"alg: No test for \S+ \((\S+)\)", t) for t in untested]
    assert tests and all(m and m[1] in project for m in no_test), untested
    assert "WARNING" not in out.stdout
    table = query.snapshot("6.18", platform.machine())
    # the demos' drivers: each one, or each child of a template instance, is a 6.18 driver
    demos = [line.split(":", 1)[1].strip() for line in lines if line.startswith("driver    :")]
    assert len(demos) == 3, demos
    for driver in demos:
        leaves = re.split(r"[(),]", driver) if "(" in driver else [driver]
        for leaf in filter(None, leaves):
            if leaf not in ("adiantum", "rfc7539"):
                assert leaf in table, f"{driver}: {leaf} is not a 6.18 driver"
    assert demos[1].startswith("adiantum(xchacha12-lib,")
    assert lines.count("round trip: True") == 3
    assert "tampered header: refused with EBADMSG" in lines
