"""The files ``crypto-api speed`` writes (``--json`` report, ``--plot`` PNG)
survive a kill, Ctrl-C and a full disk: an existing file keeps its old
content until the new one is complete, and is then replaced whole.

The report's temporary is created before the run (an unwritable path fails
at once); the kill tests wait for it to appear, so the process is killed in
the middle of measuring.
"""

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from crypto_api.__main__ import main

LONG = ["--alg", "aes", "--sizes", "16", "--repeat", "200", "--time-budget", "50", "--no-slope",
        "--cpu-mhz", "1000"]
FAST = ["--alg", "aes", "--sizes", "16", "--repeat", "2", "--time-budget", "0.05", "--no-slope",
        "--cpu-mhz", "1000"]


def _old_files(where):
    report, png = where / "run.json", where / "run.png"
    report.write_text("old report\n")
    png.write_bytes(b"old picture")
    return report, png


def _fill(mnt):
    """Fill the small tmpfs to its last block; the filler's path."""
    filler = mnt / "filler"
    with open(filler, "wb", buffering=0) as f:
        try:
            while True:
                f.write(b"\0" * 4096)
        except OSError:
            pass
    return filler


def _sigint_as_by_default():
    """In the child: SIGINT's default action, so that Python turns it into
    KeyboardInterrupt even where the tests were started with SIGINT ignored
    (a background job of a non-interactive shell: the child would inherit
    the SIG_IGN and never see the signal)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start_and_wait_for_the_temporary(where, report, png):
    proc = subprocess.Popen([sys.executable, "-m", "crypto_api", "speed", *LONG, "--json", str(report),
                             "--plot", str(png)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            preexec_fn=_sigint_as_by_default)
    while not [p for p in os.listdir(where) if p.startswith(".run.json.")]:
        if proc.poll() is not None:
            pytest.fail(f"speed ended before measuring: {proc.stderr.read().decode()}")
        time.sleep(0.02)
    time.sleep(0.3)                          # well into the measurement
    return proc


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT, signal.SIGTERM])
def test_a_killed_run_leaves_the_old_report_and_plot(tmp_path, sig):
    pytest.importorskip("matplotlib")
    report, png = _old_files(tmp_path)
    proc = _start_and_wait_for_the_temporary(tmp_path, report, png)
    proc.send_signal(sig)
    proc.wait()
    assert proc.returncode != 0
    assert report.read_text() == "old report\n"
    assert png.read_bytes() == b"old picture"
    left = sorted(p for p in os.listdir(tmp_path) if p not in ("run.json", "run.png"))
    if sig == signal.SIGKILL:
        assert all(p.startswith(".run.json.") for p in left), left   # at most the hidden temporary
    else:
        assert left == []                                        # cleaned up on the way out


def test_a_full_disk_leaves_the_old_report(small_fs, capsys):
    mnt, _resize = small_fs
    report = mnt / "run.json"
    report.write_text("old report\n")
    filler = _fill(mnt)
    rc = main(["speed", *FAST, "--json", str(report)])
    err = capsys.readouterr().err
    assert rc == 1 and "No space left on device" in err, err
    assert report.read_text() == "old report\n"
    assert sorted(os.listdir(mnt)) == ["filler", "run.json"]
    os.unlink(filler)                          # room again: the same command replaces it whole
    assert main(["speed", *FAST, "--json", str(report)]) == 0
    assert json.loads(report.read_text())["results"]


def test_a_full_disk_leaves_the_old_plot(small_fs, tmp_path, capsys):
    pytest.importorskip("matplotlib")
    mnt, _resize = small_fs
    assert main(["speed", *FAST, "--json", str(tmp_path / "run.json")]) == 0
    png = mnt / "run.png"
    png.write_bytes(b"old picture")
    filler = _fill(mnt)
    capsys.readouterr()
    rc = main(["speed", "show", str(tmp_path / "run.json"), "--plot", str(png)])
    err = capsys.readouterr().err
    assert rc != 0 and "No space left on device" in err, err
    assert png.read_bytes() == b"old picture"
    assert sorted(os.listdir(mnt)) == ["filler", "run.png"]
    os.unlink(filler)
    assert main(["speed", "show", str(tmp_path / "run.json"), "--plot", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
