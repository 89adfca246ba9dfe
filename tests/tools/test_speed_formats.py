"""Output formats of ``speed`` rendered from synthetic reports: bench-slope's
number rule and column layout, its CSV, Go benchmark lines as benchstat
reads them, the size table's ratios, and ``openssl speed -mr`` parsing."""

import re

import pytest

from crypto_api.tools import speed_formats as F
from crypto_api.tools.speed_peers import parse_openssl_mr
from crypto_api.tools.speed_run import SCHEMA


def synthetic_report(mhz=2000.0):
    """A report as speed_run builds it, with made-up samples (ns per call)."""
    ours = {"id": "xchacha12", "kind": "ours", "name": "xchacha12", "driver": "xchacha12-generic",
            "cra_name": "xchacha12", "type": "skcipher", "priority": 100, "pinned": False,
            "ops": ["encrypt", "decrypt"]}
    peer = {"id": "peer:p", "kind": "peer", "name": "Some Peer", "library": "lib 1.0", "note": "n",
            "ops": ["encrypt", "decrypt"], "relates": {"xchacha12": "reference"}}
    results = []
    for tid, base in (("xchacha12", 1000.0), ("peer:p", 2000.0)):
        for op in ("encrypt", "decrypt"):
            for size in (64, 4096):
                samples = [base + size * 0.5 + d for d in (0, 10, 20)]
                results.append({"target": tid, "op": op, "size": size, "threads": 1,
                                "iterations": [100, 100, 50], "samples_ns": samples})
    results.append({"target": "xchacha12", "op": "encrypt", "size": 4096, "threads": 2,
                    "iterations": [100] * 3, "samples_ns": [1524.0, 1530.0, 1600.0]})
    slope = [{"target": "xchacha12", "op": "encrypt", "points": [[16, 1008.0], [80, 1040.0]],
              "slope_ns_per_byte": 0.5, "intercept_ns": 1000.0, "r2": 1.0},
             {"target": "peer:p", "op": "encrypt", "points": [[16, 2024.0], [80, 2120.0]],
              "slope_ns_per_byte": 1.5, "intercept_ns": 2000.0, "r2": 1.0}]
    return {
        "schema": SCHEMA, "created": "", "command": "",
        "machine": {"cpu_model": "Test CPU", "cpu_flags": ["avx2"], "cpu_count": 2, "os": "Linux 6",
                    "machine": "x86_64", "python": "3.11", "python_implementation": "CPython"},
        "clock": {"timer": "time.perf_counter_ns", "implementation": "test", "resolution_ns": 1.0,
                  "monotonic": True, "cpu_mhz": mhz, "mhz_source": "given", "cycles": "-"},
        "settings": {"sizes": [64, 4096], "repeat": 3, "sample_ms": 1.0, "threads": 2,
                     "slope_sizes": [16, 80], "slope_repeat": 3, "slope_sample_ms": 0.1},
        "loop_overhead_ns": 30.0, "targets": [ours, peer], "results": results, "slope": slope,
        "openssl": None,
    }


@pytest.mark.parametrize("x, text", [(0.4904, "0.490"), (2.191, "2.19"), (435.14, "435.1"),
                                     (1947.3, "1947"), (99.999, "100.00"), (None, "-")])
def test_bench_slope_number_rule(x, text):
    # libgcrypt picks the format from the unrounded value: 99.999 < 100 prints "%.2f"
    assert F.fmt_num(x) == text


def test_slope_table_columns_and_values():
    lines = F.slope_lines(synthetic_report())
    body = [ln for ln in lines[1:] if "|" in ln]
    assert len({ln.index("|") for ln in body}) == 1       # one column for every section and row
    row = next(ln for ln in body if ln.strip().startswith("enc |") and "0.500" in ln)
    # 0.5 ns/B: 1e9 / 0.5 / 2^20 = 1907.3 MiB/s; 0.5 * 2000 / 1000 = 1.00 c/B; overhead 1000 ns
    assert re.search(r"\|\s+0\.500 ns/B\s+1907 MiB/s\s+1\.00 c/B\s+2000\s+1000 ns$", row)
    header = next(ln for ln in body if "nanosecs/byte" in ln)
    assert header.startswith(" xchacha12-generic")


def test_csv_is_bench_slope_csv():
    lines = F.render_csv(synthetic_report()).splitlines()
    assert lines[0] == "cipher,xchacha12-generic,encrypt,,,0.500,ns/B,1907.35,MiB/s,1.000,c/B,2000,Mhz"
    assert len(lines) == 2
    no_clock = F.render_csv(synthetic_report(mhz=None)).splitlines()[0]
    assert no_clock.endswith(",MiB/s")


GO_LINE = re.compile(r"^(Benchmark\S+)\s+(\d+)\s+(.*)$")


def parse_go(text):
    """Benchmark lines the way benchfmt reads them: name, iterations, (value, unit) pairs."""
    config, rows = {}, []
    for line in text.splitlines():
        m = GO_LINE.match(line)
        if m:
            fields = m.group(3).split()
            assert len(fields) % 2 == 0, line
            values = {fields[i + 1]: float(fields[i]) for i in range(0, len(fields), 2)}
            rows.append((m.group(1), int(m.group(2)), values))
        elif ":" in line:
            k, v = line.split(":", 1)
            config[k] = v.strip()
    return config, rows


def test_go_lines_parse_like_benchstat():
    report = synthetic_report()
    config, rows = parse_go(F.render_go(report))
    assert config == {"goos": "linux", "goarch": "amd64", "pkg": "crypto_api", "cpu": "Test CPU"}
    n_samples = sum(len(r["samples_ns"]) for r in report["results"])
    assert len(rows) == n_samples
    name, iters, values = rows[0]
    assert name == "BenchmarkEncrypt/xchacha12/64-2"
    assert [r[1] for r in rows[:3]] == [100, 100, 50]       # each sample's own batch size
    assert values["ns/op"] == pytest.approx(1032.0)
    assert values["MB/s"] == pytest.approx(64 * 1e3 / 1032.0, abs=0.01)
    names = {r[0] for r in rows}
    assert "BenchmarkDecrypt/Some_Peer/4096-2" in names
    assert "BenchmarkEncrypt/xchacha12/4096/threads=2-2" in names
    threaded = [r for r in rows if "threads=2" in r[0]]
    assert {r[1] for r in threaded} == {200}              # both threads' calls


@pytest.mark.parametrize("x, text", [(3500, "      3500 ns/op"), (123.45, "       123.5 ns/op"),
                                     (12.345, "        12.35 ns/op"), (1.2345, "         1.234 ns/op")])
def test_go_pretty_print_widths(x, text):
    assert F.go_pretty(x, "ns/op") == text


def test_size_table_ratio_and_cycles():
    text = F.render_table(synthetic_report())
    row = next(ln for ln in text.splitlines() if ln.strip().startswith("4096 |") and "x" in ln)
    # ours 1000 + 2048 = 3048 ns, peer 2000 + 2048 = 4048 ns: ratio 4048 / 3048 = 1.33
    assert row.rstrip().endswith("1.33x    1.33x")
    # 4096 bytes in 3048 ns: 1343.8 MB/s -> "1344"; cycles 3048 * 2 / 4096 = 1.49 c/B;
    # spread (3068 - 3048) / 3058 = 0.65%
    assert re.search(r"\|\s+3048\s+1344\s+1\.49\s+0\.7%", row)
    assert "[a] Some Peer (reference)" in text
    scaling = next(ln for ln in text.splitlines() if ln.strip().startswith("4096 |") and ln.endswith("x")
                   and "1 thread" not in ln and ln.count("x") == 1)
    assert scaling.split()[-1] == f"{3048 / 1524:.2f}x"


def test_scaling_divides_by_the_paired_one_thread_samples_and_shows_the_control():
    """A threads result with one-thread samples taken alternately with it is
    scaled by those, not by the table's; the control is listed after."""
    report = synthetic_report()
    many = next(r for r in report["results"] if r["threads"] == 2)
    many["one_thread_samples_ns"] = [3200.0, 3300.0, 3400.0]
    report["thread_control"] = [{"name": "hashlib.sha256", "size": 4096, "threads": 2, "iterations": 10,
                                 "one_thread_samples_ns": [2000.0, 2100.0], "samples_ns": [1050.0, 1100.0]}]
    text = F.render_table(report)
    section = text.split("threads:")[1]
    ours = next(ln for ln in section.splitlines() if ln.strip().startswith("4096 |"))
    assert ours.split()[-1] == f"{3200 / 1524:.2f}x"              # not 3048 / 1524
    control = section.split("control, this machine's own scaling meanwhile: hashlib.sha256")[1]
    row = next(ln for ln in control.splitlines() if ln.strip().startswith("4096 |"))
    assert row.split()[-1] == f"{2000 / 1050:.2f}x"


def test_skipped_sizes_are_shown_with_their_reason():
    report = synthetic_report()
    report["results"].insert(0, {"target": "xchacha12", "op": "encrypt", "size": 16, "threads": 1,
                                 "skipped": "too short"})
    text = F.render_table(report)
    assert re.search(r"^\s+16 \| skipped: too short$", text, re.M)


def test_openssl_machine_readable_output():
    text = "+DT:ChaCha20:1:4096\n+R:985650:ChaCha20:0.990000\n+H:4096\n+F:25:ChaCha20:4078002424.24\n"
    assert parse_openssl_mr(text) == {4096: pytest.approx(4078002424.24)}
    # the rate is bytes per second: count * size / seconds
    assert 985650 * 4096 / 0.99 == pytest.approx(4078002424.24, rel=1e-6)
    with pytest.raises(ValueError):
        parse_openssl_mr("+H:16:64\n+F:25:ChaCha20:1.0\n")


def test_openssl_runs_one_command_per_size(tmp_path):
    """openssl_speed against a stand-in binary that logs its arguments."""
    from crypto_api.tools.speed_peers import openssl_speed
    log = tmp_path / "args"
    fake = tmp_path / "openssl"
    fake.write_text(f"""#!/bin/sh
if [ "$1" = version ]; then echo "OpenSSL 9.9.9 1 Jan 2099 (Library: x)"; exit 0; fi
echo "$@" >> {log}
while [ $# -gt 0 ]; do [ "$1" = -bytes ] && size=$2; shift; done
echo "+DT:ChaCha20:1:$size"
echo "+H:$size"
echo "+F:25:ChaCha20:$((size * 1000))"
""")
    fake.chmod(0o755)
    out = openssl_speed([64, 4096], seconds=1, binary=str(fake))
    assert out["version"] == "OpenSSL 9.9.9 1 Jan 2099"
    assert out["results"] == [{"size": 64, "bytes_per_s": 64000.0}, {"size": 4096, "bytes_per_s": 4096000.0}]
    assert log.read_text().splitlines() == [
        "speed -mr -evp chacha20 -bytes 64 -seconds 1", "speed -mr -evp chacha20 -bytes 4096 -seconds 1"]
    assert openssl_speed([64], binary=str(tmp_path / "missing"))["available"] is False
