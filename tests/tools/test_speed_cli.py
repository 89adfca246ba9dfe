"""``crypto-api speed`` end to end with tiny time budgets (never asserting a timing):
the JSON report, driver pinning, peers and ratios, threads, bench-slope, Go
lines, ``speed compare`` and one-line errors for bad arguments."""

import json
import re

import pytest

import crypto_api as capi
from crypto_api import registry
from crypto_api.__main__ import main
from crypto_api.tools import speed_peers
from crypto_api.tools.speed_run import SCHEMA
from crypto_api.tools.speed_targets import pattern
from kernel_names import driver, instance

TIMER_NAME = "time.perf_counter_ns"   # the clock the JSON must name (not a timing)

FAST = ["--time-budget", "0.05", "--repeat", "2", "--no-slope", "--cpu-mhz", "1000"]


@pytest.fixture(autouse=True)
def _modules_loaded():
    """Load the modules before output is captured (module import notes go to stderr)."""
    for name in ("xchacha12", "chacha20", "poly1305", "aes"):
        capi.request_module("crypto-" + name)


def run(capsys, *argv):
    rc = main(["speed", *argv])
    out, err = capsys.readouterr()
    return rc, out, err


def run_json(capsys, tmp_path, *argv):
    path = tmp_path / "run.json"
    rc, out, err = run(capsys, *argv, "--json", str(path))
    assert rc == 0, err
    return json.loads(path.read_text()), out


def check_schema(report):
    """The report's shape: what `speed compare` and the renderers rely on."""
    assert report["schema"] == SCHEMA
    for key in ("cpu_model", "cpu_flags", "cpu_count", "python"):
        assert key in report["machine"]
    clock = report["clock"]
    assert clock["timer"] == TIMER_NAME and "mhz_source" in clock
    assert isinstance(report["loop_overhead_ns"], float)
    ids = {t["id"] for t in report["targets"]}
    for t in report["targets"]:
        assert t["kind"] in ("ours", "peer") and t["ops"]
        if t["kind"] == "ours":
            assert {"driver", "cra_name", "type", "pinned", "priority"} <= set(t)
    for r in report["results"]:
        assert r["target"] in ids and r["op"] in ("encrypt", "decrypt", "digest")
        assert isinstance(r["size"], int) and r["threads"] >= 1
        if "skipped" in r:
            assert isinstance(r["skipped"], str) and r["skipped"]
        else:
            assert len(r["samples_ns"]) == len(r["iterations"]) == report["settings"]["repeat"]
            assert all(isinstance(k, int) and k >= 1 for k in r["iterations"])
            assert all(x > 0 for x in r["samples_ns"])


def test_json_report_types_sizes_and_skips(capsys, tmp_path):
    report, out = run_json(capsys, tmp_path, *FAST, "--alg", "xchacha12", "--alg", "poly1305",
                           "--alg", "aes", "--alg", "adiantum(xchacha12,aes)", "--sizes", "8,16,64")
    check_schema(report)
    types = {t["name"]: t["type"] for t in report["targets"]}
    assert types == {"xchacha12": "skcipher", "poly1305": "shash", "aes": "cipher",
                     "adiantum(xchacha12,aes)": "skcipher"}
    cells = {(r["target"], r["op"], r["size"]): r for r in report["results"]}
    # a single-block cipher runs at its block size only
    assert sorted(k for k in cells if k[0] == "aes") == [("aes", "decrypt", 16), ("aes", "encrypt", 16)]
    # the v5.0 poly1305 takes its key from the first 32 bytes: 8 and 16 are skipped, 64 measured
    assert "32" in cells[("poly1305", "digest", 16)]["skipped"]
    assert "samples_ns" in cells[("poly1305", "digest", 64)]
    # Adiantum needs at least 16 bytes
    assert "skipped" in cells[("adiantum(xchacha12,aes)", "encrypt", 8)]
    assert "samples_ns" in cells[("adiantum(xchacha12,aes)", "encrypt", 16)]
    assert "xchacha12" in out and "skipped:" in out


def _drivers_of(cra_name):
    return [a.cra_driver_name for a in registry.snapshot()
            if a.cra_name == cra_name and not a.is_larval and a.tested]


def test_driver_pinning_records_each_driver(capsys, tmp_path):
    drivers = _drivers_of("xchacha12")
    assert driver("xchacha12-generic") in drivers
    argv = [x for d in drivers for x in ("--driver", d)]
    report, out = run_json(capsys, tmp_path, *FAST, *argv, "--sizes", "64")
    assert [(t["name"], t["driver"], t["pinned"]) for t in report["targets"]] == \
        [(d, d, True) for d in drivers]
    for d in drivers:
        assert {r["target"] for r in report["results"] if r["target"] == d} == {d}
        assert f"{d}: {d}  [skcipher" in out


def test_template_with_driver_names_is_pinned(capsys, tmp_path):
    name = instance("adiantum(xchacha12-generic,aes-generic,nhpoly1305-generic)")
    report, _out = run_json(capsys, tmp_path, *FAST, "--driver", name, "--sizes", "16")
    assert report["targets"][0]["driver"] == name


def test_algorithm_name_as_driver_is_refused(capsys):
    rc, out, err = run(capsys, *FAST, "--driver", "xchacha12", "--sizes", "16")
    assert rc == 1 and out == ""
    assert len(err.splitlines()) == 1
    assert "algorithm name" in err and "driver name" in err


def test_unknown_name_is_one_line(capsys):
    rc, _out, err = run(capsys, *FAST, "--alg", "nosuch", "--sizes", "16")
    assert rc == 1
    assert err.splitlines() == ["crypto-api speed: [Errno 2] ENOENT: nosuch: no skcipher, aead, shash or "
                                "cipher of that name (`crypto-api list` shows what is registered)"]


@pytest.mark.parametrize("argv", [
    ["--sizes", "abc"], ["--sizes", "0"], ["--sizes", "16,,64"], ["--sizes", "65M"],
    ["--repeat", "0"], ["--format", "xml"], ["--threads", "two"], ["--time-budget", "-1"],
    ["--slope-sizes", "16:32"], ["--tcrypt", "-1"],
])
def test_bad_arguments_give_one_line(capsys, argv):
    with pytest.raises(SystemExit) as e:
        main(["speed", *argv])
    assert e.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1 and "error" in err


@pytest.mark.parametrize("argv, words", [
    (["--cpu-mhz", "fast"], "--cpu-mhz"),
    (["--sec", "2"], "--sec"),
    (["--tcrypt", "219", "--peers"], "--peers"),
    (["--tcrypt", "5"], "mode not implemented"),
    (["--format", "go", "--no-slope", "--alg", "aes"], None),        # fine: go has no slope
    (["--format", "slope", "--no-slope"], "nothing to measure"),
])
def test_refusals_are_one_line(capsys, argv, words):
    rc, _out, err = run(capsys, "--time-budget", "0.05", "--repeat", "2", "--sizes", "16", *argv)
    if words is None:
        assert rc == 0
        return
    assert rc == 1
    assert len(err.splitlines()) == 1 and words in err


def test_peers_are_measured_with_ratios(capsys, tmp_path):
    report, out = run_json(capsys, tmp_path, *FAST, "--alg", "chacha20", "--sizes", "64", "--peers")
    check_schema(report)
    peers = [t for t in report["targets"] if t["kind"] == "peer"]
    assert {p["id"] for p in peers} >= {"peer:cryptography-chacha20", "peer:pycryptodome-chacha20"}
    for p in peers:
        assert any(r["target"] == p["id"] and "samples_ns" in r for r in report["results"])
    assert re.search(r"^\s+64 \|.*\|\s+\d+\.\d\dx\s+\d+\.\d\dx", out, re.M)
    assert "peer cryptography ChaCha20" in out


def test_same_algorithm_peers_compute_the_same_cipher():
    """A peer marked "same" really is that algorithm, with the keys the tool gives it."""
    peers = {p.key: p for p in speed_peers.available_peers()}
    data = pattern(200, seed=200)
    with capi.crypto_alloc_skcipher("chacha20") as tfm:
        tfm.setkey(pattern(32, seed=1))
        ours = tfm.encrypt(data, pattern(16, seed=3))
    assert peers["cryptography-chacha20"].op("encrypt", 200)() == ours
    with capi.crypto_alloc_skcipher("xchacha20") as tfm:
        tfm.setkey(pattern(32, seed=1))
        ours = tfm.encrypt(data, pattern(24, seed=3) + bytes(8))
    assert peers["pycryptodome-xchacha20"].op("encrypt", 200)() == ours
    with capi.crypto_alloc_shash("poly1305") as h:
        assert peers["cryptography-poly1305"].op("digest", 200)() == h.digest(data)
    with capi.crypto_alloc_cipher("aes") as c:
        c.setkey(pattern(32, seed=1))
        assert peers["pycryptodome-aes-block"].op("encrypt", 16)() == c.encrypt_one(pattern(16, seed=16))
    for name in ("sha256", "sha224", "sha512", "sha384"):
        with capi.crypto_alloc_shash(name) as h:
            assert peers[f"hashlib-{name}"].op("digest", 200)() == h.digest(data)
            assert peers[f"hashlib-{name}"].relates == {name: "same"}


def test_threads_report_aggregate_and_scaling(capsys, tmp_path):
    report, out = run_json(capsys, tmp_path, *FAST, "--alg", "xchacha12", "--sizes", "4096",
                           "--threads", "2")
    threaded = [r for r in report["results"] if r["threads"] == 2]
    assert {(r["op"], r["size"]) for r in threaded} == {("encrypt", 4096), ("decrypt", 4096)}
    assert all(len(r["samples_ns"]) == 2 for r in threaded)
    assert "scaling" in out and re.search(r"^\s+4096 \|\s+\S+\s+\S+\s+\d+\.\d\dx$", out, re.M)


def test_bench_slope_and_csv(capsys, tmp_path):
    report, out = run_json(capsys, tmp_path, "--time-budget", "0.2", "--repeat", "2", "--format",
                           "slope", "--alg", "xchacha12", "--alg", "aes", "--slope-sizes", "16:272:128")
    assert report["results"] == []                      # the slope format skips the size table
    by = {(s["target"], s["op"]): s for s in report["slope"]}
    line = by[("xchacha12", "encrypt")]
    assert [p[0] for p in line["points"]] == [16, 144, 272]
    assert isinstance(line["slope_ns_per_byte"], float) and isinstance(line["intercept_ns"], float)
    assert by[("aes", "encrypt")]["intercept_ns"] is None and "block" in by[("aes", "encrypt")]["note"]
    assert "nanosecs/byte   mebibytes/sec   cycles/byte" in out and "per-call overhead" in out
    rc, csv, _err = run(capsys, "--time-budget", "0.2", "--repeat", "2", "--format", "csv",
                        "--alg", "xchacha12", "--slope-sizes", "16,1024")
    assert rc == 0
    rows = [ln.split(",") for ln in csv.splitlines()]
    assert [r[:3] + r[6:7] + r[8:9] for r in rows] == [
        ["cipher", rows[0][1], "encrypt", "ns/B", "MiB/s"], ["cipher", rows[0][1], "decrypt", "ns/B", "MiB/s"]]


def test_go_format_lines(capsys):
    rc, out, _err = run(capsys, *FAST, "--format", "go", "--alg", "xchacha12", "--sizes", "16,64")
    assert rc == 0
    lines = [ln for ln in out.splitlines() if ln.startswith("Benchmark")]
    assert len(lines) == 2 * 2 * 2                        # ops x sizes x repeat
    for ln in lines:
        m = re.match(r"^Benchmark(Encrypt|Decrypt)/xchacha12/(16|64)-\d+\s+(\d+)\s+(\S+) ns/op\s+(\S+) MB/s$",
                     ln)
        assert m, ln
        assert float(m.group(5)) == pytest.approx(int(m.group(2)) * 1e3 / float(m.group(4)), rel=1e-2)


def _report(samples_by_size, name="xchacha12", driver="xchacha12-generic"):
    return {"schema": SCHEMA, "targets": [{"id": name, "kind": "ours", "name": name, "driver": driver,
                                           "cra_name": "xchacha12", "ops": ["encrypt"]}],
            "results": [{"target": name, "op": "encrypt", "size": size, "threads": 1,
                         "iterations": [10] * len(samples),
                         "samples_ns": samples} for size, samples in samples_by_size.items()]}


def test_compare_synthetic_reports(capsys, tmp_path):
    old = _report({64: [100, 101, 102, 103, 104, 105], 4096: [500, 502, 504, 506, 508, 510]})
    new = _report({64: [50, 51, 52, 53, 54, 55], 4096: [501, 503, 505, 507, 509, 511]})
    a, b = tmp_path / "old.json", tmp_path / "new.json"
    a.write_text(json.dumps(old))
    b.write_text(json.dumps(new))
    rc, out, _err = run(capsys, "compare", str(a), str(b))
    assert rc == 0
    row64 = next(ln for ln in out.splitlines() if ln.startswith("xchacha12/encrypt/64 "))
    # medians 102.5 -> 52.5 (-48.78%); fully separated 6+6: p = 2 / C(12,6) = 2/924 = 0.002
    assert "-48.78% (p=0.002 n=6)" in row64
    row4096 = next(ln for ln in out.splitlines() if ln.startswith("xchacha12/encrypt/4096 "))
    assert "~ (p=" in row4096 and "%" not in row4096.split("~")[1]
    geo = next(ln for ln in out.splitlines() if ln.startswith("geomean"))
    # geometric means of the medians: sqrt(102.5 * 505) -> sqrt(52.5 * 506)
    change = ((52.5 * 506) / (102.5 * 505)) ** 0.5 - 1
    assert geo.endswith(f"{change * 100:+.2f}%")


def test_compare_two_targets_of_one_report(capsys, tmp_path):
    both = _report({64: [10, 11, 12, 13, 14]})
    both["targets"].append(dict(both["targets"][0], id="fast", name="fast"))
    both["results"].append(dict(both["results"][0], target="fast", samples_ns=[5, 5.5, 6, 6.5, 7]))
    f = tmp_path / "one.json"
    f.write_text(json.dumps(both))
    rc, out, _err = run(capsys, "compare", str(f), str(f), "--old-target", "xchacha12",
                        "--new-target", "fast")
    assert rc == 0
    row = next(ln for ln in out.splitlines() if ln.startswith("encrypt/64 "))
    assert "(p=0.008 n=5)" in row and "± ∞ ¹" in row     # 2/252; fewer than 6 samples: no CI
    assert "need >= 6 samples" in out


def test_compare_refuses_other_json(capsys, tmp_path):
    f = tmp_path / "x.json"
    f.write_text('{"a": 1}')
    rc, _out, err = run(capsys, "compare", str(f), str(f))
    assert rc == 1 and len(err.splitlines()) == 1 and "not a speed report" in err


def test_tcrypt_through_the_cli(capsys):
    rc, out, err = run(capsys, "--tcrypt", "219", "--cpu-mhz", "1000")
    assert rc == 0
    assert out.count("testing speed of async adiantum(") == 4
    assert err.splitlines()[-1] == "modprobe: ERROR: could not insert 'tcrypt': Resource temporarily unavailable"
    first = err.splitlines()[0]
    assert TIMER_NAME.split(".")[1] in first and "1000 MHz" in first


def test_unwritable_report_fails_before_measuring(capsys, tmp_path):
    path = tmp_path / "missing" / "run.json"
    rc, out, err = run(capsys, *FAST, "--alg", "aes", "--json", str(path))
    assert rc == 1 and out == ""
    assert err.splitlines() == [f"crypto-api speed: No such file or directory: {path}"]


def test_failed_run_leaves_an_existing_report_alone(capsys, tmp_path):
    path = tmp_path / "run.json"
    path.write_text("old report")
    rc, _out, _err = run(capsys, *FAST, "--alg", "nosuch", "--json", str(path))
    assert rc == 1
    assert path.read_text() == "old report"
    assert [p.name for p in tmp_path.iterdir()] == ["run.json"]        # no temporary left


def test_show_renders_a_saved_report_like_the_run(capsys, tmp_path):
    report, out = run_json(capsys, tmp_path, *FAST, "--alg", "xchacha12", "--sizes", "64")
    rc, shown, _err = run(capsys, "show", str(tmp_path / "run.json"))
    assert rc == 0 and shown == out
    rc, go, _err = run(capsys, "show", str(tmp_path / "run.json"), "--format", "go")
    assert rc == 0 and go.count("\nBenchmark") == 2 * 2


def test_into_writes_skciphers_into_one_preallocated_buffer(capsys, tmp_path):
    from crypto_api.tools.speed_targets import Target
    report, out = run_json(capsys, tmp_path, "--alg", "xchacha12", "--alg", "poly1305",
                           "--sizes", "64,4K", "--into", *FAST)
    into = {t["name"]: t["into"] for t in report["targets"]}
    assert into == {"xchacha12": True, "poly1305": False}     # a shash has no output buffer
    assert "out=buf" in out and "preallocated" in out
    t = Target("xchacha12", into=True)
    try:
        fn = t.op("encrypt", 100)
        buf = fn.args[2]
        assert fn() is buf and bytes(buf) == t.tfm.encrypt(pattern(100, seed=100), t.iv)
    finally:
        t.free()


def test_into_does_not_apply_to_tcrypt(capsys):
    rc, out, err = run(capsys, "--tcrypt", "219", "--into")
    assert rc != 0 and "--into" in err and len(err.strip().splitlines()) == 1


def test_into_peers_write_the_same_cipher_into_their_buffers():
    peers = {p.key: p for p in speed_peers.available_peers(into=True)}
    data = pattern(200, seed=200)
    with capi.crypto_alloc_skcipher("chacha20") as tfm:
        tfm.setkey(pattern(32, seed=1))
        ours = tfm.encrypt(data, pattern(16, seed=3))
    buf = peers["cryptography-chacha20"].op("encrypt", 200)()
    assert type(buf) is bytearray and bytes(buf[:200]) == ours
    with capi.crypto_alloc_skcipher("xchacha20") as tfm:
        tfm.setkey(pattern(32, seed=1))
        ours = tfm.encrypt(data, pattern(24, seed=3) + bytes(8))
    assert peers["pycryptodome-xchacha20"].op("encrypt", 200)() == ours
    xts_new = {p.key: p for p in speed_peers.available_peers()}["cryptography-aes-256-xts"]
    assert bytes(peers["cryptography-aes-256-xts"].op("encrypt", 200)()[:200]) == \
        xts_new.op("encrypt", 200)()


def test_all_drivers_measures_every_xts_driver_beside_cryptography(capsys, tmp_path):
    from crypto_api.tools.speed_targets import drivers_of
    report, out = run_json(capsys, tmp_path, "--alg", "xts(aes)", "--all-drivers", "--peers",
                           "--sizes", "512", *FAST)
    every = drivers_of("xts(aes)")
    names = [t["name"] for t in report["targets"]]
    assert names == ["xts(aes)"] + every + ["cryptography AES-256-XTS"]
    assert "xts-aes-aesni" in every
    for d in every:
        assert re.search(rf"^{re.escape(d)}: {re.escape(d)}  \[skcipher, priority \d+, pinned\]", out, re.M)
