"""``crypto-api speed disk``: the disk command's throughput, interleaved rounds.

Runs the real command on a small scratch image: one row per combination
with best >= median >= min, the 512/4096 ratio computed from those rows,
and the scratch directory gone afterwards.
"""

import re

import pytest

from crypto_api.__main__ import main

ROW = re.compile(r"^(\S+)\s+(\d+)\s+(\d+)\s+(journal|checksum)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\.\.([\d.]+)\s*$")
RATIO = re.compile(r"^\s+(\S+)\s+jobs (\d+)\s+(journal|checksum): ([\d.]+)x \(([\d.]+)\.\.([\d.]+)\)$")


def test_speed_disk_times_every_combination_and_cleans_up(tmp_path, capsys):
    argv = ["speed", "disk", "--image-size", "256K", "--repeat", "2", "--cipher", "aes-xts-plain64",
            "--cipher", "xchacha12,aes-adiantum-plain64", "--jobs", "1,2", "--resilience", "checksum",
            "--dir", str(tmp_path)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    rows = {}
    for line in out.splitlines():
        m = ROW.match(line)
        if m:
            spec, ss, jobs, res = m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)
            best, med, lo, hi = map(float, m.group(5, 6, 7, 8))
            assert hi == best >= med >= lo > 0
            rows[(spec, ss, jobs, res)] = best
    assert set(rows) == {(c, ss, j, "checksum") for c in ("aes-xts-plain64", "xchacha12,aes-adiantum-plain64")
                         for ss in (512, 4096) for j in (1, 2)}
    ratios = [RATIO.match(line) for line in out.splitlines()]
    ratios = [m for m in ratios if m]
    assert len(ratios) == 4
    for m in ratios:
        spec, jobs = m.group(1), int(m.group(2))
        want = rows[(spec, 512, jobs, "checksum")] / rows[(spec, 4096, jobs, "checksum")]
        assert float(m.group(4)) == pytest.approx(want, rel=0.05, abs=0.02)    # of the rounded rows
        assert float(m.group(5)) <= float(m.group(6))
    assert list(tmp_path.iterdir()) == []
