"""``crypto-api speed scaling`` (tools/speed_scaling.py): each row's ratio is
its two sides' best MB/s over each other, from the samples it reports, and
the command prints every asked row and the control.  No timing is asserted."""

import json
import subprocess
import sys

from crypto_api.tools import speed_scaling


def _check_row(r):
    one, many = r["one_samples_ns"], r["samples_ns"]
    assert one and many and min(one) > 0 and min(many) > 0
    assert abs(r["ratio"] - min(one) / min(many)) < 1e-9 * r["ratio"] + 1e-3
    assert abs(r["ours_mbps"] / r["one_mbps"] - r["ratio"]) < 1e-6 * r["ratio"] + 1e-3
    if r["goal"] is not None:
        assert r["met"] == (r["ratio"] >= r["goal"])


def test_rows_are_ratios_of_their_samples():
    report = speed_scaling.measure(["3a", "5"], 1.0, 2)
    rows = report["rows"]
    assert [r["row"] for r in rows] == ["3a", "5", "ctl"]
    for r in rows:
        assert len(r["one_samples_ns"]) == len(r["samples_ns"]) == 2
        _check_row(r)
    text = "\n".join(speed_scaling.lines(report))
    assert "2 workers vs 1" in text and "hashlib.sha256" in text


def test_command_prints_and_writes_json(tmp_path):
    out = tmp_path / "s.json"
    r = subprocess.run([sys.executable, "-m", "crypto_api", "speed", "scaling", "--row", "5", "--repeat", "1",
                        "--time-budget", "1", "--json", str(out)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert "   5 | adiantum batch of 1024 4 KiB sectors" in r.stdout
    rows = json.loads(out.read_text())["rows"]
    assert [x["row"] for x in rows] == ["5", "ctl"]
    for x in rows:
        _check_row(x)


def test_bad_arguments_are_refused():
    r = subprocess.run([sys.executable, "-m", "crypto_api", "speed", "scaling", "--repeat", "0"],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode != 0 and "--repeat" in r.stderr
