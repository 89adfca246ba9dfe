"""``crypto-api list`` (tools/listing.py): the /proc/crypto view with filters and a table."""

import fnmatch
import os
import platform
import subprocess
import sys

import pytest

import crypto_api as capi
from crypto_api import registry
from crypto_api.__main__ import main
from crypto_api.kernels import query
from default_kernel import default_env
from kernel_names import listing_lines

ENV = dict(os.environ, CRYPTO_API_SELFTESTS="off")


def records(text):
    """The records of a listing or /proc/crypto, after the followed kernel's line."""
    out = []
    for block in "\n".join(listing_lines(text)).split("\n\n"):
        if block.strip():
            out.append({line[:13].rstrip(): line[15:] for line in block.splitlines()})
    return out


def live_by_driver():
    return {a.cra_driver_name: a for a in registry.snapshot() if not a.is_larval and not a.is_moribund}


def test_table_subprocess_matches_registry():
    p = subprocess.run([sys.executable, "-m", "crypto_api", "list", "--table", "--type", "shash"],
                       env=ENV, capture_output=True, timeout=120)
    assert p.returncode == 0 and p.stderr == b""
    lines = listing_lines(p.stdout.decode())
    assert lines[0].split() == ["name", "type", "driver", "module", "priority", "selftest", "refcnt"]
    rows = [line.split() for line in lines[1:]]
    assert rows and all(r[1] == "shash" for r in rows)
    drivers = {r[2]: r for r in rows}
    assert {"nhpoly1305-generic", "poly1305-generic"} <= set(drivers)
    capi.load_all()
    live = live_by_driver()
    for drv, (name, _, _, module, prio, selftest, refcnt) in drivers.items():
        a = live[drv]
        assert (name, module, int(prio)) == (a.cra_name, a.cra_module, a.cra_priority)
        assert selftest == "passed" and int(refcnt) >= 1
    # every loaded shash driver of this installation is listed
    assert {d for d, a in live.items() if a.kind == "shash" and a.cra_module in capi.loaded_modules()
            and "test" not in d and "(" not in d} <= set(drivers)   # not the instances earlier tests built


def test_the_default_listing_is_linux_6_18s():
    """What a user who chooses no kernel sees (no suite pin): 6.18's shash
    drivers, each with the table's cra_name, priority and module, tested."""
    p = subprocess.run([sys.executable, "-m", "crypto_api", "list", "--table", "--type", "shash"],
                       env=default_env(CRYPTO_API_SELFTESTS="fast"), capture_output=True, text=True, timeout=300)
    assert p.returncode == 0 and p.stderr == "", p.stderr
    lines = p.stdout.splitlines()
    assert lines[0] == "# kernel: Linux 6.18"
    assert lines[1].split() == ["name", "type", "driver", "module", "priority", "selftest", "refcnt"]
    table = {r.driver: r for r in query.rows_for("6.18", platform.machine()) if r.what == "driver"}
    rows = [line.split() for line in lines[2:]]
    assert {"sha256-lib", "poly1305-generic", "nhpoly1305-generic"} <= {r[2] for r in rows}
    for name, kind, driver, module, prio, selftest, _refcnt in rows:
        row = table[driver]                 # every driver listed is one of 6.18's
        assert (kind, name, int(prio), module, selftest) == ("shash", row.cra_name, row.priority, row.module,
                                                            "passed"), driver


def test_name_builds_an_instance_and_shows_its_record(capsys):
    assert main(["list", "--name", "adiantum(xchacha12,aes)"]) == 0
    recs = records(capsys.readouterr().out)
    assert recs and all(r["name"] == "adiantum(xchacha12,aes)" for r in recs)
    proc = {r["driver"]: r for r in records(capi.proc_crypto())}
    for r in recs:
        want = dict(proc[r["driver"]])
        got = dict(r)
        want.pop("refcnt"), got.pop("refcnt")
        assert got == want
        assert r["type"] == "skcipher" and r["ivsize"] == "32" and r["blocksize"] == "16"


def test_pattern_and_type_filters(capsys):
    assert main(["list", "--type", "skcipher", "--name", "*chacha*"]) == 0
    recs = records(capsys.readouterr().out)
    assert recs
    assert all(r["type"] == "skcipher" for r in recs)
    assert all(fnmatch.fnmatchcase(r["name"], "*chacha*") or fnmatch.fnmatchcase(r["driver"], "*chacha*")
               for r in recs)
    expected = {a.cra_driver_name for a in live_by_driver().values()
                if a.kind == "skcipher" and ("chacha" in a.cra_name or "chacha" in a.cra_driver_name)}
    assert {r["driver"] for r in recs} == expected
    assert main(["list", "--type", "cipher", "--table"]) == 0
    rows = listing_lines(capsys.readouterr().out)[1:]
    assert {r.split()[2] for r in rows} == {a.cra_driver_name for a in live_by_driver().values()
                                            if a.kind == "cipher"}


@pytest.mark.parametrize("args, rc, words", [
    (["list", "--name", "no-such-alg"], 1, ["no algorithm matches", "no-such-alg"]),
    (["list", "--type", "cipher", "--name", "xchacha*"], 1, ["no algorithm matches", "type cipher"]),
    (["list", "--name", "bad\0name"], 1, ["printable"]),
    (["list", "--name", "x" * 200], 1, ["shorter than 128"]),
])
def test_no_match_and_bad_names(capsys, args, rc, words):
    assert main(args) == rc
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    for w in words:
        assert w in err


def test_bad_type_is_an_argparse_one_liner(capsys):
    with pytest.raises(SystemExit) as e:
        main(["list", "--type", "akcipher"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "invalid choice" in err
