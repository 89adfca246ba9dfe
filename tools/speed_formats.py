"""Output formats of the speed tool, rendered from a report (see speed_run).

* ``table``: per algorithm, best-of-N time per call, MB/s (10^6 bytes/s),
  cycles/byte and the spread of the samples at each size, with the ratio to
  each related peer (our throughput / peer throughput), then the
  bench-slope table;
* ``slope``: libgcrypt ``tests/bench-slope``'s table (nanosecs/byte,
  mebibytes/sec, cycles/byte, the MHz used) plus the per-call overhead (the
  intercept of the fitted line);
* ``csv``: bench-slope's ``--csv`` lines;
* ``go``: Go benchmark lines (one per sample) that ``benchstat`` reads.
"""

from __future__ import annotations

import os
from typing import Dict, List, Optional, Tuple

from .speed_machine import clock_line, load_line, machine_line
from .speed_stats import median

OP_SHORT = {"encrypt": "enc", "decrypt": "dec", "digest": "hash"}
OP_GO = {"encrypt": "Encrypt", "decrypt": "Decrypt", "digest": "Digest"}


def fmt_num(x: Optional[float]) -> str:
    """bench-slope's number format: 3 decimals below 1, 2 below 100, 1 below 1000, else none."""
    if x is None:
        return "-"
    a = abs(x)
    if a < 1:
        return f"{x:.3f}"
    if a < 100:
        return f"{x:.2f}"
    if a < 1000:
        return f"{x:.1f}"
    return f"{x:.0f}"


class Index:
    """Lookups into a report."""

    def __init__(self, report: dict) -> None:
        self.report = report
        self.targets = {t["id"]: t for t in report["targets"]}
        self.results = {(r["target"], r["op"], r["size"], r["threads"]): r for r in report["results"]}
        self.mhz = report["clock"].get("cpu_mhz")

    def ours(self) -> List[dict]:
        return [t for t in self.report["targets"] if t["kind"] == "ours"]

    def peers(self) -> List[dict]:
        return [t for t in self.report["targets"] if t["kind"] == "peer"]

    def sizes_of(self, tid: str, threads: int = 1) -> List[int]:
        seen = []
        for (t, _op, size, th) in self.results:
            if t == tid and th == threads and size not in seen:
                seen.append(size)
        return seen

    def best(self, tid: str, op: str, size: int, threads: int = 1) -> Optional[float]:
        r = self.results.get((tid, op, size, threads))
        if not r or "skipped" in r:
            return None
        return min(r["samples_ns"])

    def peers_of(self, target: dict) -> List[dict]:
        return [p for p in self.peers() if target["cra_name"] in p["relates"]]


def title_of(t: dict) -> str:
    if t["kind"] == "peer":
        return t["name"]
    return t["driver"]


def header_lines(report: dict) -> List[str]:
    s = report["settings"]
    lines = [machine_line(report["machine"]), clock_line(report["clock"])]
    load = load_line(report.get("load"), report["machine"].get("cpu_count"))
    if load:
        lines.append(load)
    measured = [r for r in report["results"] if "samples_ns" in r]
    if measured:
        retaken = sum(r.get("retaken", 0) for r in measured)
        lines.append(f"method: best of {s['repeat']} samples per point, each a batch of calls timed "
                     f"together (~{s['sample_ms']:g} ms) after calibration and a warm-up batch; "
                     f"the timing loop costs {report['loop_overhead_ns']:.1f} ns per call (included); "
                     f"{retaken} samples descheduled by other processes were retaken")
    if report.get("cpu_mask"):
        m = report["cpu_mask"]
        lines.append(f"cpu mask: {', '.join(m['masked'])} hidden from our drivers"
                     + (f", openssl speed and cryptography (OPENSSL_ia32cap={m['openssl_ia32cap']}; "
                        f"cryptography {m.get('cryptography')})" if m.get("openssl_ia32cap") else ""))
    if any(t.get("into") for t in report["targets"]):
        lines.append("skciphers: tfm.encrypt(data, iv, out=buf) into one preallocated buffer (--into); "
                     "cipher peers write into one too (update_into, output=)")
    return lines


# ---------------------------------------------------------------------------
# size table

def _mbs(size: int, ns: Optional[float]) -> Optional[float]:
    return None if not ns else size * 1e3 / ns


def _cpb(ns: Optional[float], size: int, mhz: Optional[float]) -> Optional[float]:
    return None if ns is None or not mhz else ns * mhz / 1000 / size


def _spread(r: dict) -> str:
    xs = r["samples_ns"]
    mid = median(xs)
    return f"{(max(xs) - min(xs)) / mid * 100:.1f}%" if mid else "-"


def _ratio(ours: Optional[float], peer: Optional[float]) -> str:
    if not ours or not peer:
        return "-"
    return f"{peer / ours:.2f}x"


def size_table(ix: Index, t: dict, peer_letters: Dict[str, str]) -> List[str]:
    """The size table of one target (ours with ratio columns, or a peer)."""
    ops = t["ops"]
    lines = []
    if t["kind"] == "ours":
        pin = ", pinned" if t["pinned"] else ""
        pin += ", emulated (qemu-user: compares designs, not hosts)" if t.get("emulated") else ""
        lines.append(f"{t['name']}: {t['driver']}  [{t['type']}, priority {t['priority']}{pin}]")
    else:
        lines.append(f"peer {t['name']}: {t['library']}; {t['note']}")
    peers = ix.peers_of(t) if t["kind"] == "ours" else []
    for p in peers:
        lines.append(f"  [{peer_letters[p['id']]}] {p['name']} ({p['relates'][t['cra_name']]})")
    head = f"{'bytes':>9}"
    for op in ops:
        o = OP_SHORT[op]
        head += f" | {o + ' ns/call':>13} {o + ' MB/s':>10} {'c/B':>8} {'spread':>7}"
    ratio_cols = [(p, op) for p in peers for op in ops if op in p["ops"]]
    if ratio_cols:
        head += " |" + "".join(f" {'x[' + peer_letters[p['id']] + ']' + OP_SHORT[op]:>8}"
                               for p, op in ratio_cols)
    lines.append(head)
    for size in ix.sizes_of(t["id"]):
        first = ix.results.get((t["id"], ops[0], size, 1))
        if first and "skipped" in first:
            lines.append(f"{size:>9} | skipped: {first['skipped']}")
            continue
        row = f"{size:>9}"
        for op in ops:
            r = ix.results.get((t["id"], op, size, 1))
            if not r or "skipped" in r:
                row += f" | {'-':>13} {'-':>10} {'-':>8} {'-':>7}"
                continue
            ns = min(r["samples_ns"])
            row += (f" | {fmt_num(ns):>13} {fmt_num(_mbs(size, ns)):>10} "
                    f"{fmt_num(_cpb(ns, size, ix.mhz)):>8} {_spread(r):>7}")
        if ratio_cols:
            row += " |" + "".join(
                f" {_ratio(ix.best(t['id'], op, size), ix.best(p['id'], op, size)):>8}"
                for p, op in ratio_cols)
        lines.append(row)
    return lines


def scaling_pair(r: Optional[dict], one_best: Optional[float]) -> Optional[float]:
    """Scaling of an N-thread result: its paired one-thread best (sampled
    alternately with it) over its own best; else ``one_best`` (the table's)."""
    if not r or "samples_ns" not in r:
        return None
    one = min(r["one_thread_samples_ns"]) if r.get("one_thread_samples_ns") else one_best
    return None if one is None else one / min(r["samples_ns"])


def _scaling_head(threads: int) -> str:
    return f"{'bytes':>9} | {'1 thread':>12} {str(threads) + ' threads':>12} {'scaling':>9}"


def _scaling_row(size: int, one: float, many: float) -> str:
    """A row of the threads tables from best ns per call of one thread and
    aggregate ns per call of N."""
    return (f"{size:>9} | {fmt_num(_mbs(size, one)):>12} {fmt_num(_mbs(size, many)):>12} "
            f"{one / many:>8.2f}x")


def threads_table(ix: Index, threads: int) -> List[str]:
    lines = [f"threads: {threads} threads at once, one transform each; aggregate MB/s and "
             "scaling = aggregate / one thread (sampled alternately with it)"]
    for t in ix.ours():
        for op in t["ops"]:
            rows = []
            for size in ix.sizes_of(t["id"], threads):
                r = ix.results.get((t["id"], op, size, threads))
                many = ix.best(t["id"], op, size, threads)
                scaling = scaling_pair(r, ix.best(t["id"], op, size))
                if many is None or scaling is None:
                    continue
                rows.append(_scaling_row(size, many * scaling, many))
            if rows:
                lines.append(f"{t['name']} {op}: {t['driver']}")
                lines.append(_scaling_head(threads))
                lines += rows
    control = ix.report.get("thread_control") or []
    if control:
        lines.append(f"control, this machine's own scaling meanwhile: {control[0]['name']}, "
                     "one call per message, alternately 1 and N threads")
        lines.append(_scaling_head(threads))
        lines += [_scaling_row(c["size"], min(c["one_thread_samples_ns"]), min(c["samples_ns"]))
                  for c in control]
    return lines


def openssl_table(ix: Index) -> List[str]:
    o = ix.report.get("openssl")
    if not o:
        return []
    if not o.get("available"):
        return [f"openssl: not measured ({o.get('reason')})"]
    related = [t for t in ix.ours() if t["cra_name"] in o["relates"]]
    lines = [f"native reference: {o['command']} ({o['version']}; {o['note']})"]
    head = f"{'bytes':>9} | {'MB/s':>10}"
    for t in related:
        head += f" {'x ' + t['name'] + ' enc':>{max(16, len(t['name']) + 6)}}"
    lines.append(head)
    for r in o["results"]:
        size = r["size"]
        if "error" in r:
            lines.append(f"{size:>9} | error: {r['error']}")
            continue
        row = f"{size:>9} | {fmt_num(r['bytes_per_s'] / 1e6):>10}"
        peer_ns = size * 1e9 / r["bytes_per_s"]
        for t in related:
            row += f" {_ratio(ix.best(t['id'], 'encrypt', size), peer_ns):>{max(16, len(t['name']) + 6)}}"
        lines.append(row)
    return lines


def render_table(report: dict) -> str:
    ix = Index(report)
    out = header_lines(report)
    letters = {p["id"]: chr(ord("a") + i) for i, p in enumerate(ix.peers())}
    if report["results"]:
        out.append("sizes: MB/s = 10^6 bytes/s of the best sample; spread = (max - min) / median of the "
                   "samples; x[p] = our MB/s / peer p's MB/s at that size")
        for t in ix.ours() + ix.peers():
            out.append("")
            out += size_table(ix, t, letters)
        if report["settings"]["threads"] > 1:
            out.append("")
            out += threads_table(ix, report["settings"]["threads"])
    if report.get("openssl"):
        out.append("")
        out += openssl_table(ix)
    if report["slope"]:
        out.append("")
        out += slope_lines(report)
    if report.get("goals"):
        from .speed_goals import goal_lines
        out.append("")
        out += goal_lines(report)
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------
# bench-slope

def _slope_rows(report: dict) -> List[Tuple[dict, dict]]:
    ix = Index(report)
    return [(ix.targets[s["target"]], s) for s in report["slope"]]


def slope_lines(report: dict) -> List[str]:
    """libgcrypt bench-slope's table, with the per-call overhead beside it."""
    mhz = report["clock"].get("cpu_mhz")
    rows = _slope_rows(report)
    if not rows:
        return []
    width = max([15] + [len(title_of(t)) + 1 for t, _ in rows])
    sizes = report["settings"]["slope_sizes"]
    span = f"{sizes[0]}..{sizes[-1]} bytes" if sizes else "-"
    lines = [f"bench-slope: least-squares line of time against buffer size ({span}, best of "
             f"{report['settings']['slope_repeat']} samples each); slope = ns/B, intercept = "
             "per-call overhead; MiB/s = 2^20 bytes/s"]
    notes = []
    last = None
    for t, s in rows:
        if t["id"] != last:
            lines.append(f" {title_of(t):<{width}}|  nanosecs/byte   mebibytes/sec   cycles/byte"
                         f"   cpu Mhz {'per-call overhead':>18}")
            last = t["id"]
        ns_b = s.get("slope_ns_per_byte")
        mib = None if not ns_b or ns_b <= 0 else 1e9 / ns_b / 2 ** 20
        cpb = None if ns_b is None or not mhz else ns_b * mhz / 1000
        ovh = s.get("intercept_ns")
        label = OP_SHORT[s["op"]]
        lines.append(f"{label:>{width}} | {fmt_num(ns_b):>9} ns/B {fmt_num(mib):>9} MiB/s "
                     f"{fmt_num(cpb):>9} c/B {fmt_num(mhz) if mhz else '-':>9} "
                     f"{(fmt_num(ovh) + ' ns') if ovh is not None else '-':>18}")
        if s.get("note"):
            notes.append(f"{title_of(t)}: {s['note']}")
    lines += sorted(set(notes))
    return lines


def render_slope(report: dict) -> str:
    return "\n".join(header_lines(report) + [""] + slope_lines(report)) + "\n"


def render_csv(report: dict) -> str:
    """bench-slope ``--csv``: section,algo,mode,,,ns,ns/B,MiB/s,MiB/s,cpb,c/B[,mhz,Mhz]."""
    mhz = report["clock"].get("cpu_mhz")
    out = []
    for t, s in _slope_rows(report):
        ns_b = s.get("slope_ns_per_byte")
        if ns_b is None:
            continue
        section = "hash" if s["op"] == "digest" else "cipher"
        mib = 1e9 / ns_b / 2 ** 20 if ns_b > 0 else 0
        line = f"{section},{title_of(t)},{s['op']},,,{ns_b:.3f},ns/B,{mib:.2f},MiB/s"
        if mhz:
            line += f",{ns_b * mhz / 1000:.3f},c/B,{mhz:.0f},Mhz"
        out.append(line)
    return "\n".join(out) + ("\n" if out else "")


# ---------------------------------------------------------------------------
# Go benchmark format

def go_pretty(x: float, unit: str) -> str:
    """Go testing's prettyPrint: wider fields for smaller values."""
    y = abs(x)
    if y == 0 or y >= 999.95:
        return f"{x:10.0f} {unit}"
    if y >= 99.995:
        return f"{x:12.1f} {unit}"
    if y >= 9.9995:
        return f"{x:13.2f} {unit}"
    if y >= 0.99995:
        return f"{x:14.3f} {unit}"
    if y >= 0.099995:
        return f"{x:15.4f} {unit}"
    if y >= 0.0099995:
        return f"{x:16.5f} {unit}"
    return f"{x:18.7f} {unit}"


def go_name(t: dict, op: str, size: int, threads: int, procs: int) -> str:
    name = t["name"].replace(" ", "_")
    sub = f"/threads={threads}" if threads > 1 else ""
    return f"Benchmark{OP_GO[op]}/{name}/{size}{sub}-{procs}"


def render_go(report: dict) -> str:
    m = report["machine"]
    procs = m.get("cpu_count") or os.cpu_count() or 1
    goarch = {"x86_64": "amd64", "aarch64": "arm64"}.get(m.get("machine"), m.get("machine"))
    out = ["goos: " + m.get("os", "").split()[0].lower(), f"goarch: {goarch}", "pkg: crypto_api",
           f"cpu: {m['cpu_model']}"]
    ix = Index(report)
    names = []
    for r in report["results"]:
        if "skipped" in r:
            continue
        names.append((go_name(ix.targets[r["target"]], r["op"], r["size"], r["threads"], procs), r))
    width = max([len(n) for n, _ in names] + [0])
    for name, r in names:
        for k, ns in zip(r["iterations"], r["samples_ns"]):
            line = f"{name:<{width}}\t{k * r['threads']:8d}\t{go_pretty(ns, 'ns/op')}"
            line += f"\t{r['size'] * 1e3 / ns:7.2f} MB/s"
            out.append(line)
    return "\n".join(out) + "\n"


RENDERERS = {"table": render_table, "slope": render_slope, "csv": render_csv, "go": render_go}
