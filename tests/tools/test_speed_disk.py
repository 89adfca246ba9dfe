"""``crypto-api speed disk``: the disk command's throughput, interleaved rounds.

Runs the real command on a small scratch image: one row per combination
with best >= median >= min, the 512/4096 and jobs 2/jobs 1 ratios computed
from those rows, the tfm.encrypt peer's row per cipher and each row's ratio
to it, and the scratch directory gone afterwards.
"""

import re

import pytest

from crypto_api.__main__ import main

ROW = re.compile(r"^(\S+)\s+(\d+)\s+(\d+)\s+(journal|checksum)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\.\.([\d.]+)\s*$")
RATIO = re.compile(r"^\s+(\S+)\s+jobs (\d+)\s+(journal|checksum): ([\d.]+)x \(([\d.]+)\.\.([\d.]+)\)$")
PEER = re.compile(r"^(\S+)\s+peer\s+-\s+-\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\.\.([\d.]+)\s*$")
JOBS_RATIO = re.compile(r"^\s+(\S+)\s+(\d+)\s+(journal|checksum) jobs (\d+): ([\d.]+)x \(([\d.]+)\.\.([\d.]+)\)$")
PEER_RATIO = re.compile(r"^\s+(\S+)\s+(\d+)\s+(journal|checksum) jobs (\d+) vs peer: ([\d.]+)x "
                        r"\(([\d.]+)\.\.([\d.]+)\)$")


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
    peers = {}
    for m in filter(None, map(PEER.match, out.splitlines())):
        best, med, lo, hi = map(float, m.group(2, 3, 4, 5))
        assert hi == best >= med >= lo > 0
        peers[m.group(1)] = best
    assert set(peers) == {"aes-xts-plain64", "xchacha12,aes-adiantum-plain64"}
    jobs_ratios = [m for m in map(JOBS_RATIO.match, out.splitlines()) if m]
    assert {(m.group(1), int(m.group(2))) for m in jobs_ratios} == {(c, ss) for c in peers for ss in (512, 4096)}
    for m in jobs_ratios:
        spec, ss = m.group(1), int(m.group(2))
        want = rows[(spec, ss, 2, "checksum")] / rows[(spec, ss, 1, "checksum")]
        assert float(m.group(5)) == pytest.approx(want, rel=0.05, abs=0.02)
        assert float(m.group(6)) <= float(m.group(7))
    peer_ratios = [m for m in map(PEER_RATIO.match, out.splitlines()) if m]
    assert len(peer_ratios) == len(rows)
    for m in peer_ratios:
        spec, ss, jobs = m.group(1), int(m.group(2)), int(m.group(4))
        want = rows[(spec, ss, jobs, "checksum")] / peers[spec]
        assert float(m.group(5)) == pytest.approx(want, rel=0.05, abs=0.02)
        assert float(m.group(6)) <= float(m.group(7))
    assert list(tmp_path.iterdir()) == []
