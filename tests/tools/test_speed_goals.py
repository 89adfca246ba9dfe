"""``crypto-api speed --goals`` and ``--cpu-mask`` (tools/speed_goals.py).

The goal ratios are computed from a synthetic report with known figures; the
mask is checked where it acts: the ChaCha module loaded under it picks its
AVX2 code, ``openssl speed`` and cryptography get OPENSSL_ia32cap, and the
environment is left as it was.  Never a timing assertion.
"""

import json
import os
import subprocess
import sys

import pytest

from crypto_api.__main__ import main
from crypto_api.arch.x86.cpufeature import IS_X86, boot_cpu_has
from crypto_api.tools import speed_goals
from crypto_api.tools.speed_formats import render_table
from crypto_api.tools.speed_measure import thread_sample_min_ns

FAST = ["--time-budget", "0.05", "--repeat", "2", "--cpu-mhz", "1000"]


def test_openssl_ia32cap_words():
    # CPUID.7 EBX bit 16 (AVX512F) and 31 (AVX512VL) in the second word
    assert speed_goals.openssl_ia32cap(["avx512f", "avx512vl"]) == ":~0x80010000"
    # CPUID.1 ECX bit 28 (AVX) is bit 60 of the first word; VAES is CPUID.7 ECX bit 9
    assert speed_goals.openssl_ia32cap(["avx", "vaes"]) == "~0x1000000000000000:~0x20000000000"
    assert speed_goals.openssl_ia32cap(["nosuchfeature"]) is None
    assert speed_goals.openssl_ia32cap([]) is None


def _result(target, size, ns, threads=1):
    return {"target": target, "op": "encrypt", "size": size, "threads": threads,
            "iterations": [1] * len(ns), "samples_ns": list(ns)}


def _report():
    """Figures chosen so that each ratio is known exactly."""
    adi = "adiantum(xchacha12,aes)"
    results = [
        _result("xchacha20", 4096, [4000.0, 4400.0]),           # 1.024 B/ns
        _result("xchacha20", 1 << 20, [2.0 ** 20 / 2.5]),        # 2.5 B/ns
        _result("xchacha20", 16, [100.0]),
        _result("xchacha12", 16, [50.0]),
        _result(adi, 4096, [2048.0]),                             # 2 B/ns
        _result(adi, 512, [512.0, 600.0, 700.0]),                 # 1 B/ns
        _result("peer:cryptography-aes-256-xts", 512, [4096.0]),  # 0.125 B/ns -> 8x
        _result("peer:cryptography-chacha20", 16, [1000.0]),      # 10x and 20x
        # threads: samples are ns per call of all threads together (aggregate), as
        # speed_measure.Measurement.per_call_ns gives them
        _result("xchacha12", 65536, [65536.0]),                   # 1 B/ns on one thread
        _result("xchacha12", 65536, [65536.0 / 1.9], threads=2),  # 1.9 B/ns together: 1.9x
        _result("xchacha12", 4096, [4096.0]),
        _result("xchacha12", 4096, [2048.0], threads=2),          # a call per thread in one call's time
        _result(adi, 4096, [2048.0], threads=2),                  # two calls in two calls' time
    ]
    openssl = {"available": True, "results": [{"size": 4096, "bytes_per_s": 2.048e9},
                                              {"size": 1 << 20, "bytes_per_s": 2.5e9}]}
    return {"results": results, "openssl": openssl,
            "cpu_mask": {"masked": ["avx512f"], "openssl_ia32cap": ":~0x10000"}}


def test_goal_ratios_from_a_report():
    rows = {r["row"]: r for r in speed_goals.evaluate(_report())}
    assert rows["1"]["ratio"] == pytest.approx(1.024 / 2.048)
    assert rows["1"]["met"] is False and rows["1"]["peer_spread"] is None   # openssl: one figure
    assert rows["1"]["ours_spread"] == pytest.approx(400 / 4200)
    assert rows["2"]["ratio"] == pytest.approx(1.0) and rows["2"]["met"] is True
    assert rows["3"]["ratio"] == pytest.approx(2 / 2.048)
    assert rows["4"]["ratio"] == pytest.approx(8.0)
    assert rows["4"]["ours_spread"] == pytest.approx(188 / 600)
    assert rows["5"]["ratio"] == pytest.approx(10.0) and rows["5'"]["ratio"] == pytest.approx(20.0)
    assert rows["7"]["ratio"] == pytest.approx(1.9) and rows["7"]["met"] is True
    # two threads doing a call each in the time one thread does one: 2x
    assert rows["8"]["ratio"] == pytest.approx(2.0)
    assert rows["8'"]["ratio"] == pytest.approx(1.0) and rows["8'"]["met"] is False
    del_one = {"results": [r for r in _report()["results"] if r["threads"] == 1 or r["target"] != "xchacha12"]}
    assert {r["row"]: r for r in speed_goals.evaluate(del_one)}["8"]["ratio"] is None   # a side missing


def test_per_message_cost_rows():
    """Speed round 3's rows R4 and R5: Adiantum at 512 bytes over itself at 4 KiB (the one-thread
    samples, not the threads result at 4 KiB), and the 16-byte call's stricter goal."""
    report = _report()
    rows = {r["row"]: r for r in speed_goals.evaluate(report)}
    # 1 B/ns at 512 bytes over 2 B/ns at 4 KiB
    assert rows["R4"]["ratio"] == pytest.approx(0.5) and rows["R4"]["met"] is True
    assert (rows["R4"]["ours_mbps"], rows["R4"]["peer_mbps"]) == (pytest.approx(1000), pytest.approx(2000))
    assert rows["R4"]["ours_spread"] == pytest.approx(188 / 600) and rows["R4"]["peer_spread"] == 0
    # the 4 KiB side slower: the ratio rises, and the goal is met or not by it
    slower = dict(report, results=[dict(r, samples_ns=[4096.0 * 2]) if (r["target"], r["size"], r["threads"])
                                   == ("adiantum(xchacha12,aes)", 4096, 1) else r for r in report["results"]])
    assert {r["row"]: r for r in speed_goals.evaluate(slower)}["R4"]["ratio"] == pytest.approx(2.0)
    no_4k = dict(report, results=[r for r in report["results"] if r["size"] != 4096])
    assert {r["row"]: r for r in speed_goals.evaluate(no_4k)}["R4"]["ratio"] is None
    # the same measurement as row 5 against 15x
    assert rows["R5"]["ratio"] == pytest.approx(10.0) and rows["R5"]["met"] is False
    assert rows["R5"]["goal"] == 15.0 and rows["5"]["met"] is True
    text = "\n".join(speed_goals.goal_lines(report))
    assert "  R4 | adiantum 512 B vs adiantum 4 KiB" in text


def test_round3_rows_1_to_3():
    """Speed round 3's rows 1-3 (R1-R3): rows 1-3's measurements against the round's goals;
    a goal with two decimals is printed with them."""
    report = _report()
    rows = {r["row"]: r for r in speed_goals.evaluate(report)}
    for new, old in (("R1", "1"), ("R2", "2"), ("R3", "3")):
        for key in ("ratio", "ours_mbps", "peer_mbps", "ours_spread", "peer_spread"):
            assert rows[new][key] == rows[old][key]
    assert (rows["R1"]["goal"], rows["R2"]["goal"], rows["R3"]["goal"]) == (1.0, 1.15, 1.0)
    # 1.0x at 1 MiB meets row 2's goal, not R2's; 2 / 2.048 at 4 KiB meets row 3's, not R3's
    assert rows["2"]["met"] is True and rows["R2"]["met"] is False
    assert rows["3"]["met"] is True and rows["R3"]["met"] is False
    faster = dict(report, openssl={"available": True, "results": [{"size": 1 << 20, "bytes_per_s": 2.0e9}]})
    assert {r["row"]: r for r in speed_goals.evaluate(faster)}["R2"]["met"] is True    # 1.25x
    text = "\n".join(speed_goals.goal_lines(report))
    r2 = next(l for l in text.splitlines() if l.startswith("  R2 |"))
    assert " 1.15x " in r2 and "no" in r2
    assert "|   1.00x   1.0x  yes |" in next(l for l in text.splitlines() if l.startswith("   2 |"))


def test_scaling_rows_use_the_one_thread_samples_taken_with_them():
    report = _report()
    many = next(r for r in report["results"] if r["size"] == 4096 and r["threads"] == 2
                and r["target"] == "xchacha12")
    many["one_thread_samples_ns"] = [3072.0, 3500.0]                  # paired: 1.5x, not 2x
    report["thread_control"] = [{"name": "hashlib.sha256", "size": 4096, "threads": 2, "iterations": 1,
                                 "one_thread_samples_ns": [1900.0], "samples_ns": [1000.0]},
                                {"name": "hashlib.sha256", "size": 16, "threads": 2, "iterations": 1,
                                 "one_thread_samples_ns": [10.0], "samples_ns": [10.0]}]
    rows = {r["row"]: r for r in speed_goals.evaluate(report)}
    assert rows["8"]["ratio"] == pytest.approx(1.5) and rows["8"]["met"] is False
    assert rows["8"]["peer_spread"] == pytest.approx(428 / 3286)
    control = speed_goals.control_rows(report)
    # only the sizes of the scaling rows (64 KiB was not measured here)
    assert [c["what"] for c in control] == ["control: hashlib.sha256 4 KiB, 2 threads vs 1"]
    assert control[0]["ratio"] == pytest.approx(1.9)
    assert "control: hashlib.sha256 4 KiB, 2 threads vs 1           |   1.90x" in \
        "\n".join(speed_goals.goal_lines(report))


def test_each_row_shows_both_sides_in_mb_per_s():
    report = _report()
    rows = {r["row"]: r for r in speed_goals.evaluate(report)}
    assert (rows["2"]["ours_mbps"], rows["2"]["peer_mbps"]) == (pytest.approx(2500), pytest.approx(2500))
    assert (rows["4"]["ours_mbps"], rows["4"]["peer_mbps"]) == (pytest.approx(1000), pytest.approx(125))
    # a scaling row: two threads' aggregate beside one thread's
    assert (rows["7"]["ours_mbps"], rows["7"]["peer_mbps"]) == (pytest.approx(1900), pytest.approx(1000))
    lines = speed_goals.goal_lines(report)
    assert lines[2].endswith("| ours MB/s peer MB/s")
    row4 = next(l for l in lines if l.lstrip().startswith("4 |"))
    assert row4.split("|")[-1].split() == ["1000", "125"]


def _wide_result(target, size, ns, op="encrypt"):
    return dict(_result(target, size, ns), op=op)


def test_avx512_rows_come_from_the_second_phase_report():
    """Rows R6-R9 read the ``wide`` report only (figures chosen for exact ratios)."""
    report = _report()
    assert all(r["ratio"] is None for r in speed_goals.evaluate(report) if r["row"] in ("R6", "R7", "R8", "R9"))
    report["wide"] = {"results": [
        _wide_result("poly1305", 65536, [65536.0 / 10], op="digest"),          # 10,000 MB/s
        _wide_result("peer:cryptography-poly1305", 65536, [65536.0 / 5], op="digest"),
        _wide_result("rfc7539(chacha20,poly1305)", 1 << 20, [(1 << 20) / 3.0]),
        _wide_result("peer:cryptography-chacha20poly1305", 1 << 20, [(1 << 20) / 2.5]),
        _wide_result("ctr(aria)", 65536, [65536.0 / 2]),
        _wide_result("ctr(aes)", 65536, [65536.0 / 10]),
        _wide_result("xts(aria)", 65536, [65536.0 / 1.6]),
        # the first phase's names must not be read for these rows
        _wide_result("poly1305", 65536, [1.0]) | {"op": "encrypt"}],
        "targets": [{"kind": "ours", "name": "ctr(aria)", "driver": "ctr-aria-avx512"},
                    {"kind": "peer", "name": "cryptography Poly1305", "driver": None}]}
    rows = {r["row"]: r for r in speed_goals.evaluate(report)}
    assert rows["R6"]["ratio"] == pytest.approx(2.0) and rows["R6"]["met"] is True
    assert rows["R7"]["ratio"] == pytest.approx(1.2) and rows["R7"]["met"] is True
    assert rows["R8"]["ratio"] == pytest.approx(0.2) and rows["R8"]["met"] is True
    assert rows["R9"]["ratio"] == pytest.approx(0.8) and rows["R9"]["met"] is True
    assert (rows["R6"]["ours_mbps"], rows["R6"]["peer_mbps"]) == (pytest.approx(10000), pytest.approx(5000))
    text = "\n".join(speed_goals.goal_lines(report))
    assert "rows R6-R9: AVX-512 on, a second run (composite registry): ctr(aria) = ctr-aria-avx512" in text
    report["wide"] = {"error": "the AVX-512 phase failed (exit status 1): boom", "results": []}
    assert "rows R6-R9 (AVX-512 on): not measured: the AVX-512 phase failed" in \
        "\n".join(speed_goals.goal_lines(report))
    assert {r["row"]: r for r in speed_goals.evaluate(report)}["R6"]["ratio"] is None


def test_the_second_phase_is_an_unmasked_composite_child_with_the_same_samples():
    from types import SimpleNamespace
    from crypto_api.tools import speed_goals_wide
    cmd = speed_goals_wide.command(SimpleNamespace(repeat=7, time_budget=3.0, cpu_mhz=None), "/x/w.json")
    assert cmd[1:4] == ["-m", "crypto_api", "speed"] and "--goals" not in cmd and "--cpu-mask" not in cmd
    assert cmd[cmd.index("--kernel") + 1] == "composite" and "--peers" in cmd
    assert cmd[cmd.index("--repeat") + 1] == "7" and cmd[cmd.index("--time-budget") + 1] == "3.0"
    assert cmd[cmd.index("--json") + 1] == "/x/w.json"
    assert [cmd[i + 1] for i, a in enumerate(cmd) if a == "--alg"] == list(speed_goals.WIDE_ALGS)
    assert {g.alg for g in speed_goals.GOALS if g.wide} <= set(speed_goals.WIDE_ALGS)
    assert {g.peer for g in speed_goals.GOALS if g.wide and not g.peer.startswith("peer:")} \
        <= set(speed_goals.WIDE_ALGS)


def test_goal_lines_in_the_table():
    report = _report()
    text = "\n".join(speed_goals.goal_lines(report))
    assert "cpu mask: avx512f; OPENSSL_ia32cap=:~0x10000" in text
    assert "0.50x" in text and "8.00x" in text and "1.90x" in text
    assert "disk tool" in text                                   # row 6 is measured elsewhere


@pytest.mark.skipif(not (IS_X86 and boot_cpu_has("avx512f") and boot_cpu_has("avx2")),
                    reason="needs a CPU with avx512f and avx2 (masking AVX-512 must leave AVX2)")
def test_cpu_mask_selects_avx2_for_modules_loaded_by_the_run(tmp_path):
    """A fresh process: the run loads the ChaCha module under the mask, and
    openssl speed / cryptography are told through OPENSSL_ia32cap."""
    path = tmp_path / "run.json"
    code = ("import os, sys; from crypto_api.__main__ import main; "
            "rc = main(sys.argv[1:]); from crypto_api.arch.x86 import chacha_glue; "
            "print(rc, chacha_glue.impl.name, os.environ.get('OPENSSL_ia32cap'))")
    env = {k: v for k, v in os.environ.items() if k not in ("CRYPTO_API_CPU_MASK", "OPENSSL_ia32cap")}
    p = subprocess.run([sys.executable, "-c", code, "speed", "--alg", "xchacha12", "--sizes", "4096",
                        "--no-slope", "--cpu-mask", "avx512f,avx512vl,avx512bw", "--json", str(path), *FAST],
                       capture_output=True, text=True, env=env, timeout=600)
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[-1] == "0 avx2 None"              # the mask is lifted afterwards
    report = json.loads(path.read_text())
    assert report["cpu_mask"]["masked"] == ["avx512f", "avx512vl", "avx512bw"]
    assert report["cpu_mask"]["openssl_ia32cap"] == ":~0xc0010000"
    assert "cpu mask: avx512f, avx512vl, avx512bw hidden" in render_table(report)


def test_goals_run_reports_every_row(capsys, tmp_path):
    path = tmp_path / "run.json"
    rc = main(["speed", "--goals", "--alg", "xchacha12", "--sizes", "16,4096", "--cpu-mask", "none",
               "--json", str(path), *FAST])
    out, err = capsys.readouterr()
    assert rc == 0, err
    report = json.loads(path.read_text())
    assert report["settings"]["threads"] == 2 and not report["slope"]
    assert [r["row"] for r in report["goals"]] == [g.row for g in speed_goals.GOALS]
    rows = {r["row"]: r for r in report["goals"]}
    assert rows["8"]["ratio"] is not None and rows["5'"]["ratio"] is not None
    two = next(r for r in report["results"] if r["target"] == "xchacha12" and r["op"] == "encrypt"
               and r["size"] == 4096 and r["threads"] == 2)
    # the scaling row is the threads table's scaling: one thread's ns per call
    # (sampled alternately with the two threads) over the aggregate ns per call of two
    scaling = min(two["one_thread_samples_ns"]) / min(two["samples_ns"])
    assert len(two["one_thread_samples_ns"]) == len(two["samples_ns"]) == report["settings"]["repeat"]
    assert rows["8"]["ratio"] == pytest.approx(scaling)
    # a threads sample is planned to outlast the interpreter's first forced switches:
    # at the table's best rate for the same point its calls take thread_sample_min_ns
    # (checked on the plan, from the report's own figures, not on how fast the calls ran)
    one = next(r for r in report["results"] if r["target"] == "xchacha12" and r["op"] == "encrypt"
               and r["size"] == 4096 and r["threads"] == 1)
    assert two["iterations"][0] * min(one["samples_ns"]) >= thread_sample_min_ns() * 0.9999  # the report rounds ns to 3 places
    assert f"{scaling:.2f}x" in out.split("threads:")[1]
    # the control beside it: hashlib.sha256 at each size of the threads phase
    control = {c["size"]: c for c in report["thread_control"]}
    assert sorted(control) == [16, 4096] and control[4096]["name"] == "hashlib.sha256"
    assert all(x > 0 for c in control.values() for x in c["samples_ns"] + c["one_thread_samples_ns"])
    assert [c["what"] for c in report["goals_control"]] == ["control: hashlib.sha256 4 KiB, 2 threads vs 1"]
    assert rows["1"]["ratio"] is None                           # xchacha20 was not asked for
    assert "speed goals: ratio" in out and "cpu_mask" not in report
    assert "wide" not in report and rows["R6"]["ratio"] is None   # --alg chosen: no AVX-512 phase


def test_bad_cpu_mask_is_one_line(capsys):
    with pytest.raises(SystemExit):
        main(["speed", "--cpu-mask", "avx512f;rm"])
    assert "--cpu-mask" in capsys.readouterr().err


def test_openssl_rounds_interleave_sizes_keep_the_best_and_every_round(tmp_path):
    """A stand-in binary whose rate grows with each call: rounds go size after
    size, and the best rate (the last round here) is the one rated."""
    from crypto_api.tools.speed_peers import openssl_speed
    log = tmp_path / "args"
    fake = tmp_path / "openssl"
    fake.write_text(f"""#!/bin/sh
if [ "$1" = version ]; then echo "OpenSSL 9.9.9 1 Jan 2099 (Library: x)"; exit 0; fi
echo "$@" >> {log}
n=$(wc -l < {log})
while [ $# -gt 0 ]; do [ "$1" = -bytes ] && size=$2; shift; done
echo "+H:$size"
echo "+F:25:ChaCha20:$((size * 1000 * n))"
""")
    fake.chmod(0o755)
    out = openssl_speed([64, 4096], seconds=1, binary=str(fake), rounds=3)
    sizes = [line.split()[5] for line in log.read_text().splitlines()]
    assert sizes == ["64", "4096"] * 3
    assert out["results"] == [
        {"size": 64, "bytes_per_s": 64000.0 * 5, "rounds_bytes_per_s": [64000.0, 64000.0 * 3, 64000.0 * 5]},
        {"size": 4096, "bytes_per_s": 4096000.0 * 6,
         "rounds_bytes_per_s": [4096000.0 * 2, 4096000.0 * 4, 4096000.0 * 6]}]
    report = {"results": [_result("xchacha20", 4096, [1000.0])], "openssl": out}
    row = {r["row"]: r for r in speed_goals.evaluate(report)}["1"]
    assert row["ratio"] == pytest.approx(4.096 / (4096000.0 * 6 / 1e9))
    assert row["peer_spread"] == pytest.approx((1 / 2 - 1 / 6) / (1 / 4))     # on ns per call, as ours


def test_spread_places_rounds_evenly_at_most_one_after_each():
    from crypto_api.tools.speed_run import _spread
    assert _spread(2, 4) == [1, 3]
    assert _spread(5, 5) == [0, 1, 2, 3, 4]
    assert _spread(1, 5) == [4]
    assert _spread(7, 5) == [0, 1, 2, 3, 4]         # the other two run after them all
    assert _spread(0, 5) == []


@pytest.mark.parametrize("rounds, after", [(4, [1, 2, 3, 4]), (2, [2, 4]), (6, [1, 2, 3, 4])])
def test_openssl_rounds_run_between_the_tables_rounds(monkeypatch, rounds, after):
    """Each openssl round sees how many samples our cell had taken by then:
    one after each of the table's rounds it was spread to, the rest at the end."""
    from crypto_api.tools import speed_run

    class Target:
        id = name = "fake"
        cra_name = "xchacha20"
        ops = ("encrypt",)

        def __init__(self):
            self.calls = 0

        def sizes(self, sizes):
            return sizes

        def describe(self):
            return {"id": self.id}

        def op(self, opname, size):
            def one():
                self.calls += 1
            return one

    target = Target()
    seen = []

    class FakeOpenssl:
        def __init__(self, sizes, seconds=1, **kwargs):
            self.rounds = 0

        def round(self):
            self.rounds += 1
            seen.append(target.calls)

        def report(self):
            return {"available": True, "rounds": self.rounds}

    monkeypatch.setattr(speed_run, "OpensslSpeed", FakeOpenssl)
    settings = speed_run.Settings(sizes=[64], repeat=4, sample_ms=0.05, slope=False, openssl=True,
                                  openssl_rounds=rounds, mhz=1000.0)
    report = speed_run.run([target], [], settings, progress=False)
    assert report["openssl"]["rounds"] == rounds
    assert report["openssl"]["between_rounds"] == after
    assert len(seen) == rounds
    between = seen[:len(after)]
    assert between == sorted(set(between)) and 0 < between[0]     # after samples, each later
    assert seen[len(after):] == [target.calls] * (rounds - len(after))   # the rest at the end
    assert len(report["results"][0]["samples_ns"]) == 4
