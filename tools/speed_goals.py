"""``crypto-api speed --goals``: the project's speed goals as rows of ratios.

No kernel counterpart (the kernel's own headline for Adiantum is a tcrypt
figure; row 3 compares with it).  Each row is one ratio computed from one
speed report, so ours and the peer come from the same run, sampled in the
same rounds (see speed_run): our MB/s at a size over a peer's (a
``cryptography`` peer or native ``openssl speed -evp chacha20``), or the
aggregate MB/s of two threads (one transform each) over one thread's, the
two sampled alternately (speed_measure.measure_scaling); beside those rows,
the control: the same ratio for hashlib.sha256 measured with them, what this
machine gave two threads at that time (speed_control).  Each
side's spread is shown beside the ratio ((max - min) / median of its samples;
under ``--goals`` ``openssl speed`` runs as many rounds as we take samples,
one after each of our sampling rounds (speed_run), its best rate taken as
our best sample is).

The goals are stated for an AVX2 machine without AVX-512; ``--goals``
therefore masks AVX-512 (``--cpu-mask``) where the CPU has it, for our
drivers, for ``openssl speed`` and for ``cryptography``'s OpenSSL alike
(``OPENSSL_ia32cap``, see :func:`openssl_ia32cap`).
"""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence

import attrs

from .speed_stats import median

#: What ``--goals`` measures unless told otherwise.
GOAL_ALGS = ("xchacha20", "xchacha12", "adiantum(xchacha12,aes)", "gcm(aes)")
GOAL_SIZES = (16, 512, 4096, 65536, 1 << 20)
GOAL_MASK = ("avx512f", "avx512vl", "avx512bw")

# CPUID bits of OPENSSL_ia32cap (OpenSSL's x86 capability vector, see its
# OPENSSL_ia32cap(3) manual): the first 64-bit word is CPUID.1 EDX (low) and
# ECX (high), the second CPUID.(EAX=7,ECX=0) EBX (low) and ECX (high).
_IA32CAP_BITS: Dict[str, tuple] = {
    "ssse3": (0, 32 + 9), "pclmulqdq": (0, 32 + 1), "aes": (0, 32 + 25), "avx": (0, 32 + 28),
    "avx2": (1, 5), "avx512f": (1, 16), "avx512dq": (1, 17), "avx512ifma": (1, 21),
    "sha_ni": (1, 29), "avx512bw": (1, 30), "avx512vl": (1, 31),
    "vaes": (1, 32 + 9), "vpclmulqdq": (1, 32 + 10),
}


def openssl_ia32cap(features: Sequence[str]) -> Optional[str]:
    """The ``OPENSSL_ia32cap`` value that hides ``features`` from OpenSSL
    (``~mask`` clears those bits of what CPUID reports), or None when none of
    them is a bit OpenSSL reads."""
    words = [0, 0]
    for f in features:
        if f in _IA32CAP_BITS:
            word, bit = _IA32CAP_BITS[f]
            words[word] |= 1 << bit
    if not any(words):
        return None
    return ":".join(f"~0x{w:x}" if w else "" for w in words)


@attrs.define(frozen=True)
class Goal:
    """One row: ``ours`` (alg, size, threads) over ``peer`` at ``peer_size``.

    ``peer`` is a peer target id, "openssl", "1 thread" (the same alg and
    size on one thread: a scaling row), or one of our own targets (the same
    alg at another ``peer_size``: a per-message cost row)."""

    row: str
    what: str
    alg: str
    size: int
    peer: str
    goal: float
    threads: int = 1
    peer_size: Optional[int] = None
    #: the operation measured ("digest" for a hash)
    op: str = "encrypt"
    #: measured with AVX-512 on, by the run's second phase (speed_goals_wide)
    wide: bool = False


GOALS = (
    Goal("1", "xchacha20 4 KiB vs openssl speed -evp chacha20", "xchacha20", 4096, "openssl", 0.6),
    Goal("2", "xchacha20 1 MiB vs openssl speed -evp chacha20", "xchacha20", 1 << 20, "openssl", 1.0),
    Goal("3", "adiantum(xchacha12,aes) 4 KiB vs openssl chacha20 4 KiB", "adiantum(xchacha12,aes)",
         4096, "openssl", 0.5),
    Goal("4", "adiantum 512 B vs cryptography AES-256-XTS", "adiantum(xchacha12,aes)", 512,
         "peer:cryptography-aes-256-xts", 5.0),
    Goal("5", "xchacha20 16-byte encrypt vs cryptography ChaCha20", "xchacha20", 16,
         "peer:cryptography-chacha20", 6.0),
    Goal("5'", "xchacha12 16-byte encrypt vs cryptography ChaCha20", "xchacha12", 16,
         "peer:cryptography-chacha20", 6.0),
    Goal("7", "xchacha12 64 KiB, 2 threads vs 1", "xchacha12", 65536, "1 thread", 1.8, threads=2),
    Goal("8", "xchacha12 4 KiB, 2 threads vs 1", "xchacha12", 4096, "1 thread", 1.6, threads=2),
    Goal("8'", "adiantum 4 KiB, 2 threads vs 1", "adiantum(xchacha12,aes)", 4096, "1 thread", 1.6,
         threads=2),
    Goal("G1", "gcm(aes) 4 KiB vs cryptography AES-256-GCM", "gcm(aes)", 4096,
         "peer:cryptography-aes-256-gcm", 0.8),
    Goal("G2", "gcm(aes) 1 MiB vs cryptography AES-256-GCM", "gcm(aes)", 1 << 20,
         "peer:cryptography-aes-256-gcm", 0.8),
    # speed round 3, its rows 1-3 (R1-R3): the same measurements as rows 1-3
    # against the round's goals
    Goal("R1", "xchacha20 4 KiB vs openssl speed -evp chacha20", "xchacha20", 4096, "openssl", 1.0),
    Goal("R2", "xchacha20 1 MiB vs openssl speed -evp chacha20", "xchacha20", 1 << 20, "openssl", 1.15),
    Goal("R3", "adiantum(xchacha12,aes) 4 KiB vs openssl chacha20 4 KiB", "adiantum(xchacha12,aes)",
         4096, "openssl", 1.0),
    # speed round 3, its rows 4 and 5 (R4, R5): the per-message cost
    Goal("R4", "adiantum 512 B vs adiantum 4 KiB (per-message cost)", "adiantum(xchacha12,aes)",
         512, "adiantum(xchacha12,aes)", 0.5, peer_size=4096),
    Goal("R5", "xchacha20 16-byte encrypt vs cryptography ChaCha20", "xchacha20", 16,
         "peer:cryptography-chacha20", 15.0),
    # speed round 3, rows 6-9: AVX-512 on, both sides (the run's second phase)
    Goal("R6", "poly1305 64 KiB vs cryptography Poly1305 (AVX-512 on)", "poly1305", 65536,
         "peer:cryptography-poly1305", 1.1, op="digest", wide=True),
    Goal("R7", "rfc7539 1 MiB vs cryptography ChaCha20-Poly1305 (AVX-512 on)", "rfc7539(chacha20,poly1305)",
         1 << 20, "peer:cryptography-chacha20poly1305", 1.2, wide=True),
    Goal("R8", "ctr(aria) 64 KiB vs ctr(aes) (AVX-512 on)", "ctr(aria)", 65536, "ctr(aes)", 0.133, wide=True),
    Goal("R9", "xts(aria) 64 KiB vs ctr(aria) (AVX-512 on)", "xts(aria)", 65536, "ctr(aria)", 0.8, wide=True),
)
#: What the second phase measures (``--goals`` with its default algorithms), at these sizes.
WIDE_ALGS = ("poly1305", "rfc7539(chacha20,poly1305)", "ctr(aria)", "ctr(aes)", "xts(aria)")
WIDE_SIZES = (65536, 1 << 20)


def _samples(report: Optional[dict], target: str, size: int, threads: int,
             field: str = "samples_ns", op: str = "encrypt") -> Optional[List[float]]:
    """One field of the ``op`` result of ``target`` at ``size`` on ``threads``
    threads: its samples, or (``one_thread_samples_ns``) the one-thread
    samples taken alternately with a threads result."""
    for r in (report or {}).get("results", ()):
        if (r["target"], r["op"], r["size"], r["threads"]) == (target, op, size, threads):
            return r.get(field)
    return None


def control_rows(report: dict) -> List[dict]:
    """The machine's own thread scaling (speed_control) at each scaling row's size."""
    rows = []
    sizes = sorted({g.size for g in GOALS if g.peer == "1 thread"})
    for c in report.get("thread_control") or []:
        if c["size"] in sizes:
            one, many = c["one_thread_samples_ns"], c["samples_ns"]
            rows.append({"what": f"control: {c['name']} {_size_name(c['size'])}, {c['threads']} threads vs 1",
                         "ratio": min(one) / min(many), "ours_spread": _spread(many),
                         "peer_spread": _spread(one), "ours_mbps": _mbps(c["size"], min(many)),
                         "peer_mbps": _mbps(c["size"], min(one))})
    return rows


def _mbps(size: int, best_ns: Optional[float]) -> Optional[float]:
    """MB/s (10^6 bytes) of a best sample: ns per call of ``size`` bytes
    (a threads sample: per call of all threads together, so the aggregate)."""
    return size / best_ns * 1e3 if best_ns else None


def _size_name(n: int) -> str:
    return f"{n >> 10} KiB" if n % 1024 == 0 else f"{n} B"


def _spread(xs: Optional[List[float]]) -> Optional[float]:
    if not xs:
        return None
    mid = median(xs)
    return (max(xs) - min(xs)) / mid if mid else None


def _openssl_ns(report: dict, size: int) -> Optional[List[float]]:
    """ns per call of each ``openssl speed`` round at ``size`` (best rate if one)."""
    o = report.get("openssl") or {}
    for r in o.get("results", []):
        if r["size"] == size and "bytes_per_s" in r:
            return [size * 1e9 / b for b in r.get("rounds_bytes_per_s", [r["bytes_per_s"]])]
    return None


def evaluate(report: dict) -> List[dict]:
    """Each goal's ratio (None where the report lacks a side) and spreads."""
    rows = []
    for g in GOALS:
        source = report.get("wide") if g.wide else report      # the AVX-512 phase's own report
        ours = _samples(source, g.alg, g.size, g.threads, op=g.op)
        peer_size = g.peer_size or g.size
        if g.peer == "openssl":
            peer = _openssl_ns(report, peer_size)
            peer_best = min(peer) if peer else None
            if peer and len(peer) < 2:
                peer = None                 # one figure: no spread
        elif g.peer == "1 thread":
            # the one-thread samples taken alternately with these (else the table's)
            peer = _samples(report, g.alg, g.size, g.threads, "one_thread_samples_ns") or _samples(report, g.alg, g.size, 1)
            peer_best = min(peer) if peer else None
        else:
            peer = _samples(source, g.peer, peer_size, 1, op=g.op)
            peer_best = min(peer) if peer else None
        ratio = None
        if ours and peer_best:
            # throughput ratio: bytes per ns of ours over the peer's (a threads result's
            # samples are already ns per call of all threads together: speed_measure)
            ratio = (g.size / min(ours)) / (peer_size / peer_best)
        rows.append({"row": g.row, "what": g.what, "goal": g.goal, "ratio": ratio,
                     "met": None if ratio is None else ratio >= g.goal,
                     "ours_spread": _spread(ours), "peer_spread": _spread(peer),
                     "ours_mbps": _mbps(g.size, min(ours) if ours else None),
                     "peer_mbps": _mbps(peer_size, peer_best)})
    return rows


def _rate(x: Optional[float]) -> str:
    return "-" if x is None else f"{x:.1f}" if x < 100 else f"{x:.0f}"


def _goal(x: float) -> str:
    """A goal as written: one decimal, two where it has them (1.15x)."""
    return f"{x:.1f}x" if round(x, 1) == x else f"{x:.2f}x"


def _pct(x: Optional[float]) -> str:
    return "-" if x is None else f"{x * 100:.1f}%"


def wide_line(wide: dict) -> str:
    """What the AVX-512 phase measured: the drivers its names resolved to, or its error."""
    if wide.get("error"):
        return f"rows R6-R9 (AVX-512 on): not measured: {wide['error']}"
    drivers = [f"{t['name']} = {t['driver']}" for t in wide.get("targets", ()) if t.get("kind") != "peer"]
    return "rows R6-R9: AVX-512 on, a second run (composite registry): " + ", ".join(drivers)


def goal_lines(report: dict) -> List[str]:
    """The goals table of a report made with ``--goals``."""
    mask = report.get("cpu_mask") or {}
    lines = ["speed goals: ratio = our MB/s / the peer's MB/s (or 2 threads' aggregate / 1 thread's), "
             "best samples of this run, both MB/s shown; spread = (max - min) / median of each side's samples",
             f"cpu mask: {', '.join(mask.get('masked', [])) or 'none'}"
             + (f"; OPENSSL_ia32cap={mask['openssl_ia32cap']}" if mask.get("openssl_ia32cap") else "")
             + (f"; cryptography: {mask['cryptography']}" if mask.get("cryptography") else "")]
    wide = report.get("wide")
    if wide is not None:
        lines.append(wide_line(wide))
    lines.append(f"{'row':>4} | {'measure':<55} | {'ratio':>7} {'goal':>6} {'met':>4} | "
                 f"{'ours spread':>11} {'peer spread':>11} | {'ours MB/s':>9} {'peer MB/s':>9}")
    for r in evaluate(report):
        ratio = "-" if r["ratio"] is None else f"{r['ratio']:.2f}x"
        met = "-" if r["met"] is None else ("yes" if r["met"] else "no")
        lines.append(f"{r['row']:>4} | {r['what']:<55} | {ratio:>7} {_goal(r['goal']):>6} {met:>4} | "
                     f"{_pct(r['ours_spread']):>11} {_pct(r['peer_spread']):>11} | "
                     f"{_rate(r['ours_mbps']):>9} {_rate(r['peer_mbps']):>9}")
    for c in control_rows(report):
        lines.append(f"{'ctl':>4} | {c['what']:<55} | {c['ratio']:>6.2f}x {'-':>6} {'-':>4} | "
                     f"{_pct(c['ours_spread']):>11} {_pct(c['peer_spread']):>11} | "
                     f"{_rate(c['ours_mbps']):>9} {_rate(c['peer_mbps']):>9}")
    lines.append("   6 | disk tool 512-byte vs 4096-byte sectors: measured by the disk tool, not here")
    return lines
