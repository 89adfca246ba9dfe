"""``crypto-api speed --plot``: a PNG from a small real run, the plotted series
equal to the report's numbers, ``speed show --plot`` from a saved report, and
a one-line error naming the [plot] extra when matplotlib is missing."""

import json
import struct
import sys
import zlib

import pytest

import crypto_api as capi
from crypto_api.__main__ import main
from crypto_api.tools import speed_plot
from kernel_names import driver

FAST = ["--time-budget", "0.05", "--repeat", "2", "--no-slope", "--cpu-mhz", "1000"]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(autouse=True)
def _modules_loaded():
    for name in ("xchacha12", "aes"):
        capi.request_module("crypto-" + name)


def png_chunks(data: bytes):
    """(type, payload) of each chunk, checking every CRC (a truncated file fails)."""
    assert data[:8] == PNG_SIGNATURE
    pos, out = 8, []
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        payload = data[pos + 8:pos + 8 + n]
        crc, = struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])
        assert zlib.crc32(kind + payload) == crc, kind
        out.append((kind, payload))
        pos += 12 + n
    return out


def check_png(path):
    data = path.read_bytes()
    chunks = png_chunks(data)
    assert chunks[0][0] == b"IHDR" and chunks[-1][0] == b"IEND"
    width, height = struct.unpack(">II", chunks[0][1][:8])
    assert (width, height) == (800, 600)
    assert 10_000 < len(data) < 1_000_000          # a drawn figure, not an empty canvas
    return data


def expected_series(report):
    """Independently of speed_plot: label -> [(size, MB/s)] from the raw results."""
    out = {}
    for r in report["results"]:
        if r["threads"] != 1 or r["op"] != "encrypt" or "skipped" in r:
            continue
        out.setdefault(r["target"], []).append((r["size"], r["size"] * 1e3 / min(r["samples_ns"])))
    return out


#: a generic driver to pin, by the followed kernel's name (6.18: chacha20-lib)
CHACHA20 = driver("chacha20-generic")


def test_plot_of_a_real_run(capsys, tmp_path):
    png = tmp_path / "speed.png"
    # the pinned driver is another algorithm's: in 6.18 xchacha12's one driver
    # is the generic one, which would give two series of one label
    rc = main(["speed", *FAST, "--alg", "xchacha12", "--driver", CHACHA20,
               "--sizes", "16,512,4096", "--peers", "--json", str(tmp_path / "run.json"),
               "--plot", str(png)])
    _out, err = capsys.readouterr()
    assert rc == 0, err
    check_png(png)
    report = json.loads((tmp_path / "run.json").read_text())
    want = expected_series(report)
    got = speed_plot.series(report)
    by_target = {t["id"]: t for t in report["targets"]}
    assert len(got) == len(want) >= 3                 # xchacha12, the pinned generic, a peer
    labels = {s.label for s in got}
    assert CHACHA20 in labels and any(l.endswith("(peer)") for l in labels)
    for tid, points in want.items():
        t = by_target[tid]
        label = t["driver"] if t["kind"] == "ours" else t["name"] + " (peer)"
        s = next(s for s in got if s.label == label)
        assert list(zip(s.sizes, s.mb_per_s)) == points
    caption = speed_plot.caption(report)
    m = report["machine"]
    for part in (m["cpu_model"], m["python"], m["os"], "best of 2", "0.05 ms", report["created"]):
        assert part in caption
    if report["load"]["start"] is not None:
        assert f"load average {report['load']['start']:.2f}" in caption


def test_show_plots_a_saved_report(capsys, tmp_path):
    rc = main(["speed", *FAST, "--alg", "xchacha12", "--sizes", "64,1024",
               "--json", str(tmp_path / "run.json")])
    assert rc == 0
    capsys.readouterr()
    png = tmp_path / "shown.png"
    rc = main(["speed", "show", str(tmp_path / "run.json"), "--plot", str(png)])
    _out, err = capsys.readouterr()
    assert rc == 0, err
    check_png(png)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.json", "shown.png"]   # no temporary


def test_missing_matplotlib_is_one_line_naming_the_extra(capsys, tmp_path, monkeypatch):
    for mod in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, mod)
    monkeypatch.setitem(sys.modules, "matplotlib", None)      # import matplotlib -> ImportError
    png = tmp_path / "x.png"
    rc = main(["speed", *FAST, "--alg", "xchacha12", "--sizes", "64", "--json",
               str(tmp_path / "run.json"), "--plot", str(png)])
    out, err = capsys.readouterr()
    assert rc == 1 and out == ""
    assert err.count("\n") == 1 and "crypto_api[plot]" in err and "matplotlib" in err
    assert not png.exists() and not (tmp_path / "run.json").exists()   # refused before measuring


def test_plot_refuses_a_format_without_sizes(capsys, tmp_path):
    rc = main(["speed", "--format", "slope", "--plot", str(tmp_path / "x.png")])
    _out, err = capsys.readouterr()
    assert rc == 1 and "--plot" in err and err.count("\n") == 1
