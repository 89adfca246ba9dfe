"""``python -m crypto_api selftest``: kernel-style lines, a summary, the exit status.

Each run is a subprocess (the command loads every module and builds template
instances; the test process keeps its own registry).  Failing drivers come
from plug-ins: a planted driver of tests/core/test_testmgr_drivers made
installable by a minimal distribution (a dist-info with an entry point in
``crypto_api.modules``) on PYTHONPATH, as pip would install one.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from crypto_api.__main__ import build_parser
from crypto_api import testmgr
from crypto_api.kernels import table as kernel_table
from crypto_api.tools import selftest
from crypto_api.version_rules import rule
from kernel_names import driver, instance

#: the generic xchacha12 driver, by the followed kernel's name (6.18: xchacha12-lib)
XCHACHA12 = driver("xchacha12-generic")
PLANTED = Path(__file__).resolve().parents[1] / "core" / "test_testmgr_drivers"


def run_cli(*args, pythonpath=None):
    env = dict(os.environ)
    env.pop("CRYPTO_API_SELFTESTS", None)
    env.pop("CRYPTO_API_FUZZ_ITERATIONS", None)
    if pythonpath:
        env["PYTHONPATH"] = os.pathsep.join([str(pythonpath)] + [p for p in [env.get("PYTHONPATH")] if p])
    return subprocess.run([sys.executable, "-m", "crypto_api", "selftest", *args],
                          capture_output=True, text=True, env=env, timeout=600)


def plugin_site(tmp_path, planted):
    """A directory on which ``planted`` is an installed crypto_api module (entry point)."""
    site = tmp_path / "site"
    dist = site / f"tmcli_{planted}-0.1.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: tmcli-{planted}\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text(f"[crypto_api.modules]\n{planted} = tmcli_{planted}\n")
    shutil.copy(PLANTED / f"{planted}.py", site / f"tmcli_{planted}.py")
    return site


def rows(stdout):
    """The summary table: driver -> result."""
    lines = stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if re.match(r"driver\s+alg\s+result\s+time$", line))
    out = {}
    for line in lines[start + 1:]:
        m = re.match(r"(\S+)\s+(\S+)\s+(passed|FAILED|no test|NOT FOUND)\s+[\d.]+ s$", line)
        if not m:
            break
        out[m.group(1)] = m.group(3)
    return out


def test_every_driver_passes_at_the_default_level():
    r = run_cli()
    assert r.returncode == 0, r.stdout + r.stderr
    table = rows(r.stdout)
    for name in ("xchacha12-generic", "xchacha20-generic", "chacha20-generic", "poly1305-generic",
                 "nhpoly1305-generic", "aes-generic",
                 "adiantum(xchacha12-generic,aes-generic,nhpoly1305-generic)",
                 "adiantum(xchacha20-generic,aes-generic,nhpoly1305-generic)"):
        assert table[instance(name)] == "passed"
    # v5.0 names the reference instances built by driver names after those names,
    # which the test table has no entry for: "no test", as the kernel logs it (5.2+
    # names them after the children's cra_names, so they are tested)
    echo = rule("rfc7539.instance", "echo") == "echo"
    untested = sorted(d for d, res in table.items() if res != "passed")
    # the AES-NI cbc/ctr/xts wrappers have no test entry until cbc(aes), ctr(aes)
    # and xts(aes) have vectors in the test table
    aes_modes = [d for d in untested if re.fullmatch(r"(cbc|ctr|xts)-aes-(aesni|vaes-avx2|vaes-avx10_256|vaes-avx10_512)", d)]
    # drivers beyond the kernel (the table's "project" rows) whose algorithm testmgr
    # has no entry for (xts-aria-avx512: no official XTS-ARIA vectors)
    project = {r.driver: r.cra_name for r in kernel_table.rows() if r.status == "project"}
    beyond = [d for d in untested if d in project and testmgr.find_test(project[d]) is None]
    assert [d for d in untested if d not in aes_modes + beyond] == ([
        instance("rfc7539(chacha20-generic,poly1305-generic)"),
        instance("rfc7539esp(chacha20-generic,poly1305-generic)")] if echo else [])
    assert {table[d] for d in untested} <= {"no test"}
    assert f"alg: self-tests for {XCHACHA12} (xchacha12) passed" in r.stdout
    assert f"alg: self-tests for {driver('aes-generic')} (aes) passed" in r.stdout
    # each driver's line once: the registration tests at load time are not repeated
    assert r.stdout.count(f"alg: self-tests for {XCHACHA12} (xchacha12) passed") == 1
    n = len(untested)
    assert re.search(rf"^{len(table)} drivers: {len(table) - n} passed, 0 failed, {n} without tests "
                     r"\(level fast; [\d.]+ s\)$", r.stdout, re.M)
    assert "selftest" not in r.stderr            # no progress bar: stderr is not a terminal


def test_named_drivers_names_and_template_instances():
    r = run_cli(XCHACHA12, "nhpoly1305", "adiantum(xchacha20,aes)", "tmcli-nosuch")
    assert r.returncode == 1                     # one name matched nothing
    table = rows(r.stdout)
    assert table[XCHACHA12] == "passed"
    # a driver name selects that driver only (not the SIMD one, where the kernel has one)
    assert [d for d in table if d.startswith("xchacha12")] == [XCHACHA12]
    assert table[driver("nhpoly1305-generic")] == "passed"          # a cra_name selects all its drivers
    assert [d for d in table if d.startswith("adiantum(")]  # the instance was built, then tested
    assert table["tmcli-nosuch"] == "NOT FOUND"
    assert "tmcli-nosuch: no algorithm, driver or template instance of that name" in r.stderr
    assert ", 1 not found (level fast;" in r.stdout


def test_a_template_refusal_is_reported():
    r = run_cli("adiantum(chacha20,aes)")
    assert r.returncode == 1
    assert "chacha20" in r.stderr and "NOT FOUND" in r.stdout


def test_a_failing_plugin_fails_the_run(tmp_path):
    r = run_cli("xchacha12", pythonpath=plugin_site(tmp_path, "planted_onebyte"))
    assert r.returncode == 1
    table = rows(r.stdout)
    assert table["xchacha12-planted-onebyte"] == "FAILED"
    assert table[XCHACHA12] == "passed"
    assert ('alg: skcipher: xchacha12-planted-onebyte encryption test failed (wrong result) '
            'on test vector 0, cfg="in-place"') in r.stdout
    assert "alg: self-tests for xchacha12-planted-onebyte (xchacha12) failed (rc=-22)" in r.stdout
    assert re.search(r"^\d+ drivers: \d+ passed, 1 failed", r.stdout, re.M)


def test_full_prints_the_seed_and_the_seed_replays(tmp_path):
    site = plugin_site(tmp_path, "planted_length")
    fast = run_cli("xchacha12-planted-length", pythonpath=site)
    assert fast.returncode == 0 and rows(fast.stdout)["xchacha12-planted-length"] == "passed"

    runs = [run_cli("--full", "--iterations", "3", "--seed", "77", "xchacha12-planted-length",
                    pythonpath=site) for _ in range(2)]
    for r in runs:
        assert r.returncode == 1
        assert rows(r.stdout)["xchacha12-planted-length"] == "FAILED"
        assert "(level full, 3 fuzz iterations, seed 77;" in r.stdout
    fails = [[line for line in r.stdout.splitlines() if "test failed" in line] for r in runs]
    assert fails[0] == fails[1] and len(fails[0]) == 1
    assert fails[0][0].endswith("(seed 77, fuzz_iterations=3)")
    assert "on test vector random: len=" in fails[0][0]


def test_full_without_a_seed_picks_one_and_says_which():
    r = run_cli("--full", "--iterations", "1", driver("poly1305-generic"))
    assert r.returncode == 0, r.stdout + r.stderr
    assert re.search(r"\(level full, 1 fuzz iterations, seed \d+; [\d.]+ s\)$", r.stdout, re.M)


@pytest.mark.parametrize("args", [("--iterations", "-1"), ("--seed", "x"), ("--iterations", "many")])
def test_bad_numbers_are_usage_errors(args):
    r = run_cli(*args)
    assert r.returncode == 2 and "error" in r.stderr and args[0] in r.stderr


def test_fuzz_options_need_full():
    r = run_cli("--seed", "3", XCHACHA12)
    assert r.returncode == 2 and "--full" in r.stderr and r.stdout == ""


def test_progress_on_request():
    r = run_cli("--progress", XCHACHA12)
    assert r.returncode == 0
    assert "selftest:" in r.stderr and "/1 [" in r.stderr      # tqdm's bar on stderr
    assert "\r" not in r.stdout and "/1 [" not in r.stdout    # the lines and table on stdout


def test_the_command_is_registered_and_documented():
    parser = build_parser()
    args = parser.parse_args(["selftest", "--full", "--iterations", "5", "--seed", "9", "a", "b"])
    assert (args.full, args.iterations, args.seed, args.names) == (True, 5, 9, ["a", "b"])
    assert args.func is selftest.run


def test_the_table_lines_up():
    text = selftest.format_table([("a-long-driver", "a", "passed", 0.5), ("b", "bb", "FAILED", 12.25)])
    lines = text.splitlines()
    assert len({len(line) for line in lines}) == 1
    assert lines[1].split() == ["a-long-driver", "a", "passed", "0.500", "s"]
    assert lines[2].split() == ["b", "bb", "FAILED", "12.250", "s"]
